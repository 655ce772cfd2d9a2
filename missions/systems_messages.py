"""Refusals of the stateless tools of the other game systems (entered dice, Dynamics, WFB victory
points) as sentences in the reader's language; the code stays the stable part."""
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    # Dice thrown at the table (api-v1-systems "Common to every system").
    "dice_missing": _("Not enough dice were entered: %(given)s given, at least %(needed)s needed."),
    "dice_invalid": _("Die number %(position)s shows %(face)s, which a %(die)s cannot show."),
    "seed_and_dice": _("Give either a seed or the dice thrown at the table, not both."),
    "players_not_distinct": _("The two players need different names."),
    # W40K Dynamics (seed 004).
    "points_not_positive": _("The army must be worth at least 1 point."),
    "player_not_in_test": _("“%(player)s” does not take part in this advantage test."),
    "models_not_positive": _("A unit starts the pass with at least one model."),
    "pending_out_of_range": _(
        "Pending casualties must be between 0 and the %(models)s models the unit started the pass with."
    ),
    # Warhammer Battle victory points (seed 003).
    "side_names_duplicate": _("Both sides are called “%(name)s”; give them different names."),
    "baggage_captor_unknown": _("“%(name)s” is not one of the two sides, so it cannot have captured the baggage."),
    "vp_table_invalid": _("The victory-point table is not usable: %(reason)s"),
    "preset_unknown": _("Unknown table preset “%(preset)s”."),
    "table_and_preset": _("Give either a table or a preset, not both."),
    # Urban War (seed 002): command test, then results (systems/urban_war/table_rules.py).
    "cd_out_of_range": _("CD must be between %(min)s and %(max)s, not %(cd)s."),
    "cal_negative": _("A calibre is 0 or more, not %(cal)s."),
    "winner_contradicts_outcome": _(
        "The reported winner contradicts the outcome: the player whose commando was destroyed has lost."
    ),
    "unknown_model_label": _("The opponent has no model called “%(label)s”."),
    "model_label_repeated": _("The model “%(label)s” is listed twice as destroyed."),
    "commando_destroyed_not_reported": _(
        "Every model of a commando is listed as destroyed: report that commando as destroyed."
    ),
}

# Why a band table is refused (events/scoring.py codes), for vp_table_invalid.
TABLE_REASONS = {
    "empty": _("it has no band."),
    "band_shape": _("band %(band)s must be [min, max or null, winner points, loser points]."),
    "not_from_zero": _("the first band must start at a difference of 0."),
    "first_band_uneven": _("the first band is a draw, so it must give both players the same points."),
    "max_below_min": _("band %(band)s ends before it starts."),
    "gap_or_overlap": _("band %(band)s must start right after the band before it ends."),
    "bounded_end": _("the last band must have no upper bound (null)."),
    "unbounded_middle": _("only the last band may have no upper bound."),
    "scoring_shape": _('write {"mode": "wdl"} or {"mode": "vp_table", "table": [...]} or '
                       '{"mode": "vp_table", "preset": "oms-2011"}.'),
    "table_missing": _("a vp_table scoring needs a table or a preset."),
    "table_and_preset": _("give either a table or a preset, not both."),
    "preset_unknown": _("there is no table preset “%(preset)s”."),
    "negative_points": _("band %(band)s gives negative tournament points."),
}


def system_message(code: str, params: Mapping[str, object]) -> str:
    """The sentence for ``code``; an unknown code or bad params fall back to the code itself."""
    text = MESSAGES.get(code)
    if text is None:
        return code
    try:
        return str(text) % params if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        return code


def table_reason(reason: str, params: Mapping[str, object]) -> str:
    text = TABLE_REASONS.get(reason)
    if text is None:
        return reason
    try:
        return str(text) % params if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        return reason
