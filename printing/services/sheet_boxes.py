"""The game systems' boxes on the table sheets of a mission pack (missions/packs/data.Box).

A system names the blocks its sheets print (``EventRules.sheet_blocks``, league/systems); each
box name here has a builder that reads the event (and the game, for per-table boxes) and gives
the box, or None where the event does not use it: a standard turn system, stakes or baggage not
enabled, win/draw/loss scoring. What every table prints alike is built once per pack, and the
Dynamics list sizes and the Urban War commandos are read once for the whole round (``SheetKit``).
A system's ``back_blocks`` print on a second page per table, built the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from events import scoring
from events.models import Game, Player, Round
from events.services import dynamics
from printing.data import (
    CORE_BLOCKS,
    BaggageBox,
    BandCell,
    Box,
    DynamicsBox,
    MantletsBox,
    ScenarioBox,
    StakesBox,
    VpTableBox,
)
from systems.urban_war import sheet_boxes as urban_war_sheet
from systems.whfb.victory import BAGGAGE_BONUS

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
        named = (*self.blocks, *self.back_blocks)
        unknown = [n for n in named if n not in CORE_BLOCKS and n not in BUILDERS]
        if unknown:
            raise UnknownBlock(", ".join(unknown))
        # Lists are read only by the boxes that print them: one query for every player of the
        # round, never one per table.
        ids = [pid for game in games for pid in game.player_ids]
        self.sizes = dynamics.list_sizes(ids) if dynamics.is_dynamics(self.tournament) else {}
        self.commandos = (urban_war_sheet.read_commandos(self.tournament, ids)
                          if "urban_war_commandos" in named else None)
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
        if name in SHARED:
            if name not in self._shared:
                self._shared[name] = SHARED[name](self)
            return self._shared[name]
        return PER_TABLE[name](self, game, players)


# --- boxes every table of the round prints alike -------------------------------------------------

def scenario_box(kit: SheetKit) -> ScenarioBox:
    text = (kit.round.scenario or "").strip()
    if text:
        return ScenarioBox(text, written=True)
    return ScenarioBox(gettext("The organisers announce the scenario at the start of the round."),
                       written=False)


def mantlets_box(kit: SheetKit) -> MantletsBox | None:
    return MantletsBox() if _advanced(kit, "mantlets") else None


def stakes_box(kit: SheetKit) -> StakesBox | None:
    return StakesBox() if _advanced(kit, "stakes") else None


def baggage_box(kit: SheetKit) -> BaggageBox | None:
    return BaggageBox(BAGGAGE_BONUS) if _advanced(kit, "baggage") else None


def _advanced(kit: SheetKit, rule: str) -> bool:
    return bool((kit.tournament.advanced_rules or {}).get(rule))


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


# --- boxes whose text differs from table to table ------------------------------------------------

def dynamics_box(kit: SheetKit, game: Game, players: Sequence[Player]) -> DynamicsBox | None:
    data = dynamics.block(game, kit.sizes)
    if data is None:
        return None  # a standard turn system
    a, b = (str(player.pk) for player in players)
    holder = data["permanent_advantage"]
    names = {player.pk: player.name for player in players}
    return DynamicsBox(
        a_tokens=tokens_text(data["tokens"][a]), b_tokens=tokens_text(data["tokens"][b]),
        a_orders=orders_text(data["orders_per_turn"][a]),
        b_orders=orders_text(data["orders_per_turn"][b]),
        holder=names.get(holder) or gettext("nobody"))


def tokens_text(count: Mapping[str, Any]) -> str:
    """"8 of each order, 40 in all: 2 sheets of 30" (a printed sheet holds 6 of each, D-R3)."""
    return ngettext("%(per_order)d of each order, %(total)d in all: %(sheets)d sheet of 30",
                    "%(per_order)d of each order, %(total)d in all: %(sheets)d sheets of 30",
                    count["sheets"]) % count


def orders_text(units: int) -> str:
    if units == 0:
        return gettext("no list yet: one per unit on the table")
    return gettext("%(count)d (one per unit)") % {"count": units}


# --- Urban War (league/services/urban_war_sheet) -----------------------------------------------

def urban_war_commandos_box(kit: SheetKit, game: Game, players: Sequence[Player]) -> Box | None:
    if kit.commandos is None:
        return None
    return urban_war_sheet.commandos_box(kit.commandos, players)


def urban_war_initiative_box(kit: SheetKit, game: Game, players: Sequence[Player]) -> Box:
    return urban_war_sheet.initiative_box(players)


def urban_war_setup_box(kit: SheetKit) -> Box:
    return urban_war_sheet.setup_box()


def urban_war_outcome_box(kit: SheetKit) -> Box:
    return urban_war_sheet.outcome_box(kit.tournament)


def urban_war_reference_box(kit: SheetKit) -> Box:
    return urban_war_sheet.reference_box()


SHARED: dict[str, Callable[[SheetKit], Box | None]] = {
    "scenario": scenario_box,
    "mantlets": mantlets_box,
    "stakes": stakes_box,
    "baggage": baggage_box,
    "vp_table": vp_table_box,
    "urban_war_setup": urban_war_setup_box,
    "urban_war_outcome": urban_war_outcome_box,
    "urban_war_reference": urban_war_reference_box,
}
PER_TABLE: dict[str, Callable[[SheetKit, Game, Sequence[Player]], Box | None]] = {
    "dynamics": dynamics_box,
    "urban_war_commandos": urban_war_commandos_box,
    "urban_war_initiative": urban_war_initiative_box,
}
BUILDERS = frozenset(SHARED) | frozenset(PER_TABLE)
