"""What a printed pack shows, as plain frozen dataclasses (picklable, language already applied)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import zip_longest
from typing import ClassVar

# The parts a sheet prints from its own fields (templates/packs/blocks/<name>.html); any other
# name in a sheet's ``blocks`` is one of its ``boxes`` (templates/packs/boxes/<name>.html).
CORE_BLOCKS: tuple[str, ...] = ("mission", "rolls", "stratagems", "result")
LONG_SCENARIO = 1500  # characters


@dataclass(frozen=True)
class RuleText:
    """A titled paragraph: a special rule in force, or a stratagem exception note."""

    name: str
    text: str


@dataclass(frozen=True)
class ScoreField:
    """One line of the score box; ``kind`` is a mission outcome-field type."""

    label: str
    kind: str  # count_per_player | bool_per_player | player_or_none | count | bool


@dataclass(frozen=True)
class MissionBlock:
    """What every table playing one mission at one level shares: printed identically on each sheet."""

    key: str
    name: str
    level: str
    objective: str
    deployment: str
    game_turns: str
    diagram_svg: str
    diagram_width_mm: float
    table_size: str
    rules: tuple[RuleText, ...] = ()
    score_fields: tuple[ScoreField, ...] = ()
    uses_victory_points: bool = False


@dataclass(frozen=True)
class Allowance:
    """One player's stratagems: the lines explaining them and the boxes to write them in."""

    lines: tuple[str, ...]
    boxes: tuple[str, ...]  # one label per box ("" for an ordinary slot)


@dataclass(frozen=True)
class Side:
    """One player at a table."""

    name: str
    club: str
    faction: str
    role: str = ""
    allowance: Allowance = field(default_factory=lambda: Allowance((), ()))


@dataclass(frozen=True)
class RollLine:
    """One pre-game step: what each player rolled (or the shared die) and what it settled."""

    step: str
    side_a: str = ""
    side_b: str = ""
    shared: str = ""
    outcome: str = ""


@dataclass(frozen=True)
class Box:
    """A game system's box on a table sheet, printed by ``templates/packs/boxes/<name>.html``.

    Its fields are what every sheet carrying it prints alike (they are part of the form key);
    what differs from table to table goes in slots: ``slot_texts``, emptied by ``blank``."""

    name: ClassVar[str] = ""
    # Printed as rows of the sheet's result table (core block "result") instead of on its own:
    # what a system adds to the result then sits with the winner and the signatures.
    in_result: ClassVar[bool] = False

    @property
    def crowds(self) -> bool:
        """Whether the sheet must tighten its other parts to keep room for this box."""
        return False

    def blank(self) -> Box:
        return self

    def slot_texts(self) -> dict[str, str]:
        return {}


@dataclass(frozen=True)
class ScenarioBox(Box):
    """The round's scenario, written by the organisers (systems without rolled missions)."""

    name: ClassVar[str] = "scenario"
    text: str
    written: bool  # False: the text says the organisers announce it at the table

    @property
    def long(self) -> bool:
        """Printed smaller, on a dense sheet, so that a scenario of the longest length staff can
        write (5,000 characters) still fits the sheet."""
        return len(self.text) > LONG_SCENARIO

    @property
    def crowds(self) -> bool:
        return self.long


@dataclass(frozen=True)
class DynamicsBox(Box):
    """W40K Dynamics (seed 004): both players' order tokens and orders per turn, the permanent
    +2 and the pass tracker. Only the numbers and the holder's name are per table."""

    name: ClassVar[str] = "dynamics"
    a_tokens: str = ""
    b_tokens: str = ""
    a_orders: str = ""
    b_orders: str = ""
    holder: str = ""
    passes: tuple[int, ...] = tuple(range(1, 11))

    @property
    def crowds(self) -> bool:
        return True  # it joins the full Cities of Death sheet

    def blank(self) -> DynamicsBox:
        return DynamicsBox(passes=self.passes)

    def slot_texts(self) -> dict[str, str]:
        return {"dynamics_a_tokens": self.a_tokens, "dynamics_b_tokens": self.b_tokens,
                "dynamics_a_orders": self.a_orders, "dynamics_b_orders": self.b_orders,
                "dynamics_holder": self.holder}


@dataclass(frozen=True)
class MantletsBox(Box):
    """Warhammer Battle mantlets are in force (seed 003): their bonuses are the siege rules'."""

    name: ClassVar[str] = "mantlets"


@dataclass(frozen=True)
class StakesBox(Box):
    """Warhammer Battle wooden stakes are in force (seed 003): the table reminder."""

    name: ClassVar[str] = "stakes"


@dataclass(frozen=True)
class BaggageBox(Box):
    """Warhammer Battle army baggage is in force (seed 003): who captured whose baggage."""

    name: ClassVar[str] = "baggage"
    bonus: int


@dataclass(frozen=True)
class BandCell:
    """One band of a victory-point table as printed: the difference and both players' points."""

    difference: str
    points: str


@dataclass(frozen=True)
class VpTableBox(Box):
    """The event's victory points → tournament points table, in rows of a few bands."""

    name: ClassVar[str] = "vp_table"
    rows: tuple[tuple[BandCell | None, ...], ...]  # None pads the last row


@dataclass(frozen=True)
class TableSheet:
    """One table's page: the per-table data, the key of its shared mission block (None: a
    system without rolled missions) and the blocks it prints, in order (``CORE_BLOCKS`` or the
    name of one of ``boxes``). Blocks in ``back_blocks`` print on a second page, the sheet's
    back (printed duplex, both pages stay one sheet of paper)."""

    table: int
    mission_key: str | None
    a: Side
    b: Side
    rolls: tuple[RollLine, ...] = ()
    blocks: tuple[str, ...] = CORE_BLOCKS
    boxes: tuple[Box, ...] = ()
    back_blocks: tuple[str, ...] = ()
    # The table's block (events.table_blocks: a team match), printed in the head: "Les Dragons
    # vs Team Lyon, match 2"; None: the sheet has no such line (every other format).
    block: str | None = None

    @property
    def pages(self) -> int:
        return 2 if self.back_blocks else 1

    @property
    def form_key(self) -> tuple:
        """What the sheet prints besides its slots: sheets with equal keys share one form."""
        return (self.mission_key, self.a.role, self.b.role, self.a.allowance, self.b.allowance,
                tuple((r.step, bool(r.shared)) for r in self.rolls), self.blocks,
                tuple(box.blank() for box in self.boxes), self.back_blocks, self.block is not None)

    def blank(self) -> TableSheet:
        """The sheet with every slot empty: its form (``shared`` stays set: it picks the cells)."""
        sides = [replace(side, name="", club="", faction="") for side in (self.a, self.b)]
        rolls = tuple(replace(r, side_a="", side_b="", shared=" " if r.shared else "", outcome="")
                      for r in self.rolls)
        return replace(self, table=0, a=sides[0], b=sides[1], rolls=rolls,
                       boxes=tuple(box.blank() for box in self.boxes),
                       block=None if self.block is None else "")

    def slot_texts(self) -> dict[str, str]:
        """The text of each slot, by the slot names of ``templates/packs/sheets.html`` and the
        templates of its blocks."""
        texts = {"table": str(self.table), "rolls_a": self.a.name, "rolls_b": self.b.name}
        if self.back_blocks:
            texts["back_table"] = str(self.table)
        if self.block:
            texts["block"] = self.block
        for prefix, side in (("a", self.a), ("b", self.b)):
            texts.update({f"{prefix}_name": side.name, f"{prefix}_club": side.club,
                          f"{prefix}_faction": side.faction})
        for i, roll in enumerate(self.rolls):
            texts.update({f"roll{i}_a": roll.side_a, f"roll{i}_b": roll.side_b,
                          f"roll{i}_shared": roll.shared, f"roll{i}_outcome": roll.outcome})
        for box in self.boxes:
            texts.update(box.slot_texts())
        return texts

    @property
    def parts(self) -> list[tuple[str, Box | None]]:
        """(template, box) per block of the front, in print order: how ``sheets.html``
        dispatches (a box printed inside the result table is left to ``result_parts``)."""
        return self._parts(self.blocks)

    @property
    def back_parts(self) -> list[tuple[str, Box | None]]:
        """(template, box) per block of the back page, in print order."""
        return self._parts(self.back_blocks)

    @property
    def result_parts(self) -> list[tuple[str, Box]]:
        """(template, box) of the boxes whose rows join the result table."""
        return [(f"packs/boxes/{box.name}.html", box) for box in self.boxes if box.in_result]

    def _parts(self, names: tuple[str, ...]) -> list[tuple[str, Box | None]]:
        boxes = {box.name: box for box in self.boxes}
        return [(f"packs/blocks/{name}.html", None) if name in CORE_BLOCKS
                else (f"packs/boxes/{name}.html", boxes[name]) for name in names
                if name in CORE_BLOCKS or not boxes[name].in_result]

    @property
    def dense(self) -> bool:
        """The sheet carries a box that crowds it: its mission texts and write-in rows are
        tightened so that the longest sheet (omega in French, the longest scenario) fits."""
        return any(box.crowds for box in self.boxes)

    @property
    def box_rows(self) -> list[tuple[str | None, str | None]]:
        """The stratagem boxes side by side; None where one player has fewer boxes."""
        return list(zip_longest(self.a.allowance.boxes, self.b.allowance.boxes))


@dataclass(frozen=True)
class PairingLine:
    """A line of the pairings list; ``table`` None is a bye (no sheet). With a ``heading``
    (a round in blocks, events.table_blocks) the line is a block's title over its games, its
    score in ``detail``; ``heading`` "" is such a line left empty (the list's forms)."""

    table: int | None
    a: str
    a_club: str
    b: str = ""
    b_club: str = ""
    mission: str = ""
    heading: str | None = None
    detail: str = ""

    @property
    def kind(self) -> str:
        """The list's row it is printed in: "heading", "bye" or "pair"."""
        if self.heading is not None:
            return "heading"
        return "bye" if self.table is None else "pair"

    @property
    def players(self) -> int:
        return 0 if self.heading is not None else (1 if self.table is None else 2)


@dataclass(frozen=True)
class PackHeader:
    """The cover's facts, repeated in each sheet's running header."""

    language: str
    event: str
    round_number: int
    level: str
    date: str
    missions: tuple[str, ...]
    mission_rolls: str = ""
    system: str = ""  # the game system's name (printed where there is no level)
    points_limit: int = 0
    turn_system: str = ""  # printed on the cover when the event changes the turn system


@dataclass(frozen=True)
class PackContent:
    """A whole round's pack, ready to render."""

    header: PackHeader
    pairings: tuple[PairingLine, ...]
    missions: dict[str, MissionBlock]
    sheets: tuple[TableSheet, ...]
