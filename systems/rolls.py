"""The table-roll kinds, each defined once: a `RollKind` carries its name, its action (the roll,
checked before anything is rolled), the game page's form, button, fields and help, its words
in the log, and its API fields (body and answer).

The plain dice every chart game may roll are the core's (`CORE_KINDS`); a system registers its
own kinds on its `GameSystem` (``roll_kinds``: systems/w40k4/rolls.py, systems/urban_war/rolls.py)
and names the kinds a game offers in ``EventRules.roll_kinds``. The service
(events/services/table_rolls), the game page (events/views/game_rolls), the API serializer
(events/rolls_serializers) and the template (templates/league/game.html) all read them here."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid
from missions.dice import Roll, Roller
from systems.registry import game_systems

SERVER, ENTERED = "server", "entered"
SIDES = ("a", "b")
MAX_WHAT = 60
MAX_TURN = 20


@dataclass(frozen=True)
class TableRollRequest:
    """What the player asked for: a kind, a turn, a note, a form nonce; ``dice`` thrown at the
    table (None: the server rolls); and what a system's kind reads beside them: a Dynamics pass
    and +1 bonus (player id), Urban War players whose commander is down (player ids), a command
    test's CD, calibre and other modifiers."""

    kind: str
    turn: int | None = None
    what: str = ""
    nonce: str = ""
    pass_: int | None = None
    bonus_now: int | None = None
    commander_down: tuple[int, ...] = ()
    dice: tuple[int, ...] | None = None
    cd: int | None = None
    cal: int | None = None
    modifier: int = 0


@dataclass(frozen=True)
class TableRoll:
    """One logged table roll as the page and the API show it. ``sides`` holds a roll-off's dice
    (``{"side", "die", "modifier", "score"}``, ties included) and ``winner`` its winning side."""

    sequence: int | None
    kind: str
    dice: tuple[int, ...]
    total: int | None
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    user_id: int | None = None
    username: str = ""
    rolled_at: datetime | None = None
    id: int | None = None
    source: str = SERVER
    sides: tuple[dict[str, Any], ...] = field(default=(), hash=False)
    winner: str | None = None
    unused_dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Thrown:
    """What an action rolled: every roll, what it meant, and a roll-off's dice by side."""

    rolls: tuple[Roll, ...]
    details: dict[str, Any] = field(default_factory=dict)
    sides: tuple[dict[str, Any], ...] = ()
    winner: str | None = None


Action = Callable[[Roller], Thrown]
# (the roll, the game, player id -> name) -> (what it was for, what it meant), in words.
Words = Callable[[TableRoll, Any, Mapping[int, str]], tuple[str, str]]


@dataclass(frozen=True)
class RollKind:
    """One kind of table roll. ``action(game, request)`` checks the request against the game
    (raising the service's errors) and gives what to roll; ``check(game, request)`` runs under
    the game's lock just before rolling (a once-per-turn bonus). ``turns(game)`` are the turns
    the form offers (none: no turn field), ``called(game)`` whether the game's mission calls
    for it now. ``plain`` kinds share one form, a button each. ``fields_template`` prints the
    form's own fields; ``help`` follows the note field. ``detail_keys`` are the audit-entry keys
    the log keeps; ``answer_keys`` those the API answer copies, and ``answer(details, game)`` the
    answer's fields naming players. ``body`` are the API body fields it reads (name -> a field
    factory) and ``from_body(data)`` the request's extra arguments."""

    name: str
    label: Any
    action: Callable[[Any, TableRollRequest], Action]
    words: Words
    form: type | None = None
    turns: Callable[[Any], tuple[int, ...]] | None = None
    turn_label: Any = _("Start of turn")
    called: Callable[[Any], bool] | None = None
    next_roll: Callable[[Mapping[str, Any] | None, tuple[int, ...]], dict[str, Any]] | None = None
    check: Callable[[Any, TableRollRequest], None] | None = None
    plain: bool = False
    fields_template: str = ""
    what_label: Any = None
    help: Any = ""
    detail_keys: tuple[str, ...] = ()
    answer_keys: tuple[str, ...] = ()
    answer: Callable[[Mapping[str, Any], Any], dict[str, Any]] | None = None
    body: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    from_body: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None


def roll_off(rolls: tuple[Roll, ...], modifiers: dict[str, int], winner: str,
             details: dict[str, Any]) -> Thrown:
    """A roll-off's dice by side (``a``/``b``), each with its modifier and score."""
    sides = tuple({"side": made.actor, "die": made.total, "modifier": modifiers[made.actor or ""],
                   "score": made.total + modifiers[made.actor or ""]} for made in rolls)
    return Thrown(rolls, details, sides, winner)


def side_of_player(game: Any, player_id: int | None) -> str | None:
    """``a`` or ``b`` for a player of ``game``; None for anyone else."""
    return next((side for side, pid in zip(SIDES, game.player_ids, strict=False) if pid == player_id),
                None)


def player_of_side(game: Any, side: str | None) -> int | None:
    return dict(zip(SIDES, game.player_ids, strict=False)).get(side or "")


def checked_turn(turn: int | None, allowed: tuple[int, ...] | range) -> int:
    if turn is None or turn not in allowed:
        raise Invalid(_("No die is rolled for this on that turn."), "table_roll_turn")
    return turn


def checked_side(game: Any, player_id: int) -> str:
    side = side_of_player(game, player_id)
    if side is None:
        raise Invalid(_("Player %(id)s did not play in this game.") % {"id": player_id},
                      "player_not_in_game")
    return side


def every_turn(game: Any) -> tuple[int, ...]:
    return tuple(range(1, MAX_TURN + 1))


# --- the core's plain dice -------------------------------------------------------------------

def plain_kind(name: str, expression: str, label: Any) -> RollKind:
    """A plain die (or dice) of ``expression``, a note for what it is for."""
    def action(game: Any, request: TableRollRequest) -> Action:
        return lambda roller: Thrown((roller.roll(expression, "table"),))

    def words(line: TableRoll, game: Any, players: Mapping[int, str]) -> tuple[str, str]:
        return expression, gettext("Total %(total)s.") % {"total": line.total}

    return RollKind(name, label, action, words, plain=True, what_label="")


CORE_KINDS: tuple[RollKind, ...] = (
    plain_kind("d6", "D6", _("Roll a D6")), plain_kind("2d6", "2D6", _("Roll 2D6")),
    plain_kind("d3", "D3", _("Roll a D3")), plain_kind("d10", "D10", _("Roll a D10")))
# The plain dice's expressions, by kind (what a replay of the stream rolls).
PLAIN = {"d6": "D6", "2d6": "2D6", "d3": "D3", "d10": "D10"}


def roll_kinds() -> Iterator[RollKind]:
    """Every kind: the core's, then each installed system's."""
    yield from CORE_KINDS
    for system in game_systems():
        yield from system.roll_kinds


def roll_kind(name: str | None) -> RollKind | None:
    return next((kind for kind in roll_kinds() if kind.name == name), None)
