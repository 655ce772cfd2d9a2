"""Seeded, logged dice: expressions such as 2D6x3, a resumable roller and roll-offs."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from config.refusals import CodedRefusal

MAX_COUNT = 100
MIN_SIDES, MAX_SIDES = 2, 100
MAX_PLUS = 1000
MAX_TIMES = 100
# A tie needs both dice equal (1 chance in 6); 1000 ties in a row cannot happen in practice,
# but the loop must still end.
MAX_ROLL_OFF_ROUNDS = 1000

_EXPRESSION = re.compile(
    r"""^\s*(?P<count>\d+)?\s*[dD]\s*(?P<sides>\d+)
        \s*(?:\+\s*(?P<plus>\d+))?
        \s*(?:[xX*×]\s*(?P<times>\d+))?\s*$""",
    re.VERBOSE,
)


class DiceError(RuntimeError):
    """A dice procedure could not finish (an endless run of ties or re-rolls)."""


class EnteredDiceError(CodedRefusal):
    """The faces thrown at the table do not fit what must be rolled: a stable code and its params.

    Not a ValueError, so callers that read a ValueError as a bad expression cannot swallow it.
    """

    code = "dice_entered_invalid"

    def __init__(self, **params: object) -> None:
        super().__init__(type(self).code, **params)


class DiceMissing(EnteredDiceError):
    """Fewer faces were entered than the procedure needs (params: given, needed)."""

    code = "dice_missing"


class DiceInvalid(EnteredDiceError):
    """An entered face cannot be shown by the die it stands for (params: position, face, die)."""

    code = "dice_invalid"


@dataclass(frozen=True)
class DiceExpression:
    """``count`` dice with ``sides`` faces; total = (sum + plus) × times.

    A D3 is rolled as a D6 halved, rounded up (1–2 → 1, 3–4 → 2, 5–6 → 3), as at the table.
    """

    count: int = 1
    sides: int = 6
    plus: int = 0
    times: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_COUNT:
            raise ValueError(f"dice count must be between 1 and {MAX_COUNT}, not {self.count}")
        if not MIN_SIDES <= self.sides <= MAX_SIDES:
            raise ValueError(
                f"dice must have between {MIN_SIDES} and {MAX_SIDES} sides, not {self.sides}"
            )
        if not 0 <= self.plus <= MAX_PLUS:
            raise ValueError(f"the added constant must be between 0 and {MAX_PLUS}")
        if not 1 <= self.times <= MAX_TIMES:
            raise ValueError(f"the multiplier must be between 1 and {MAX_TIMES}")

    def __str__(self) -> str:
        text = f"{self.count}D{self.sides}"
        if self.plus:
            text += f"+{self.plus}"
        if self.times != 1:
            text += f"x{self.times}"
        return text

    def total(self, dice: tuple[int, ...]) -> int:
        """The result of this expression for the given die faces."""
        return (sum(dice) + self.plus) * self.times


def parse_expression(text: str) -> DiceExpression:
    """Parse ``D6``, ``2D6``, ``D3+3``, ``2D6x3`` (or ``2D6*3``) and the like.

    Raises ValueError with a message naming the expected shape.
    """
    match = _EXPRESSION.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(
            f"invalid dice expression {text!r}: expected [count]D<sides>[+<n>][x<n>], e.g. 2D6x3"
        )
    groups = match.groupdict()
    return DiceExpression(
        count=int(groups["count"]) if groups["count"] is not None else 1,
        sides=int(groups["sides"]),
        plus=int(groups["plus"] or 0),
        times=int(groups["times"] or 1),
    )


@lru_cache(maxsize=256)
def _parsed(text: str) -> tuple[DiceExpression, str]:
    """A dice text parsed once and its canonical form (a large round rolls thousands of D6)."""
    expr = parse_expression(text)
    return expr, str(expr)


@dataclass(frozen=True)
class Roll:
    """One logged roll: its place in the stream, why it was made, the faces and the total.

    ``dice`` holds the values as read at the table (for a D3, the 1–3 value, not the D6 face).
    """

    sequence: int
    purpose: str
    expression: str
    dice: tuple[int, ...]
    total: int
    actor: str | None = None


class Roller:
    """A resumable dice stream: roll n uses ``random.Random(f"{seed}:{n}")``.

    Seeding each roll from (seed, sequence) makes the stream reproducible in any process
    (string seeds do not depend on PYTHONHASHSEED) and resumable from the stored next sequence.
    """

    def __init__(self, seed: int, sequence: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError("the seed must be an int")
        self.seed: int | None = seed
        self._start(sequence)

    def _start(self, sequence: int) -> None:
        if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 0:
            raise ValueError("the sequence must be a non-negative int")
        self._next = sequence
        self._log: list[Roll] = []
        self._rng = random.Random()  # re-seeded for every roll

    @property
    def next_sequence(self) -> int:
        """The sequence number the next roll will use (store it to resume the stream)."""
        return self._next

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll made by this roller, in order."""
        return tuple(self._log)

    def roll(
        self, expression: str | DiceExpression, purpose: str, actor: str | None = None
    ) -> Roll:
        """Roll ``expression`` for ``purpose`` (and optionally a player), log it and return it."""
        if not purpose:
            raise ValueError("every roll needs a purpose")
        if isinstance(expression, DiceExpression):
            expr, text = expression, str(expression)
        elif isinstance(expression, str):
            expr, text = _parsed(expression)
        else:
            expr = parse_expression(expression)  # not a text: raises its ValueError
            text = str(expr)
        dice = self._faces(expr)
        result = Roll(self._next, purpose, text, dice, expr.total(dice), actor)
        self._log.append(result)
        self._next += 1
        return result

    def _faces(self, expr: DiceExpression) -> tuple[int, ...]:
        """The faces of the next roll: the only step a roller of another kind replaces."""
        rng = self._rng
        rng.seed(f"{self.seed}:{self._next}")  # the state random.Random(same text) starts in
        return tuple(_one_die(rng, expr.sides) for _ in range(expr.count))


class EnteredRoller(Roller):
    """Faces thrown at the table, handed out in order exactly where the seeded roller would roll.

    A drop-in Roller (api-v1-systems "Dice thrown at the table"): the engines cannot tell which
    one they got, so the answer is what the server would give had it rolled these faces.
    A D3 face is the 1–3 value read at the table, as ``Roll.dice`` holds it. ``seed`` is None.
    """

    def __init__(self, dice: Sequence[int], sequence: int = 0) -> None:
        self.seed = None
        self._start(sequence)
        self._dice = tuple(dice)
        self._used = 0

    @property
    def unused_dice(self) -> tuple[int, ...]:
        """The faces no roll needed (reported back, never an error)."""
        return self._dice[self._used:]

    def _faces(self, expr: DiceExpression) -> tuple[int, ...]:
        needed = self._used + expr.count
        if needed > len(self._dice):
            raise DiceMissing(given=len(self._dice), needed=needed)
        faces = self._dice[self._used:needed]
        for offset, face in enumerate(faces):
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= expr.sides:
                raise DiceInvalid(position=self._used + offset + 1, face=face, die=f"D{expr.sides}")
        self._used = needed
        return faces


def _one_die(rng: random.Random, sides: int) -> int:
    if sides == 3:
        return (rng.randint(1, 6) + 1) // 2
    return rng.randint(1, sides)


@dataclass(frozen=True)
class RollOff:
    """The outcome of a roll-off: the winner chooses, and every die rolled (ties included)."""

    winner: str
    loser: str
    rolls: tuple[Roll, ...]


def roll_off(
    roller: Roller,
    purpose: str,
    players: tuple[str, str],
    modifiers: Mapping[str, int] | None = None,
    die: str = "D6",
) -> RollOff:
    """Each player rolls one ``die`` (1D6 unless told; Urban War rolls D10) plus an optional
    modifier; the highest wins.

    Ties are re-rolled by both players: the seed does not say how to break them [Gap].
    """
    first, second = players
    if first == second:
        raise ValueError("a roll-off needs two different players")
    bonus = modifiers or {}
    rolls: list[Roll] = []
    for _ in range(MAX_ROLL_OFF_ROUNDS):
        a = roller.roll(die, purpose, actor=first)
        b = roller.roll(die, purpose, actor=second)
        rolls += [a, b]
        score_a = a.total + bonus.get(first, 0)
        score_b = b.total + bonus.get(second, 0)
        if score_a != score_b:
            winner, loser = (first, second) if score_a > score_b else (second, first)
            return RollOff(winner, loser, tuple(rolls))
    raise DiceError(f"roll-off {purpose!r} tied {MAX_ROLL_OFF_ROUNDS} times")
