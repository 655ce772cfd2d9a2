"""Warhammer Battle list problem codes (systems/whfb/army.py) as sentences in the reader's language."""
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from armylists.messages import render_problem

TEMPLATES = {
    "option_unknown": _("“%(name)s”: “%(option)s” is not an option Muster knows (mantlets or stakes)."),
    "option_disabled": _("“%(name)s”: this event does not use the %(option)s rule."),
    "option_not_allowed": _("“%(name)s”: %(option)s are only for foot shooting units and war machines, not %(unit_type)s."),
    "baggage_not_core": _("“%(name)s”: the baggage must be Core troops."),
    "baggage_disabled": _("This event does not use the army baggage rule."),
    "baggage_not_allowed": _("Undead and Daemon armies (%(faction)s) have no baggage."),
    "baggage_over_allowance": _("The baggage costs %(points)s points; the allowance is %(allowance)s."),
    "baggage_below_required": _("The baggage costs %(points)s points; it must be at least %(required)s."),
    "slot_below_min_pct": _("%(slot)s: %(points)s points (%(percent)s%%); at least %(min)s%% needed."),
    "slot_above_max_pct": _("%(slot)s: %(points)s points (%(percent)s%%); at most %(max)s%% allowed."),
}

# Refusals and problems the registry's messages render (armylists/systems/messages.py).
LIST_REFUSALS = {
    "option_unknown": TEMPLATES["option_unknown"],
    "whfb_unknown_slot": _("%(count)s units are in no Warhammer Battle slot: %(names)s."),
}


def render_whfb_problem(code: str, slot: str | None, params: Mapping[str, object],
                        slot_names: Mapping[str, str]) -> str:
    """A sentence for a WFB problem; other codes (points_over_limit, unknown_slot) as for 40k."""
    text = TEMPLATES.get(code)
    if text is None:
        return render_problem(code, slot, params, slot_names)
    try:
        return str(text) % {**params, "slot": slot_names.get(slot or "", slot or "")}
    except (KeyError, TypeError, ValueError):
        return code
