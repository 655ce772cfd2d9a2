"""Urban War's table-roll kinds (systems/rolls), every one a D10: the set-up roll-offs (U-R15:
the table side after terrain, who starts after deployment), the initiative of each turn (U-R11)
and a model's command test (U-R6), with their forms, words and API fields."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events.errors import Invalid
from events.models import Game
from events.roll_forms import TableRollForm
from missions.dice import Roller, roll_off
from systems.rolls import (
    MAX_TURN,
    SIDES,
    Action,
    RollKind,
    TableRoll,
    TableRollRequest,
    Thrown,
    checked_side,
    checked_turn,
    every_turn,
    player_of_side,
)
from systems.rolls import roll_off as sides_roll_off
from systems.urban_war import table_rules as urban_war

INITIATIVE = urban_war.PURPOSE_INITIATIVE
SETUP_SIDE, SETUP_START = urban_war.PURPOSE_SIDE, urban_war.PURPOSE_START
COMMAND = urban_war.PURPOSE_COMMAND  # 2D10 + CD + CAL against 15 (U-R6)
MAX_CAL = 20
MAX_COMMAND_MODIFIER = 10
MAX_PLAYERS_LISTED = 10  # a game has two players; a little slack keeps the refusal a clear 400


def _winner(line: TableRoll, game: Game, players: Mapping[int, str]) -> str:
    return players.get(player_of_side(game, line.winner) or 0, "")


# --- initiative ------------------------------------------------------------------------------

def _initiative(game: Game, request: TableRollRequest) -> Action:
    """D10 each in the game's player order, −1 for a player whose commander is panicked or dead,
    ties re-rolled."""
    turn = checked_turn(request.turn, range(1, MAX_TURN + 1))
    down = tuple(dict.fromkeys(checked_side(game, pid) for pid in request.commander_down))
    details = {"turn": turn, "commander_down": list(down)}

    def act(roller: Roller) -> Thrown:
        result = urban_war.initiative(roller, SIDES, turn, down)
        return sides_roll_off(result.raw, {r.player: r.modifier for r in result.rolls},
                              result.winner, details)
    return act


def _initiative_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    what = gettext("Initiative, turn %(turn)s") % {"turn": line.details.get("turn")}
    return what, gettext("%(player)s wins the initiative.") % {"player": _winner(line, game, players)}


def _next_initiative(last: Mapping[str, Any] | None, turns: tuple[int, ...]) -> dict[str, Any]:
    return {"turn": min(last["turn"] + 1, turns[-1])} if last else {"turn": turns[0]}


class InitiativeRollForm(TableRollForm):
    """The initiative of one turn: a box per player whose commander is down (−1)."""

    commander_down = forms.TypedMultipleChoiceField(
        label=_("Commander panicked or dead (−1)"), coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["turn"].required = True
        self.fields["commander_down"].choices = self.player_choices()

    def request(self) -> TableRollRequest:
        down = tuple(self.cleaned_data.get("commander_down") or ())
        return dataclasses.replace(super().request(), commander_down=down)


# --- set-up ----------------------------------------------------------------------------------

def _setup_roll(game: Game, request: TableRollRequest) -> Action:
    """A set-up roll-off: D10 each, ties re-rolled; the side roll's winner chooses the table edge
    (the loser says who deploys first), the start roll's winner who starts (U-R15)."""
    def act(roller: Roller) -> Thrown:
        result = roll_off(roller, request.kind, SIDES, die=urban_war.D10)
        return sides_roll_off(result.rolls, dict.fromkeys(SIDES, 0), result.winner, {})
    return act


def _side_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    return (gettext("Table side"),
            gettext("%(player)s chooses the table edge; the other player says who deploys first.")
            % {"player": _winner(line, game, players)})


def _start_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    return (gettext("Who starts"), gettext("%(player)s chooses who plays first.")
            % {"player": _winner(line, game, players)})


# --- command test ----------------------------------------------------------------------------

def _command_test(game: Game, request: TableRollRequest) -> Action:
    """2D10 + CD + CAL + modifiers, passed from 15, and an unmodified 5 or less always fails."""
    cd, cal, modifier = request.cd, request.cal, request.modifier
    if cd is None or not urban_war.CD_MIN <= cd <= urban_war.CD_MAX:
        raise Invalid(_("CD must be between %(min)s and %(max)s.")
                      % {"min": urban_war.CD_MIN, "max": urban_war.CD_MAX}, "cd_out_of_range")
    if cal is None or not 0 <= cal <= MAX_CAL:
        raise Invalid(_("A calibre is between 0 and %(max)s.") % {"max": MAX_CAL}, "cal_out_of_range")
    if abs(modifier) > MAX_COMMAND_MODIFIER:
        raise Invalid(_("The other modifiers add up to at most %(max)s either way.")
                      % {"max": MAX_COMMAND_MODIFIER}, "modifier_out_of_range")

    def act(roller: Roller) -> Thrown:
        made = roller.roll("2D10", COMMAND)
        test = urban_war.command_test(made.dice, cd, cal, (modifier,))
        return Thrown((made,), {"cd": cd, "cal": cal, "modifier": modifier, "passed": test.passed,
                                "automatic_failure": test.automatic_failure})
    return act


def _command_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    """The roll laid out as a sum: "9 + 9 = 18; 18 + CD 5 + CAL 4 = 27 against 15: passed."."""
    details, total = line.details, line.total or 0
    cd, cal, modifier = details.get("cd") or 0, details.get("cal") or 0, details.get("modifier", 0)
    what = gettext("Command test: CD %(cd)s, CAL %(cal)s, modifiers %(modifier)+d") % {
        "cd": cd, "cal": cal, "modifier": modifier}
    dice = " + ".join(str(d) for d in line.dice) or str(total)
    if details.get("automatic_failure"):
        return what, gettext("%(dice)s = %(total)s: an unmodified 5 or less always fails.") % {
            "dice": dice, "total": total}
    verdict = gettext("passed") if details.get("passed") else gettext("failed")
    words = {"dice": dice, "total": total, "cd": cd, "cal": cal, "verdict": verdict,
             "score": total + cd + cal + modifier,
             "modifier": f"{'+' if modifier > 0 else '−'} {abs(modifier)}"}
    if modifier:
        return what, gettext("%(dice)s = %(total)s; %(total)s + CD %(cd)s + CAL %(cal)s "
                             "%(modifier)s = %(score)s against 15: %(verdict)s.") % words
    return what, gettext("%(dice)s = %(total)s; %(total)s + CD %(cd)s + CAL %(cal)s = %(score)s "
                         "against 15: %(verdict)s.") % words


class CommandTestRollForm(TableRollForm):
    """The command test of one model: its CD and calibre, and other modifiers."""

    cd = forms.IntegerField(label=_("Command (CD)"), min_value=1, max_value=10)
    cal = forms.IntegerField(label=_("Calibre (CAL)"), min_value=0, max_value=MAX_CAL)
    modifier = forms.IntegerField(label=_("Other modifiers"), initial=0, required=False,
                                  min_value=-MAX_COMMAND_MODIFIER, max_value=MAX_COMMAND_MODIFIER)

    @property
    def command_fields(self) -> list[Any]:
        return [self["cd"], self["cal"], self["modifier"]]

    def request(self) -> TableRollRequest:
        data = self.cleaned_data
        return dataclasses.replace(super().request(), cd=data["cd"], cal=data["cal"],
                                   modifier=data.get("modifier") or 0)


# --- the API body ----------------------------------------------------------------------------

def _nullable_int() -> serializers.IntegerField:
    return serializers.IntegerField(required=False, allow_null=True, default=None)


def _players_list() -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), required=False,
                                 max_length=MAX_PLAYERS_LISTED, default=list)


def _modifiers() -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(min_value=-10, max_value=10),
                                 required=False, max_length=MAX_PLAYERS_LISTED, default=list)


ROLL_KINDS = (
    RollKind(SETUP_SIDE, _("Roll for the table side (the winner chooses, the other player says "
                           "who deploys first)"), _setup_roll, _side_words),
    RollKind(SETUP_START, _("Roll for who starts (after deployment)"), _setup_roll, _start_words),
    RollKind(INITIATIVE, _("Roll for initiative"), _initiative, _initiative_words,
             form=InitiativeRollForm, turns=every_turn, turn_label=_("Turn"),
             next_roll=_next_initiative, fields_template="league/rolls/urban_war_initiative.html",
             detail_keys=("turn", "commander_down"),
             answer=lambda details, game: {"commander_down": [
                 player_of_side(game, side) for side in details.get("commander_down") or ()]},
             body={"commander_down": _players_list},
             from_body=lambda data: {"commander_down": tuple(data.get("commander_down") or ())}),
    RollKind(COMMAND, _("Roll a command test"), _command_test, _command_words,
             form=CommandTestRollForm, fields_template="league/rolls/urban_war_command_test.html",
             detail_keys=("cd", "cal", "modifier", "passed", "automatic_failure"),
             answer_keys=("cd", "cal", "modifier", "passed", "automatic_failure"),
             body={"cd": _nullable_int, "cal": _nullable_int, "modifiers": _modifiers},
             from_body=lambda data: {"cd": data.get("cd"), "cal": data.get("cal"),
                                     "modifier": sum(data.get("modifiers") or ())}),
)
