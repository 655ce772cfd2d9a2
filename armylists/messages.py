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


def _join(head: str, tail: str) -> str:
    # Punctuation spacing differs by language ("a; b" / "a ; b"), so the joint is translated too.
    return _("%(head)s; %(tail)s") % {"head": head, "tail": tail}


def _slot_below_min(p: Params, slot: str) -> str:
    count = int(p["count"])
    head = ngettext("%(slot)s: %(count)s choice", "%(slot)s: %(count)s choices", count)
    tail = _("this chart requires at least %(min)s.")
    return _join(head % {"slot": slot, "count": count}, tail % p)


def _slot_above_max(p: Params, slot: str) -> str:
    head = _("%(slot)s: %(count)s choices (%(names)s)") % {
        "slot": slot, "count": p["count"], "names": _names(p)
    }
    return _join(head, _("this chart allows at most %(max)s.") % p)


def _slot_forbidden(p: Params, slot: str) -> str:
    count = int(p["count"])
    head = ngettext("%(slot)s: %(count)s choice", "%(slot)s: %(count)s choices", count)
    head = head % {"slot": slot, "count": count}
    return _join(f"{head} ({_names(p)})", _("this chart allows none."))


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


def _points_above_chart_max(p: Params, slot: str) -> str:
    return _("The list totals %(total)s points; this chart allows at most %(max)s.") % p


def _no_category(p: Params, slot: str) -> str:
    return _("“%(name)s” has no category in the roster, so it counts towards no slot.") % p


def _no_slot_category(p: Params, slot: str) -> str:
    return _("“%(name)s” (%(category)s) takes no slot of the chart.") % p


def _points_missing(p: Params, slot: str) -> str:
    return _("“%(name)s” has no points cost in the roster; it was counted as 0.") % p


def _negative_points(p: Params, slot: str) -> str:
    return _("“%(name)s” has a negative cost (%(points)s) in the roster; it was counted as 0.") % p


def _total_mismatch(p: Params, slot: str) -> str:
    return _("The roster declares %(declared)s points but its units add up to %(computed)s.") % p


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
    "points_above_chart_max": _points_above_chart_max,
    "no_category": _no_category,
    "no_slot_category": _no_slot_category,
    "points_missing": _points_missing,
    "negative_points": _negative_points,
    "total_mismatch": _total_mismatch,
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
        "empty": _("The roster is empty."),
        "bad_input": _("The roster could not be read as text or as a file."),
        "too_large": _("The file is too large (%(size)s bytes; at most %(limit)s)."),
        "unknown_format": _("The roster's format was not recognised: send a BattleScribe text export, a .ros, a .rosz or a NewRecruit JSON file."),
        "bad_zip": _("The .rosz file is damaged or incomplete: it is not a readable zip archive."),
        "zip_bomb": _("The .rosz file unpacks to far more data than a roster holds; it was refused."),
        "no_ros_in_zip": _("The .rosz file holds no .ros roster."),
        "several_ros_in_zip": _("The .rosz file holds %(count)s rosters; send one army at a time."),
        "xml_entities_forbidden": _("The roster file uses XML entities or a DTD, which are not accepted."),
        "bad_xml": _("The roster file is not valid XML."),
        "bad_json": _("The roster file is not valid JSON."),
        "not_a_roster": _("The file is readable but is not a BattleScribe or NewRecruit roster."),
        "too_deep": _("The roster is nested too deeply to be a real army list."),
        "too_many_entries": _("The roster has too many units (at most %(limit)s)."),
        "bad_cost": _("A points cost in the roster is not a number (%(value)s)."),
        "no_units": _("No unit could be read from the roster: check that it is a complete export."),
    }
    text = texts.get(reason, _("The roster could not be read."))
    try:
        return text % params if "%(" in text else text
    except (KeyError, TypeError, ValueError):
        return _("The roster could not be read.")
