"""Signs that a pasted text list was written for a later edition of Warhammer 40,000.

A text export names no game system, so a 10th-edition list would otherwise be read as if it
were a 4th-edition one without a word. These markers never appear in a 4th-edition list:

- the battle sizes of 8th to 10th edition, on a "Battle Size" line ("Battle Size: 3. Strike
  Force (101-200 Total PL / 1001-2000 Points)") or with their points ("Strike Force (2000
  Points)", "Incursion (1000 Point limit)"); a bare "Battle Size" option is not enough;
- "Detachment Choice:" / "Detachment:" lines and detachments with command points in force
  headings ("Battalion Detachment +5CP"), 8th to 10th edition;
- "Enhancement(s):" lines, "Epic Hero" and "Battleline" headings, and the official app's
  "Exported with App Version" footer, 10th edition.

Power levels ("[5 PL]") are not a marker on their own: a few 4th-edition exports carry them.
The result is the lines that carry a marker (at most ``MAX_MARKERS``, trimmed), in file order.
"""
from __future__ import annotations

import re

MAX_MARKERS = 3
MAX_MARKER_LENGTH = 80
MAX_LINE = 2000

MARKERS: tuple[re.Pattern[str], ...] = (
    re.compile(r"^\W*battle size\b.*\b(?:combat patrol|incursion|strike force|onslaught)\b", re.IGNORECASE),
    re.compile(
        r"\b(?:combat patrol|incursion|strike force|onslaught)\s*\(\s*\d[\d,]*\s*(?:points?|pts)\b",
        re.IGNORECASE,
    ),
    re.compile(r"^\W*detachment(?: choice)?\s*:", re.IGNORECASE),
    re.compile(r"\bdetachment\s*[+-]\d+\s*cp\b", re.IGNORECASE),
    re.compile(r"\benhancements?\s*:", re.IGNORECASE),
    re.compile(r"^\W*(?:epic heroe?s?|battleline)\W*$", re.IGNORECASE),
    re.compile(r"^\W*exported with app version\b", re.IGNORECASE),
)


def edition_markers(text: str) -> tuple[str, ...]:
    """Lines of ``text`` that show it was written for a later edition (empty when none)."""
    found: list[str] = []
    for raw_line in text.splitlines():
        if len(raw_line) > MAX_LINE:
            continue
        line = " ".join(raw_line.split())
        if not line or line[:MAX_MARKER_LENGTH] in found:
            continue
        if any(marker.search(line) for marker in MARKERS):
            found.append(line[:MAX_MARKER_LENGTH])
            if len(found) == MAX_MARKERS:
                break
    return tuple(found)
