"""Warhammer 40,000's table-roll kinds (systems/rolls): the Cities of Death rolls (§7.3–§7.5),
offered where the game's mission calls for them at its level, and the W40K Dynamics advantage
test of one pass (D-R7), with its form, words and API fields."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game
from events.roll_forms import TableRollForm
from missions import pregame
from missions.dice import Roller
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
    roll_off,
    side_of_player,
)
from systems.w40k4 import dynamics

GAME_LENGTH, RESERVES, NIGHT = "game_length", "reserves", "night_fighting"
ADVANTAGE = dynamics.PURPOSE_ADVANTAGE
RULE_GAME_LENGTH, RULE_RESERVES = "duree-aleatoire", "reserves"
MAX_EXTRA_TURNS = 3  # §7.4: at most three extra turns
PASSES = range(dynamics.FIRST_PASS, dynamics.LAST_PASS + 1)
ACTION = "table_roll"  # the audit action of a table roll (events/services/table_rolls)


# --- Cities of Death -----------------------------------------------------------------------

def level_rules(game: Game) -> tuple[str, ...]:
    level = game.round.tournament.level
    if game.mission is None or level is None:
        return ()
    return tuple(game.mission.special_rules_by_level.get(level.slug, ()))


def game_length_turns(game: Game) -> tuple[int, ...]:
    """The turns after which a Random Game Length die may be rolled (§7.4)."""
    last = game.mission.game_turns if game.mission else 6
    return tuple(range(last, last + MAX_EXTRA_TURNS))


def reserves_turns(game: Game | None = None,
                   table: pregame.ReservesTable = pregame.DEFAULT_RESERVES_TABLE) -> tuple[int, ...]:
    """The turns on which a reserve unit needs a die (turn 1: never arrives; later: automatic)."""
    turns = []
    for turn in range(1, MAX_TURN + 1):
        target = table.target(turn)
        if target is not None and target > pregame.AUTOMATIC:
            turns.append(turn)
    return tuple(turns)


def _game_length(game: Game, request: TableRollRequest) -> Action:
    turn = checked_turn(request.turn, game_length_turns(game))

    def act(roller: Roller) -> Thrown:
        # One die at a time, as at the table: "end of turn N, 4+ plays one more".
        result = pregame.random_game_length(roller, last_turn=turn, max_extra=1)
        return Thrown((result.rolls[0],), {"turn": turn, "extra_turn": result.turns > turn})
    return act


def _reserves(game: Game, request: TableRollRequest) -> Action:
    turn = checked_turn(request.turn, reserves_turns())

    def act(roller: Roller) -> Thrown:
        result = pregame.reserves_roll(roller, turn)
        assert result.roll is not None  # reserves_turns() only offers turns that need a die
        return Thrown((result.roll,), {"turn": turn, "target": result.target,
                                       "arrives": result.arrives})
    return act


def _night(game: Game, request: TableRollRequest) -> Action:
    return lambda roller: Thrown((pregame.night_fighting_range(roller),))


def _game_length_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    turn = line.details.get("turn")
    what = gettext("Random game length, end of turn %(turn)s") % {"turn": turn}
    if line.details.get("extra_turn"):
        return what, gettext("4+: one more turn is played (turn %(next)s).") % {"next": (turn or 0) + 1}
    return what, gettext("1–3: the game ends after turn %(turn)s.") % {"turn": turn}


def _reserves_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    details = line.details
    what = gettext("Reserves, start of turn %(turn)s (arrives on %(target)s+)") % {
        "turn": details.get("turn"), "target": details.get("target")}
    return what, (gettext("The unit arrives.") if details.get("arrives")
                  else gettext("The unit stays in reserve."))


def _night_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    return (gettext("Night fighting range"),
            gettext("%(range)s inches: targets further away cannot be shot.") % {"range": line.total})


def _next_game_length(last: Mapping[str, Any] | None, turns: tuple[int, ...]) -> dict[str, Any]:
    if last and last.get("extra_turn") and last["turn"] + 1 in turns:
        return {"turn": last["turn"] + 1}  # an extra turn was won: the next end-of-turn roll
    return {"turn": turns[0]}


def _night_called(game: Game) -> bool:
    # Night fighting only happens when the Dawn & Dusk roll brought night (§7.2, §7.3).
    return game.pregame.get("dawn_dusk") in (pregame.NIGHT_TURN_1, pregame.NIGHT_FROM_TURN_6)


# --- W40K Dynamics ---------------------------------------------------------------------------

def permanent_side(game: Game) -> str | None:
    """The side holding the Dynamics permanent +2 (set by the pre-game, D-R6), if any."""
    holder = (game.pregame or {}).get("permanent_advantage")
    return side_of_player(game, int(holder)) if str(holder or "").isdigit() else None


def _advantage(game: Game, request: TableRollRequest) -> Action:
    """The Dynamics advantage test of one pass: 1D6 each, +1 for the player who finished placing
    orders first (``bonus_now``), +2 permanent for the pre-game's holder, ties re-rolled."""
    turn = checked_turn(request.turn, range(1, MAX_TURN + 1))
    if request.pass_ not in PASSES:
        raise Invalid(_("A pass is numbered from %(first)s to %(last)s.")
                      % {"first": PASSES[0], "last": PASSES[-1]}, "table_roll_pass")
    bonus = None if request.bonus_now is None else checked_side(game, request.bonus_now)
    permanent = permanent_side(game)
    details = {"turn": turn, "pass": request.pass_, "bonus_now": bonus, "permanent": permanent}

    def act(roller: Roller) -> Thrown:
        test = dynamics.advantage_test(roller, SIDES, bonus_now=bonus, permanent=permanent)
        return roll_off(test.rolls, test.modifiers, test.winner, details)
    return act


def _check_bonus(game: Game, request: TableRollRequest) -> None:
    """The Dynamics +1 is spent once per player per turn (D-R7): a second use is a conflict."""
    if request.bonus_now is None:
        return
    used = AuditEntry.objects.filter(
        tournament_id=game.round.tournament_id, action=ACTION, data__game=game.pk,
        data__kind=ADVANTAGE, data__turn=request.turn,
        data__bonus_now=side_of_player(game, request.bonus_now)).exists()
    if used:
        raise Conflict(_("This player has already used the +1 of finishing their orders first "
                         "on turn %(turn)s.") % {"turn": request.turn}, "advantage_bonus_used")


def _advantage_words(line: TableRoll, game: Game, players: Mapping[int, str]) -> tuple[str, str]:
    details = line.details
    winner = players.get(player_of_side(game, line.winner) or 0, "")
    what = gettext("Advantage test, turn %(turn)s, pass %(pass)s") % {
        "turn": details.get("turn"), "pass": details.get("pass")}
    bonus = players.get(player_of_side(game, details.get("bonus_now")) or 0)
    if bonus:
        what = gettext("%(what)s (+1 for %(player)s)") % {"what": what, "player": bonus}
    return what, gettext("%(player)s wins the advantage.") % {"player": winner}


def _next_advantage(last: Mapping[str, Any] | None, turns: tuple[int, ...]) -> dict[str, Any]:
    if not last:
        return {"turn": turns[0]}
    # Passes run 1 to 10 within a turn; after the last pass comes the next turn.
    if last.get("pass", 0) < PASSES[-1]:
        return {"turn": last["turn"], "pass_number": last["pass"] + 1}
    return {"turn": min(last["turn"] + 1, turns[-1]), "pass_number": PASSES[0]}


def _advantage_answer(details: Mapping[str, Any], game: Game) -> dict[str, Any]:
    return {"bonus_now": player_of_side(game, details.get("bonus_now")),
            "permanent_advantage": player_of_side(game, details.get("permanent"))}


def _advantage_body(data: Mapping[str, Any]) -> dict[str, Any]:
    return {"pass_": data.get("pass"), "bonus_now": data.get("bonus_now")}


class AdvantageRollForm(TableRollForm):
    """The advantage test of one pass; ``bonus_now`` is the player who finished placing orders
    first (+1, once per turn), one box per player so either side may be named."""

    pass_number = forms.TypedChoiceField(
        label=_("Pass"), coerce=int, choices=[(p, str(p)) for p in PASSES])
    bonus_now = forms.TypedMultipleChoiceField(
        label=_("+1: finished placing orders first (once per turn)"), coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["turn"].required = True
        self.fields["bonus_now"].choices = self.player_choices()

    def clean_bonus_now(self) -> list[int]:
        chosen = self.cleaned_data.get("bonus_now") or []
        if len(chosen) > 1:
            raise forms.ValidationError(_("Only one player can have finished placing orders first."))
        return chosen

    def request(self) -> TableRollRequest:
        data = self.cleaned_data
        bonus = data.get("bonus_now") or []
        return dataclasses.replace(super().request(), pass_=data["pass_number"],
                                   bonus_now=bonus[0] if bonus else None)


def _nullable_int() -> serializers.IntegerField:
    return serializers.IntegerField(required=False, allow_null=True, default=None)


ROLL_KINDS = (
    RollKind(GAME_LENGTH, _("Random game length"), _game_length, _game_length_words,
             turns=game_length_turns, turn_label=_("End of turn"),
             called=lambda game: RULE_GAME_LENGTH in level_rules(game),
             next_roll=_next_game_length, detail_keys=("turn", "extra_turn"),
             answer_keys=("extra_turn",),
             help=_("At the end of the last turn: on 4+ one more turn is played, at most three "
                    "more.")),
    RollKind(RESERVES, _("Reserves"), _reserves, _reserves_words, turns=reserves_turns,
             called=lambda game: RULE_RESERVES in level_rules(game),
             detail_keys=("turn", "target", "arrives"), answer_keys=("target", "arrives"),
             what_label=_("Unit (optional)"),
             help=_("One roll per force-organisation choice in reserve. Turn 1: reserves cannot "
                    "arrive; from turn 5 they arrive without a roll.")),
    RollKind(NIGHT, _("Night fighting range (2D6 × 3)"), _night, _night_words, called=_night_called),
    RollKind(ADVANTAGE, _("Roll the advantage test"), _advantage, _advantage_words,
             form=AdvantageRollForm, turns=every_turn, turn_label=_("Turn"),
             next_roll=_next_advantage, check=_check_bonus,
             fields_template="league/rolls/dynamics_advantage.html",
             detail_keys=("turn", "pass", "bonus_now", "permanent"), answer_keys=("pass",),
             answer=_advantage_answer, from_body=_advantage_body,
             body={"pass": _nullable_int, "bonus_now": _nullable_int}),
)
