"""``parse_roster``: any supported upload in, entries and import warnings out, or RosterUnreadable.

Format: ``auto`` follows the upload's signature (see ``payload``). A stated format is followed
too, except when the signature names another one: a file's bytes are more reliable than its
name, and an uncompressed .ros saved as ``.rosz`` is common, so the signature wins. A stated
format whose signature is unknown is tried as stated (and fails with that format's reason).

Import warnings (codes, params): ``other_game_system`` (found) when the roster names a game
system outside ``expected_game_system_aliases`` (only checked when both are known; the text
export names none); ``other_edition`` (markers: the lines that show it) when pasted text
carries later-edition markers (see ``edition``); then, per unit, ``unknown_category`` /
``no_category`` / ``no_slot_category`` / ``points_missing`` / ``negative_points`` (see
``selections``); last, ``total_mismatch`` (declared, computed) when the roster's own total
differs from the entries' sum. Identical warnings (same code and params, e.g. two copies of one
unit in an unknown category) are given once.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cache

from armylists.roster.app_export import looks_like_app_export, read_app_export
from armylists.roster.archive import extract_ros
from armylists.roster.categories import CategoryResolver, normalise
from armylists.roster.edition import edition_markers
from armylists.roster.json_roster import read_json_roster
from armylists.roster.payload import decode_text, detect_format, payload_bytes
from armylists.roster.reference import load_ignored_categories
from armylists.roster.results import (
    DEFAULT_LIMITS,
    FORMATS,
    ParsedRoster,
    RosterLimits,
    RosterUnreadable,
)
from armylists.roster.selections import RawRoster, entries_from_units, total_mismatch
from armylists.roster.text_export import looks_like_text_export, read_text_export
from armylists.roster.xml_roster import read_ros
from armylists.validation import Problem


def parse_roster(
    data: bytes | str,
    fmt: str = "auto",
    *,
    aliases: Mapping[str, str],
    limits: RosterLimits = DEFAULT_LIMITS,
    expected_game_system_aliases: Collection[str] = (),
    ignored_categories: Mapping[str, str] | None = None,
) -> ParsedRoster:
    """Read a roster upload (raw or base64) into entries; raise RosterUnreadable otherwise.

    ``aliases`` maps category names to slot codes (any case or accents: they are normalised
    here). ``ignored_categories`` maps category names to "configuration" or "no_slot"; None
    uses the reference file's list.
    """
    if fmt != "auto" and fmt not in FORMATS:
        raise RosterUnreadable("unknown_format", {"format": str(fmt)[:40]})
    payload = payload_bytes(data, limits)
    chosen = detect_format(payload) or (None if fmt == "auto" else fmt)
    if chosen is None:
        raise RosterUnreadable("unknown_format", {"format": "auto"})
    raw, markers = _read(chosen, payload, limits)
    ignored = _default_ignored() if ignored_categories is None else ignored_categories
    read = entries_from_units(raw.units, CategoryResolver(aliases, ignored), limits)
    head = _game_system_warnings(raw.game_system, expected_game_system_aliases)
    if markers:
        head.append(Problem("other_edition", None, {"markers": markers}))
    mismatch = total_mismatch(read, raw.declared_points)
    tail = [mismatch] if mismatch else []
    return ParsedRoster(
        format=chosen,
        entries=tuple(read.entries),
        warnings=tuple(dict.fromkeys((*head, *read.warnings, *tail))),
        game_system=raw.game_system,
        name=raw.name,
    )


def _read(fmt: str, payload: bytes, limits: RosterLimits) -> tuple[RawRoster, tuple[str, ...]]:
    """The roster, and for pasted text the lines that mark a later edition."""
    if fmt == "rosz":
        return read_ros(extract_ros(payload, limits), limits), ()
    if fmt == "ros":
        return read_ros(payload, limits), ()
    if fmt == "newrecruit_json":
        return read_json_roster(payload, limits), ()
    text = decode_text(payload)
    if not looks_like_text_export(text) and looks_like_app_export(text):
        return read_app_export(text, limits), edition_markers(text)
    return read_text_export(text, limits), edition_markers(text)


def _game_system_warnings(found: str | None, expected: Collection[str]) -> list[Problem]:
    if not found or not expected:
        return []
    if normalise(found) in {normalise(name) for name in expected}:
        return []
    return [Problem("other_game_system", None, {"found": found[:120]})]


@cache
def _default_ignored() -> dict[str, str]:
    return load_ignored_categories()
