"""Problems that belong to the registry rather than to one engine, in the reader's language;
and each system's own list refusals (``GameSystem.list_refusals``)."""
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from armylists.messages import render_roster_error
from systems.registry import game_systems

TEMPLATES = {
    "field_ignored": _("“%(field)s” is not read for the chart %(chart)s; it was ignored."),
    "faction_unknown": _("There is no faction “%(faction)s” in this game system."),
    "size_bounds_invalid": _("The commando size bounds are reversed: at least %(min)s, at most %(max)s."),
    "chart_rules_invalid": _("The chart %(chart)s has rules Muster cannot read; ask the organiser to fix them."),
    "game_system_unknown": _("There is no game system “%(game_system)s”."),
    "unit_type_assumed": _("A roster gives no unit types: its %(count)s units were read as infantry "
                           "without options; set each unit's type on the list page to add mantlets, "
                           "stakes or baggage."),
}


def render(code: str, params: Mapping[str, object]) -> str | None:
    """The sentence, or None when the code is not the registry's."""
    if code == "roster_unreadable":
        return render_roster_error(str(params.get("reason", "")), params)
    text = TEMPLATES.get(code) or _system_text(code)
    if text is None:
        return None
    shown = {key: ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
             for key, value in params.items()}
    try:
        return str(text) % shown
    except (KeyError, TypeError, ValueError):
        return code


def _system_text(code: str) -> str | None:
    """A system's own list refusal (``GameSystem.list_refusals``)."""
    return next((system.list_refusals[code] for system in game_systems()
                 if code in system.list_refusals), None)
