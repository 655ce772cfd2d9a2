"""Helpers shared by the roster import tests: fixture paths, aliases, zip building."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from armylists.roster import ParsedRoster, RosterUnreadable, load_aliases, parse_roster

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"
ALIASES = load_aliases()
W40K4 = ("Warhammer 40,000 4th Edition", "warhammer 40,000 (4th edition)")


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def parse(data: bytes | str, fmt: str = "auto", **options) -> ParsedRoster:
    return parse_roster(data, fmt, aliases=ALIASES, **options)


def reason_of(data: bytes | str, fmt: str = "auto", **options) -> str:
    with pytest.raises(RosterUnreadable) as caught:
        parse(data, fmt, **options)
    assert caught.value.code == "roster_unreadable"
    return caught.value.reason


def make_zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def summary(roster: ParsedRoster) -> list[tuple[str, str | None, int, int]]:
    return [(e.name, e.slot, e.points, e.models) for e in roster.entries]


def warning_codes(roster: ParsedRoster) -> list[tuple[str, str | None]]:
    return [(w.code, w.params.get("name")) for w in roster.warnings]  # type: ignore[misc]
