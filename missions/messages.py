"""Mission-side problem codes as sentences a player understands, in the reader's language."""
from collections.abc import Mapping

from django.utils.translation import gettext as _


def stratagem_message(code: str, params: Mapping[str, object], names: Mapping[str, str]) -> str:
    """`names` maps stratagem and category slugs to their names in the reader's language."""
    p = {key: names.get(str(value), value) if isinstance(value, str) else value
         for key, value in params.items()}
    texts = {
        "stratagem_unknown": _("“%(stratagem)s” is not a stratagem of the catalogue."),
        "stratagem_forbidden": _("%(stratagem)s: this mission forbids %(category)s stratagems."),
        "stratagem_duplicate": _("%(stratagem)s is declared %(declared)s times; at most %(allowed)s allowed."),
        "stratagem_limit": _("%(counted)s stratagems count towards the allowance; this level and mission allow %(allowed)s."),
    }
    return _format(texts.get(code), p, code)


def vp_message(code: str, params: Mapping[str, object]) -> str:
    texts = {
        "sides_count": _("A game has exactly two sides (%(count)s given)."),
        "side_names_duplicate": _("Both sides are called “%(name)s”; give them different names."),
        "role_unknown": _("Unknown role “%(role)s”: use attacker or defender."),
        "roles_invalid": _("One side must be the attacker and the other the defender."),
        "roles_required": _("This mission scores by role: say which side attacks and which defends."),
        "unit_type_unknown": _("“%(unit)s”: unknown unit type “%(type)s” (infantry, vehicle or character)."),
        "unit_points_negative": _("“%(unit)s”: points cannot be negative."),
        "unit_wounds_incomplete": _("“%(unit)s”: give both starting and remaining wounds, or neither."),
        "vehicle_damage_unknown": _("“%(unit)s”: unknown vehicle damage “%(value)s” (none, damaged or destroyed)."),
        "vehicle_damage_not_vehicle": _("“%(unit)s”: only a vehicle can be damaged or destroyed as a vehicle."),
        "unit_exited_destroyed": _("“%(unit)s” cannot both leave the table and be destroyed or falling back."),
        "unit_starting_models_invalid": _("“%(unit)s”: a unit starts with at least one model."),
        "unit_starting_wounds_invalid": _("“%(unit)s”: a character starts with at least one wound."),
        "unit_remaining_models_invalid": _("“%(unit)s”: %(value)s models remaining, but it started with %(starting)s."),
        "unit_remaining_wounds_invalid": _("“%(unit)s”: %(value)s wounds remaining, but it started with %(starting)s."),
    }
    return _format(texts.get(code), params, code)


def outcome_message(code: str, params: Mapping[str, object]) -> str:
    texts = {
        "objective_kind_unknown": _("This mission's objective (%(kind)s) is not one Muster can decide."),
        "outcome_key_missing": _("The outcome needs “%(key)s”."),
        "outcome_key_unexpected": _("The outcome has entries this mission does not use: %(keys)s."),
        "outcome_not_mapping": _("The outcome must be an object of named values."),
        "outcome_side_unknown": _("The outcome names a player who is not in this game."),
        "outcome_value_invalid": _("“%(key)s” has a value of the wrong kind."),
        "roles_required": _("This mission needs to know who attacks and who defends."),
        "sides_not_distinct": _("The two sides must be different."),
        "vp_required": _("This mission is decided by victory points: report both players' points."),
    }
    return _format(texts.get(code), params, code)


def _format(text: str | None, params: Mapping[str, object], code: str) -> str:
    if text is None:
        return code
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return code
