"""Urban War commando problem codes (systems/urban_war/commando.py) as sentences in the reader's language."""
from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armylists.messages import render_problem

TEMPLATES = {
    "commando_size_below_min": gettext_lazy("The commando has %(count)s models; it needs at least %(min)s."),
    "commando_size_above_max": gettext_lazy("The commando has %(count)s models; it may have at most %(max)s."),
    "commander_missing": gettext_lazy("Name one model of the commando as its commander."),
    "commander_multiple": gettext_lazy("%(count)s models are named commander; a commando has exactly one."),
    "unknown_profile": gettext_lazy("There is no profile card %(profile)s in this game system."),
    "option_not_available": gettext_lazy("“%(label)s”: card %(profile)s has no option “%(option)s”."),
    "label_duplicate": gettext_lazy("%(count)s models are called “%(label)s”; give each model its own name."),
    "profile_copies_above_max": gettext_lazy(
        "%(count)s models use card %(profile)s; this event allows at most %(max)s."),
    "option_repeated": gettext_lazy("“%(label)s”: the option “%(option)s” is listed twice; it was counted once."),
}


def _cal_not_available(params: Mapping[str, object]) -> str:
    available = params.get("available") or ()
    if not available:
        return _("Card %(profile)s has no calibre with a cost.") % params
    return _("Card %(profile)s has no cost at CAL %(cal)s; choose CAL %(available)s.") % {
        **params, "available": ", ".join(str(cal) for cal in available)}


def render_urban_war_problem(code: str, params: Mapping[str, object]) -> str:
    """A sentence for a commando problem; ``points_over_limit`` reads as for every list."""
    try:
        if code == "cal_not_available":
            return _cal_not_available(params)
        text = TEMPLATES.get(code)
        if text is None:
            return render_problem(code, None, params, {})
        return str(text) % params if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        return code
