"""A round's tables in blocks, for the formats whose tables come in groups (a team match holds
``size`` tables): what the projector, the results grid, the wall sheets and the mission pack
show besides the tables themselves, and the format's own standings.

A format gives them through ``EventFormat.round_blocks(round_)`` (events/formats.py); the
screens and sheets ask ``of_round`` and never name a format. Texts come in the active language
(the callers switch to the event's). Plain data, no query of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events import formats


@dataclass(frozen=True)
class BlockPlayer:
    """A player of a block's side, listed before their game (and table) is fixed."""

    pk: int  # the events.Player row
    name: str
    side: int  # index in ``TableBlock.sides``


@dataclass(frozen=True)
class TableBlock:
    """Block ``number`` of a round: its sides (one side: a bye), its tables and its score."""

    number: int
    title: str  # "Match 2: Les Dragons vs Team Lyon"
    sides: tuple[str, ...]
    tables: tuple[int, ...]
    score: str = ""  # "match points 0–0 · game points 23–17 (3 of 5 games)"
    sheet_label: str = ""  # a table sheet's line: "Les Dragons vs Team Lyon, match 2"
    # Where its players go while their tables are not fixed ("match 2, tables 5–8"; empty: a bye).
    place: str = ""
    players: tuple[BlockPlayer, ...] = ()  # every side's players, side after side


@dataclass(frozen=True)
class BlockStanding:
    rank: int
    name: str
    points: int  # what ranks first (a team's match points)
    detail: str = ""  # "game points 54 · 3 played"


@dataclass(frozen=True)
class RoundBlocks:
    """A round's blocks, by number, and the format's standings as they stand now."""

    blocks: tuple[TableBlock, ...]
    standings_title: str = ""
    points_label: str = ""
    standings: tuple[BlockStanding, ...] = ()

    def of_table(self, table: int | None) -> TableBlock | None:
        return next((b for b in self.blocks if table is not None and table in b.tables), None)

    def group(self, items: list[Any], table_of: Any) -> list[tuple[TableBlock | None, list[Any]]]:
        """``items`` (rows with a table, in table order) under their blocks, in block order;
        items on no block's table (byes) come last under None."""
        grouped: dict[int | None, list[Any]] = {}
        for item in items:
            block = self.of_table(table_of(item))
            grouped.setdefault(block.number if block else None, []).append(item)
        out: list[tuple[TableBlock | None, list[Any]]] = [
            (b, grouped.get(b.number, [])) for b in self.blocks]
        if None in grouped:
            out.append((None, grouped[None]))
        return out


def of_round(round_: Any) -> RoundBlocks | None:
    """The round's blocks, or None for a format whose tables stand alone (the default)."""
    event_format = formats.get(round_.tournament.format)
    if event_format is None or event_format.round_blocks is None:
        return None
    return event_format.round_blocks(round_)
