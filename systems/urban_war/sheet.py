"""The Urban War boxes of a table sheet (seed 002), as plain frozen dataclasses (language applied).

The front carries both commandos, the set-up sequence, the initiative per turn and the result
rows; the back carries the D10 reference card (with the round's scenario). A commando differs
from table to table, so every model cell is a slot; the form only fixes how many rows there are
(``CommandosBox.rows``, the same for every table of a round, so the round has one form).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from printing.data import Box

TICK = "☐"
COMMANDER_MARK = "★"
# Follow-up boxes drawn one by one up to this calibre; above it the rest is a count (+N), so
# the cell keeps its width (seed 002 cards go up to CAL 3; the list check accepts up to 20).
FOLLOW_UP_BOXES = 5
MODEL_FIELDS = ("label", "card", "cal", "fs", "points", "follow_ups")


@dataclass(frozen=True)
class ModelLine:
    """One model as its row prints it: label (with the commander's mark), card, calibre, First
    Strike, points and one tick box per follow-up action (FU = CAL, U-R4)."""

    label: str
    card: str
    cal: str
    fs: str
    points: str
    follow_ups: str


@dataclass(frozen=True)
class CommandoText:
    """A player's commando as printed: the player, the models in list order, the total line."""

    player: str = ""
    models: tuple[ModelLine, ...] = ()
    total: str = ""


@dataclass(frozen=True)
class CommandoRow:
    """Row ``index`` of the commandos table: each side's model there, None below its last."""

    index: int
    a: ModelLine | None
    b: ModelLine | None

    @property
    def pairs(self) -> tuple[tuple[str, ModelLine | None], ...]:
        """(side, model) left to right: the template builds the slot names from the side."""
        return (("a", self.a), ("b", self.b))


@dataclass(frozen=True)
class CommandosBox(Box):
    """Both commandos side by side, ``rows`` rows each (the form), the models in slots."""

    name: ClassVar[str] = "urban_war_commandos"
    # Up to this many rows at the usual size; more are printed smaller (U-R1: "6 to 20").
    STANDARD_ROWS: ClassVar[int] = 20
    rows: int
    a: CommandoText = CommandoText()
    b: CommandoText = CommandoText()

    @property
    def long(self) -> bool:
        return self.rows > self.STANDARD_ROWS

    def blank(self) -> CommandosBox:
        return CommandosBox(self.rows)

    @property
    def lines(self) -> list[CommandoRow]:
        """The table's rows, for the template (slot names are built from ``index``)."""
        def at(commando: CommandoText, index: int) -> ModelLine | None:
            return commando.models[index] if index < len(commando.models) else None

        return [CommandoRow(i, at(self.a, i), at(self.b, i)) for i in range(self.rows)]

    def slot_texts(self) -> dict[str, str]:
        texts = {"uw_a_player": self.a.player, "uw_b_player": self.b.player,
                 "uw_a_total": self.a.total, "uw_b_total": self.b.total}
        for side, commando in (("a", self.a), ("b", self.b)):
            for index, model in enumerate(commando.models[:self.rows]):
                texts.update({f"uw_{side}{index}_{key}": getattr(model, key)
                              for key in MODEL_FIELDS})
        return texts


@dataclass(frozen=True)
class SetupBox(Box):
    """The set-up sequence (U-R15): terrain, the side roll, deployment, the start roll."""

    name: ClassVar[str] = "urban_war_setup"
    deploy_inches: int


@dataclass(frozen=True)
class InitiativeBox(Box):
    """A D10 per player and turn (U-R11), the commander's −1 to tick (U-R10); the players'
    names are slots (the rows are the players, the columns the turns)."""

    name: ClassVar[str] = "urban_war_initiative"
    turns: tuple[int, ...]
    penalty: str
    a_name: str = ""
    b_name: str = ""

    def blank(self) -> InitiativeBox:
        return InitiativeBox(self.turns, self.penalty)

    def slot_texts(self) -> dict[str, str]:
        return {"uw_init_a": self.a_name, "uw_init_b": self.b_name}


@dataclass(frozen=True)
class OutcomeBox(Box):
    """Rows of the result table: whose commando was destroyed, the points destroyed and what
    the event's result mode gives at time (U-R16, UG4)."""

    name: ClassVar[str] = "urban_war_outcome"
    in_result: ClassVar[bool] = True
    at_time: str


@dataclass(frozen=True)
class ReferenceLine:
    """A roll of the D10 reference card, worded: what is added and what succeeds."""

    roll: str
    dice: str
    adds: str
    success: str
    naturals: bool  # a natural 1 always fails, a natural 10 always succeeds


@dataclass(frozen=True)
class BandLine:
    """A range band (U-R14) and the to-hit penalty of a shooter that moved."""

    band: str
    distance: str
    moved: str


@dataclass(frozen=True)
class ReferenceBox(Box):
    """The D10 reference card (U-R10 to U-R14), from systems/urban_war/table_rules.py's data."""

    name: ClassVar[str] = "urban_war_reference"
    rolls: tuple[ReferenceLine, ...]
    bands: tuple[BandLine, ...]
    command_modifiers: tuple[str, ...]
    first_strike: str
    initiative: str
