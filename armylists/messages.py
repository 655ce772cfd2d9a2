"""Problem codes rendered as sentences a player understands, in the reader's language."""
from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Params = Mapping[str, object]


def _names(params: Params) -> str:
    names = params.get("names") or ()
    return ", ".join(str(n) for n in names)


def _points_over_limit(p: Params, slot: str) -> str:
    return _("The list totals %(total)s points; the limit is %(limit)s (%(excess)s too many).") % p


def _points_below_chart_min(p: Params, slot: str) -> str:
    return _("The list totals %(total)s points; this chart needs at least %(min)s.") % p


def _points_limit_outside_chart(p: Params, slot: str) -> str:
    return _("This chart is for armies of %(min)s to %(max)s points, not %(limit)s.") % p


def _slot_below_min(p: Params, slot: str) -> str:
    count = int(p["count"])
    head = ngettext("%(slot)s: %(count)s choice", "%(slot)s: %(count)s choices", count)
    tail = _("this chart requires at least %(min)s.")
    return f"{head % {'slot': slot, 'count': count}}; {tail % p}"


def _slot_above_max(p: Params, slot: str) -> str:
    head = _("%(slot)s: %(count)s choices (%(names)s)") % {
        "slot": slot, "count": p["count"], "names": _names(p)
    }
    return f"{head}; " + _("this chart allows at most %(max)s.") % p


def _slot_forbidden(p: Params, slot: str) -> str:
    count = int(p["count"])
    head = ngettext("%(slot)s: %(count)s choice", "%(slot)s: %(count)s choices", count)
    head = head % {"slot": slot, "count": count}
    return f"{head} ({_names(p)}); " + _("this chart allows none.")


def _entry_without_slot(p: Params, slot: str) -> str:
    return _("“%(name)s” has no slot, so it counts towards no slot of the chart.") % p


def _entry_zero_points(p: Params, slot: str) -> str:
    return _("“%(name)s” costs 0 points: check that its cost was read.") % p


def _unknown_slot(p: Params, slot: str) -> str:
    return _("“%(name)s” is in an unknown slot “%(slot)s”.") % {**p, "slot": slot}


def _unknown_category(p: Params, slot: str) -> str:
    return _("“%(name)s”: the category “%(category)s” matches no slot.") % p


def _other_game_system(p: Params, slot: str) -> str:
    return _("This roster was made for another game system (%(found)s); it was read anyway.") % p


RENDERERS: dict[str, Callable[[Params, str], str]] = {
    "points_over_limit": _points_over_limit,
    "points_below_chart_min": _points_below_chart_min,
    "points_limit_outside_chart": _points_limit_outside_chart,
    "slot_below_min": _slot_below_min,
    "slot_above_max": _slot_above_max,
    "slot_forbidden": _slot_forbidden,
    "entry_without_slot": _entry_without_slot,
    "entry_zero_points": _entry_zero_points,
    "unknown_slot": _unknown_slot,
    "unknown_category": _unknown_category,
    "other_game_system": _other_game_system,
}


def render_problem(code: str, slot: str | None, params: Params, slot_names: Mapping[str, str]) -> str:
    """A sentence for one problem; unknown codes fall back to the code so nothing is hidden."""
    renderer = RENDERERS.get(code)
    slot_name = slot_names.get(slot or "", slot or "")
    if renderer is None:
        return code
    try:
        return renderer(params, slot_name)
    except (KeyError, TypeError, ValueError):
        return code


def render_roster_error(reason: str, params: Params) -> str:
    """Why a roster could not be read, in the reader's language."""
    texts = {
        "too_large": _("The file is too large (at most %(limit)s bytes)."),
        "bad_zip": _("The .rosz file is damaged or incomplete: it is not a readable zip archive."),
        "zip_bomb": _("The .rosz file unpacks to far more data than a roster holds; it was refused."),
        "no_ros_in_zip": _("The .rosz file holds no .ros roster."),
        "xml_entities_forbidden": _("The roster file uses XML entities or a DTD, which are not accepted."),
        "bad_xml": _("The roster file is not valid XML (%(error)s)."),
        "bad_json": _("The roster file is not valid JSON (%(error)s)."),
        "unknown_format": _("The roster's format was not recognised: send a BattleScribe text export, a .ros, a .rosz or a NewRecruit JSON file."),
        "too_many_entries": _("The roster has too many units (at most %(limit)s)."),
        "empty": _("The roster is empty: no unit could be read from it."),
        "bad_encoding": _("The roster text is not valid UTF-8."),
    }
    text = texts.get(reason, _("The roster could not be read."))
    try:
        return text % params if "%(" in text else text
    except (KeyError, TypeError, ValueError):
        return _("The roster could not be read.")
