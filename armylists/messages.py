"""Problem codes rendered as sentences a player understands, in the reader's language."""
from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

Params = Mapping[str, object]


def _names(params: Params) -> str:
    names = params.get("names") or ()
    return ", ".join(str(n) for n in names)


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


def _unknown_slot(p: Params, slot: str) -> str:
    count = int(p["count"])
    head = ngettext("%(slot)s: %(count)s choice", "%(slot)s: %(count)s choices", count)
    head = head % {"slot": slot, "count": count}
    return _join(f"{head} ({_names(p)})", _("no slot of this game system has this code."))


def _other_edition(p: Params, slot: str) -> str:
    markers = p.get("markers") or ()
    if isinstance(markers, str):
        markers = (markers,)
    quoted = ", ".join(_("“%(text)s”") % {"text": marker} for marker in markers)
    return _(
        "This list seems to be written for another edition of Warhammer 40,000 (%(markers)s); "
        "it was read anyway: check it against the rules of this event."
    ) % {"markers": quoted}


TEMPLATES = {
    "points_over_limit": gettext_lazy("The list totals %(total)s points; the limit is %(limit)s (%(excess)s too many)."),
    "points_below_chart_min": gettext_lazy("The list totals %(total)s points; this chart needs at least %(min)s."),
    "points_limit_outside_chart": gettext_lazy("This chart is for armies of %(min)s to %(max)s points, not %(limit)s."),
    "entry_without_slot": gettext_lazy("“%(name)s” has no slot, so it counts towards no slot of the chart."),
    "entry_zero_points": gettext_lazy("“%(name)s” costs 0 points: check that its cost was read."),
    "unknown_category": gettext_lazy("“%(name)s”: the category “%(category)s” matches no slot."),
    "other_game_system": gettext_lazy("This roster was made for another game system (%(found)s); it was read anyway."),
    "points_above_chart_max": gettext_lazy("The list totals %(total)s points; this chart allows at most %(max)s."),
    "no_category": gettext_lazy("“%(name)s” has no category in the roster, so it counts towards no slot."),
    "no_slot_category": gettext_lazy("“%(name)s” (%(category)s) takes no slot of the chart."),
    "points_missing": gettext_lazy("“%(name)s” has no points cost in the roster; it was counted as 0."),
    "negative_points": gettext_lazy("“%(name)s” has a negative cost (%(points)s) in the roster; it was counted as 0."),
    "total_mismatch": gettext_lazy("The roster declares %(declared)s points but its units add up to %(computed)s."),
}

RENDERERS: dict[str, Callable[[Params, str], str]] = {
    "slot_below_min": _slot_below_min,
    "slot_above_max": _slot_above_max,
    "slot_forbidden": _slot_forbidden,
    "unknown_slot": _unknown_slot,
    "other_edition": _other_edition,
}


def render_problem(code: str, slot: str | None, params: Params, slot_names: Mapping[str, str]) -> str:
    """A sentence for one problem; unknown codes fall back to the code so nothing is hidden."""
    slot_name = slot_names.get(slot or "", slot or "")
    try:
        if code in TEMPLATES:
            return str(TEMPLATES[code]) % {**params, "slot": slot_name}
        renderer = RENDERERS.get(code)
        return renderer(params, slot_name) if renderer else code
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
