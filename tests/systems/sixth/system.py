"""Skirmish, a small game system that exists only in the tests: a win/draw/loss game whose report
names who held the centre objective (its one outcome field), with one table roll (the nerve test,
2D6) and one box on its table sheets (the objective tally). Everything the core reads of it is
registered on its `GameSystem`; no core file names it."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms
from rest_framework import serializers

from events.errors import Invalid
from events.models import Game
from events.services import results
from events.systems.base import STANDARD, EventRules, Scored
from printing.data import Box
from systems.registry import GameSystem
from systems.reports import DRAW, SIDES, Lists, ResultWords, SystemReportForm, player_id
from systems.rolls import RollKind, TableRoll, TableRollRequest, Thrown
from systems.sheets import SheetBlock

SLUG = "skirmish"
NERVE = "skirmish_nerve"
HELD = "objective_held_by"


class SkirmishOutcome(serializers.Serializer):
    objective_held_by = serializers.IntegerField(required=False, allow_null=True, default=None)


class SkirmishEvent(EventRules):
    slug = SLUG
    outcome = SkirmishOutcome
    sheet_blocks = ("scenario", "skirmish_tally", "result")
    roll_kinds: ClassVar[Mapping[str, tuple[str, ...]]] = {STANDARD: (NERVE,)}

    def score(self, game: Any, winner: int | None, victory_points: Mapping[int, int],
              facts: Mapping[str, Any], lists: Mapping[int, Sequence[Mapping[str, Any]]]) -> Scored:
        held = facts.get(HELD)
        if held is not None and held not in game.player_ids:
            raise Invalid("The objective holder must be one of the two players.", "player_not_in_game")
        return Scored(winner, victory_points, {HELD: held})


class SkirmishReportForm(SystemReportForm):
    """The result (a win or a draw) and who held the centre objective."""

    grid_titles = {"objective": "objective held by"}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"] = forms.ChoiceField(
            label="Result", widget=forms.RadioSelect,
            choices=[*((str(p.pk), f"{p.name} won") for p in self.players), (DRAW, "Draw")])
        self.side_or_none("objective", "Who held the centre objective?", "%(player)s", "Nobody")

    def content(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"winner": player_id(data.get("winner")), "victory_points": {},
                "facts": {HELD: player_id(data.get("objective"))}}

    def lines(self, scored: Scored) -> list[str]:
        return [f"Objective held by {holder_name(self.players, scored.outcome.get(HELD))}."]

    @classmethod
    def grid_fields(cls, game: Game, lists: Lists) -> dict[str, forms.Field]:
        return {"objective": forms.ChoiceField(
            required=False, label=f"Objective held by, table {game.table}",
            choices=[("", "nobody"), ("a", game.player_a.name), ("b", game.player_b.name)])}

    @classmethod
    def grid_content(cls, game: Game, data: Mapping[str, Any],
                     by_side: Callable[[str], dict[str, list[str]]]) -> results.ResultInput:
        ids = dict(zip(SIDES, game.player_ids, strict=True))
        return results.ResultInput(winner=ids.get(data["result"]), victory_points={},
                                   facts={HELD: ids.get(data.get("objective") or "")})


def holder_name(players: Sequence[Any], holder: int | None) -> str:
    return next((p.name for p in players if p.pk == holder), "nobody")


def result_lines(players: Sequence[Any], outcome: Mapping[str, Any],
                 victory_points: Mapping[str, Any], lists: Lists) -> list[str]:
    return [f"Centre objective held by {holder_name(players, outcome.get(HELD))}."]


def nerve(game: Game, request: TableRollRequest) -> Callable[[Any], Thrown]:
    return lambda roller: Thrown((roller.roll("2D6", NERVE),))


def nerve_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    verdict = "holds" if (line.total or 0) <= 7 else "breaks"
    return "Nerve test", f"{line.total}: the band {verdict}."


@dataclass(frozen=True)
class TallyBox(Box):
    """The objective tally: a row of boxes per turn for both players."""

    name = "skirmish_tally"
    turns: int = 5


SYSTEM = GameSystem(
    slug=SLUG,
    event_rules=SkirmishEvent(),
    report_form=SkirmishReportForm,
    result_words=ResultWords(result_lines),
    roll_kinds=(RollKind(NERVE, "Roll a nerve test", nerve, nerve_words),),
    sheet_boxes={"skirmish_tally": SheetBlock(lambda kit: TallyBox())},
)
