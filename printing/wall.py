"""Wall sheets: the round's pairings by table, "find your table", the standings and each
player's results slip, laid out by WeasyPrint for A4 and merged by the pack machinery.

The lists are simple flowing tables (the header row repeats on every page, pages numbered
"3 / 12"), laid out as one document: text rows cost little, so 1,000 players are a few
seconds. Slips have a fixed height, a fixed number per page (from the number of rounds their
history must hold), so their pages are known in advance: they are laid out in chunks, with
progress after each, and each page carries its own number.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from django.template.loader import render_to_string
from django.utils import translation

from printing.data import PairingLine
from printing.pdf_merge import merge
from printing.render import stylesheet

STYLESHEET = "packs/wall.css"
Progress = Callable[[int, int], None]
PAIRINGS, FIND_TABLE, STANDINGS, SLIPS = "pairings", "find_table", "standings", "slips"
KINDS = (PAIRINGS, FIND_TABLE, STANDINGS, SLIPS)


@dataclass(frozen=True)
class WallHeader:
    """What every page of a wall sheet says about itself, in the event's language."""

    language: str
    event: str
    round_number: int
    title: str  # "Round 3: pairings", "Standings after round 3"
    date: str = ""
    note: str = ""  # e.g. "provisional: 4 games still to be confirmed"


@dataclass(frozen=True)
class FindRow:
    """One player of the round, in alphabetical order; ``letter`` starts a new initial."""

    name: str
    club: str
    table: int | None  # None: a bye
    opponent: str = ""
    letter: str = ""
    block: str = ""  # the table's block (a team match): "Les Dragons vs Team Lyon, match 2"


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    club: str
    faction: str
    points: int
    record: str  # "3/0/1" (wins/draws/losses)
    tiebreakers: tuple[str, ...] = ()
    dropped: bool = False


@dataclass(frozen=True)
class BlockLine:
    """A line of a format's own standings (a team's): rank, name, points, the rest in words."""

    rank: int
    name: str
    points: int
    detail: str = ""


@dataclass(frozen=True)
class SlipGame:
    round_number: int
    table: int | None
    opponent: str
    result: str  # "won", "lost", "draw", "bye", or "to be confirmed"
    score: str = ""  # "12–8"


@dataclass(frozen=True)
class Slip:
    name: str
    club: str
    faction: str
    table: int | None  # None: a bye this round
    opponent: str = ""
    opponent_club: str = ""
    mission: str = ""
    standing: str = ""  # "4th of 32, 6 points" before this round
    history: tuple[SlipGame, ...] = ()


@dataclass(frozen=True)
class WallContent:
    """One wall sheet, ready to render: the rows of its ``kind`` only."""

    kind: str
    header: WallHeader
    pairings: tuple[PairingLine, ...] = ()
    mission_column: bool = False  # per-table missions: the pairings name each table's
    find_rows: tuple[FindRow, ...] = ()
    standings: tuple[StandingLine, ...] = ()
    points_label: str = ""
    tiebreak_labels: tuple[str, ...] = ()
    slips: tuple[Slip, ...] = ()
    slip_rounds: int = 0  # the most rounds a slip's history holds (sets slips per page)
    # A format that plays tables in blocks (events.table_blocks: team matches): the pairings
    # under their blocks ((title, score, lines) each), and its own standings above the players'.
    pairing_groups: tuple[tuple[str, str, tuple[PairingLine, ...]], ...] = ()
    block_standings: tuple[BlockLine, ...] = ()
    block_standings_title: str = ""
    block_points_label: str = ""

    @property
    def pairing_rows(self) -> tuple[tuple[str, str, tuple[PairingLine, ...]], ...]:
        """The pairings as the sheet prints them: under their blocks, or one untitled group."""
        return self.pairing_groups or (("", "", self.pairings),)


# --- slips: a fixed number per page -------------------------------------------------------------

def slips_per_page(history_rounds: int) -> int:
    """Three slips to a page while their history is short, fewer as it grows (30 rounds at most)."""
    if history_rounds <= 4:
        return 3
    if history_rounds <= 12:
        return 2
    return 1


def slip_pages(slips: Sequence[Slip], per_page: int) -> list[tuple[Slip, ...]]:
    return [tuple(slips[i:i + per_page]) for i in range(0, len(slips), per_page)]


# --- HTML and layout ------------------------------------------------------------------------------

def list_html(content: WallContent) -> str:
    """A list kind (pairings, find your table, standings) as one flowing document."""
    with translation.override(content.header.language):
        return render_to_string(f"packs/wall/{content.kind}.html",
                                {"h": content.header, "c": content})


def slips_html(content: WallContent, pages: Sequence[tuple[Slip, ...]], first: int, total: int,
               per_page: int) -> str:
    """Slip pages ``first`` (1-based) onwards, each numbered out of ``total``."""
    numbered = [(first + i, page) for i, page in enumerate(pages)]
    with translation.override(content.header.language):
        return render_to_string("packs/wall/slips.html", {
            "h": content.header, "c": content, "pages": numbered, "total": total,
            "per_page": per_page})


def _style():
    return stylesheet(STYLESHEET)


def layout_pdf(html: str) -> tuple[bytes, int]:
    """(PDF bytes, pages) of one document."""
    from weasyprint import HTML

    css, fonts = _style()
    document = HTML(string=html).render(stylesheets=[css], font_config=fonts)
    return document.write_pdf(), len(document.pages)


def documents(content: WallContent, chunk: int) -> list[Callable[[], bytes]]:
    """The documents of a wall sheet in print order, each laid out when called."""
    if content.kind != SLIPS:
        return [lambda: layout_pdf(list_html(content))[0]]
    per_page = slips_per_page(content.slip_rounds)
    pages = slip_pages(content.slips, per_page) or [()]
    # ``chunk`` counts tables for mission packs: about as many slips per document here.
    step = max(1, math.ceil(max(1, chunk) / per_page))
    parts = []
    for start in range(0, len(pages), step):
        part = pages[start:start + step]
        parts.append(lambda part=part, start=start: layout_pdf(
            slips_html(content, part, start + 1, len(pages), per_page))[0])
    return parts


def render_wall(content: WallContent, out: BinaryIO, *, chunk: int = 50,
                progress: Progress | None = None) -> int:
    """Render a wall sheet into ``out``; ``progress(done, total)`` after each document.

    Returns the number of pages."""
    plan = documents(content, chunk)

    def rendered() -> Iterable[tuple[bytes, Sequence[int]]]:
        for done, make in enumerate(plan, start=1):
            pdf = make()
            if progress is not None:
                progress(done, len(plan) + 1)  # the merge and the write come after
            yield pdf, ()

    return merge(rendered(), b"", out)
