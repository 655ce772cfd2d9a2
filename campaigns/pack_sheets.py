"""The turn pack of an Epic 40,000 map campaign (seed 001), laid out by WeasyPrint for A4.

Four parts, each its own document, merged in order by the pack machinery: the maps (the public
one, then each player's as that player may see it), an order sheet per player, a battle sheet
per battle of the turn, and the turn report. The content comes ready to print, in the
campaign's language, from campaigns/services/pack.py; the maps arrive as HTML already
drawn (the campaign page's own SVG map), so this module adds layout only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from printing.pdf_merge import merge
from printing.render import stylesheet

STYLESHEET = "packs/campaign.css"
Progress = Callable[[int, int], None]
PARTS = ("maps", "orders", "battles", "report")


@dataclass(frozen=True)
class TurnHeader:
    """What every page says about itself."""

    language: str
    campaign: str
    turn: int
    planet: str = ""
    date: str = ""
    state: str = ""  # "open: moves", "closed"


@dataclass(frozen=True)
class MapPage:
    title: str  # "Public map", "Map of Marcus (West)"
    note: str  # who sees what on it (R12)
    html: str  # the drawn map and its territories in words, already escaped


@dataclass(frozen=True)
class DetachmentLine:
    name: str
    points: int
    kind: str
    where: str
    notes: str = ""


@dataclass(frozen=True)
class AllowanceLine:
    label: str
    limit: int
    used: int
    left: int
    bonus: str = ""  # the Supreme Commanders' extra actions still unused, in words


@dataclass(frozen=True)
class PhaseBoxes:
    """One phase of the order sheet: the orders accepted so far, then empty boxes to write."""

    title: str
    hint: str
    filled: tuple[str, ...] = ()
    blank: tuple[str, ...] = ()  # one label per empty box ("" for a regular one)


@dataclass(frozen=True)
class OrderSheet:
    side: str
    player: str
    army: str
    strategic_value: int
    initiative_value: int
    allowances: tuple[AllowanceLine, ...]
    isolated: tuple[str, ...]
    detachments: tuple[DetachmentLine, ...]
    phases: tuple[PhaseBoxes, ...]
    # R25, R12: this turn's resolved infiltrations as this player may read them.
    infiltrations: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForceLine:
    name: str
    points: int | None
    note: str = ""


@dataclass(frozen=True)
class ResultRow:
    """One detachment of the battle and its boxes: swept, destroyed, then stays or retreats."""

    name: str
    side: str
    swept: bool = False
    destroyed: bool = False
    after: str = ""


@dataclass(frozen=True)
class BattleSheet:
    territory: str
    where: str  # "East line 1, major, fortified"
    planet: str
    table: int | None
    status: str
    attacker: str
    defender: str
    attackers: tuple[ForceLine, ...]
    attacker_points: int
    deployed: tuple[ForceLine, ...]
    reserves: tuple[ForceLine, ...]
    defender_points: int
    fortifications: str
    counters: tuple[int, int]  # R17: attacker, defender
    at_stake: tuple[int, int]  # score for the attacker, for the defender, by winning
    isolated: tuple[str, ...]
    winner: str  # "" while unknown
    rows: tuple[ResultRow, ...]


@dataclass(frozen=True)
class RollLine:
    purpose: str
    side: str
    dice: str
    total: int | None
    source: str


@dataclass(frozen=True)
class ScoreLine:
    side: str
    kind: str
    subject: str
    points: int


@dataclass(frozen=True)
class TurnReport:
    closed: bool
    note: str
    rolls: tuple[RollLine, ...] = ()
    initiative: tuple[str, ...] = ()  # each phase's roll-off and who chose
    infiltrations: tuple[str, ...] = ()  # what both players know: no target, no hidden name
    battles: tuple[str, ...] = ()
    # R13, R14, R19–R24: air missions (kind and route), Flak and landing interception dice.
    air: tuple[str, ...] = ()
    control_changes: tuple[str, ...] = ()
    isolated: tuple[str, ...] = ()
    relocations: tuple[str, ...] = ()
    score_lines: tuple[ScoreLine, ...] = ()
    other_sectors: tuple[str, ...] = ()
    totals: tuple[str, ...] = ()
    victory: str = ""


@dataclass(frozen=True)
class TurnPackContent:
    header: TurnHeader
    maps: tuple[MapPage, ...]
    orders: tuple[OrderSheet, ...]
    battles: tuple[BattleSheet, ...]
    report: TurnReport
    battles_note: str = ""  # said instead of sheets when the turn has none (yet)


def part_html(content: TurnPackContent, part: str) -> str:
    """One part of the pack as an HTML document, in the campaign's language."""
    maps = [(page, mark_safe(page.html)) for page in content.maps]  # drawn by league's template
    with translation.override(content.header.language):
        return render_to_string(f"packs/campaign/{part}.html",
                                {"h": content.header, "c": content, "maps": maps})


def layout_pdf(html: str) -> bytes:
    from weasyprint import HTML

    css, fonts = stylesheet(STYLESHEET)
    return HTML(string=html).render(stylesheets=[css], font_config=fonts).write_pdf()


def render_turn_pack(content: TurnPackContent, out: BinaryIO, *, parts: Sequence[str] = PARTS,
                     progress: Progress | None = None) -> int:
    """Render the pack into ``out``; ``progress(done, total)`` after each part. Returns the
    number of pages."""

    def rendered() -> Iterable[tuple[bytes, Sequence[int]]]:
        for done, part in enumerate(parts, start=1):
            pdf = layout_pdf(part_html(content, part))
            if progress is not None:
                progress(done, len(parts) + 1)  # the merge and the write come after
            yield pdf, ()

    return merge(rendered(), b"", out)
