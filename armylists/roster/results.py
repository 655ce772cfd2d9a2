"""What a roster import gives back: the parsed roster, the one error type, and the safety limits."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from armylists.validation import Entry, Problem
from config.refusals import CodedRefusal

FORMATS: tuple[str, ...] = ("battlescribe_text", "ros", "rosz", "newrecruit_json")


@dataclass(frozen=True)
class ParsedRoster:
    """A roster read into entries; ``format`` is the format actually parsed (never "auto")."""

    format: str
    entries: tuple[Entry, ...]
    warnings: tuple[Problem, ...]
    game_system: str | None
    name: str | None


class RosterUnreadable(CodedRefusal):
    """The upload cannot be read as a roster; ``reason`` is a stable short key for messages.

    Reasons: ``empty``, ``too_large``, ``bad_input``, ``unknown_format``, ``bad_zip``, ``zip_bomb``,
    ``no_ros_in_zip``, ``several_ros_in_zip``, ``xml_entities_forbidden``, ``bad_xml``,
    ``bad_json``, ``not_a_roster``, ``too_deep``, ``too_many_entries``, ``bad_cost``, ``no_units``.
    """

    code = "roster_unreadable"

    def __init__(self, reason: str, params: dict[str, Any] | None = None) -> None:
        super().__init__("roster_unreadable", **dict(params or {}))
        self.reason = reason

    def __str__(self) -> str:
        if not self.params:
            return self.reason
        details = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.reason} ({details})"


@dataclass(frozen=True)
class RosterLimits:
    """Caps that keep hostile uploads cheap; every one is enforced before or while reading."""

    # Size of the upload itself, after base64 decoding (a file or pasted text).
    max_upload_bytes: int = 2 * 1024 * 1024
    # Size of the .ros inside a .rosz, checked on the declared size and again while inflating.
    max_uncompressed_bytes: int = 10 * 1024 * 1024
    # Inflated/compressed ratio above which a zip member is treated as a bomb ...
    max_ratio: int = 100
    # ... once it has inflated past this many bytes (tiny members may compress oddly well).
    ratio_floor_bytes: int = 1024 * 1024
    max_zip_members: int = 64
    max_entries: int = 500
    # Selections of every depth (units, models, wargear) read from a .ros / JSON roster.
    max_selections: int = 100_000
    # Nesting of forces and selections in .ros / JSON rosters (real rosters stay under ~8).
    max_depth: int = 64
    # Points of a single entry; more is a corrupt or hostile file, not an army.
    max_entry_points: int = 1_000_000


DEFAULT_LIMITS = RosterLimits()
