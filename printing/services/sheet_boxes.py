"""The boxes on the table sheets of a mission pack (printing/data.Box).

A system names the blocks its sheets print (``EventRules.sheet_blocks``, events/systems); each
box name has a builder that reads the event (and the game, for per-table boxes) and gives the
box, or None where the event does not use it (win/draw/loss scoring, an advanced rule not
enabled...). The boxes any system may print (scenario, victory-point table) are built here; a
system's own boxes are registered on its `GameSystem` (``sheet_boxes``, systems/sheets.py).
What every table prints alike is built once per pack, and what a system's box reads from the
lists (``SheetBlock.gather``) is read once for the whole round (``SheetKit``). A system's
``back_blocks`` print on a second page per table, built the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from events import scoring
from events.models import Game, Player, Round
from printing.data import CORE_BLOCKS, BandCell, Box, ScenarioBox, VpTableBox
from systems.registry import game_system, game_systems
from systems.sheets import SheetBlock

# At most this many bands side by side: a difference such as "10001–12000" still fits its cell.
BANDS_PER_ROW = 8


class UnknownBlock(LookupError):
    """A system names a sheet block that no template prints (a programming error)."""


@dataclass(frozen=True)
class SheetParts:
    """What a table's sheet prints: the front's blocks and the back's, in order, and the
    boxes among them."""

    blocks: tuple[str, ...]
    back_blocks: tuple[str, ...]
    boxes: tuple[Box, ...]


class SheetKit:
    """What one pack's boxes read, gathered once for the round."""

    def __init__(self, round_: Round, games: Sequence[Game]) -> None:
        self.round = round_
        self.tournament = round_.tournament
        rules = self.tournament.rules
        self.blocks: tuple[str, ...] = rules.sheet_blocks
        self.back_blocks: tuple[str, ...] = rules.back_blocks
        system = game_system(self.tournament.game_system.slug)
        self.system_boxes: Mapping[str, SheetBlock] = system.sheet_boxes if system else {}
        named = (*self.blocks, *self.back_blocks)
        unknown = [n for n in named
                   if n not in CORE_BLOCKS and n not in SHARED and n not in self.system_boxes]
        if unknown:
            raise UnknownBlock(", ".join(unknown))
        # Lists are read only by the boxes that print them: one query for every player of the
        # round, never one per table.
        ids = [pid for game in games for pid in game.player_ids]
        self.gathered: dict[str, Any] = {
            name: block.gather(self.tournament, ids) for name, block in self.system_boxes.items()
            if block.gather is not None and name in named}
        self._shared: dict[str, Box | None] = {}

    def sheet_parts(self, game: Game, players: Sequence[Player]) -> SheetParts:
        """The blocks a table's sheet prints, front and back, and the boxes among them;
        ``players`` in the sheet's column order."""
        boxes: list[Box] = []

        def printed(names: tuple[str, ...]) -> tuple[str, ...]:
            kept = []
            for name in names:
                box = None if name in CORE_BLOCKS else self._box(name, game, players)
                if name in CORE_BLOCKS or box is not None:
                    kept.append(name)
                if box is not None:
                    boxes.append(box)
            return tuple(kept)

        blocks = printed(self.blocks)
        return SheetParts(blocks, printed(self.back_blocks), tuple(boxes))

    def _box(self, name: str, game: Game, players: Sequence[Player]) -> Box | None:
        own = self.system_boxes.get(name)
        if own is not None and own.per_table:
            return own.build(self, game, players)
        if name not in self._shared:
            self._shared[name] = own.build(self) if own is not None else SHARED[name](self)
        return self._shared[name]


# --- boxes every table of the round prints alike -------------------------------------------------

def scenario_box(kit: SheetKit) -> ScenarioBox:
    text = (kit.round.scenario or "").strip()
    if text:
        return ScenarioBox(text, written=True)
    return ScenarioBox(gettext("The organisers announce the scenario at the start of the round."),
                       written=False)


def vp_table_box(kit: SheetKit) -> VpTableBox | None:
    bands = scoring.bands_of(kit.tournament.scoring or {})
    if bands is None:
        return None
    cells = [BandCell(difference_text(b.min_diff, b.max_diff), f"{b.winner_tp} : {b.loser_tp}")
             for b in bands]
    return VpTableBox(balanced_rows(cells, BANDS_PER_ROW))


def difference_text(low: int, high: int | None) -> str:
    return f"{low}+" if high is None else f"{low}–{high}"


def balanced_rows(cells: Sequence[BandCell], most: int) -> tuple[tuple[BandCell | None, ...], ...]:
    """``cells`` in as few rows of at most ``most`` as possible, of even length (11 → 6 + 5),
    the last one padded with None so every row has the same columns."""
    if not cells:
        return ()
    count = -(-len(cells) // most)
    width = -(-len(cells) // count)
    rows = [tuple(cells[i:i + width]) for i in range(0, len(cells), width)]
    return tuple(row + (None,) * (width - len(row)) for row in rows)


SHARED: dict[str, Callable[[SheetKit], Box | None]] = {
    "scenario": scenario_box,
    "vp_table": vp_table_box,
}


class _Builders:
    """Every box name a sheet can print: the shared ones and those the systems register."""

    def __contains__(self, name: object) -> bool:
        return name in SHARED or any(name in s.sheet_boxes for s in game_systems())


BUILDERS = _Builders()
