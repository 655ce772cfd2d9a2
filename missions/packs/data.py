"""What a printed pack shows, as plain frozen dataclasses (picklable, language already applied)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import zip_longest


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
class TableSheet:
    """One table's page: the per-table data and the key of its shared mission block."""

    table: int
    mission_key: str
    a: Side
    b: Side
    rolls: tuple[RollLine, ...] = ()

    @property
    def form_key(self) -> tuple:
        """What the sheet prints besides its slots: sheets with equal keys share one form."""
        return (self.mission_key, self.a.role, self.b.role, self.a.allowance, self.b.allowance,
                tuple((r.step, bool(r.shared)) for r in self.rolls))

    def blank(self) -> TableSheet:
        """The sheet with every slot empty: its form (``shared`` stays set: it picks the cells)."""
        sides = [replace(side, name="", club="", faction="") for side in (self.a, self.b)]
        rolls = tuple(replace(r, side_a="", side_b="", shared=" " if r.shared else "", outcome="")
                      for r in self.rolls)
        return replace(self, table=0, a=sides[0], b=sides[1], rolls=rolls)

    def slot_texts(self) -> dict[str, str]:
        """The text of each slot, by the slot names of ``templates/packs/sheets.html``."""
        texts = {"table": str(self.table), "rolls_a": self.a.name, "rolls_b": self.b.name}
        for prefix, side in (("a", self.a), ("b", self.b)):
            texts.update({f"{prefix}_name": side.name, f"{prefix}_club": side.club,
                          f"{prefix}_faction": side.faction})
        for i, roll in enumerate(self.rolls):
            texts.update({f"roll{i}_a": roll.side_a, f"roll{i}_b": roll.side_b,
                          f"roll{i}_shared": roll.shared, f"roll{i}_outcome": roll.outcome})
        return texts

    @property
    def box_rows(self) -> list[tuple[str | None, str | None]]:
        """The stratagem boxes side by side; None where one player has fewer boxes."""
        return list(zip_longest(self.a.allowance.boxes, self.b.allowance.boxes))


@dataclass(frozen=True)
class PairingLine:
    """A line of the pairings list; ``table`` None is a bye (no sheet)."""

    table: int | None
    a: str
    a_club: str
    b: str = ""
    b_club: str = ""
    mission: str = ""


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


@dataclass(frozen=True)
class PackContent:
    """A whole round's pack, ready to render."""

    header: PackHeader
    pairings: tuple[PairingLine, ...]
    missions: dict[str, MissionBlock]
    sheets: tuple[TableSheet, ...]
