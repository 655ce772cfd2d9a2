"""The dice of a campaign: the campaign tournament's seeded stream, or faces thrown at the table.

Server dice go through ``missions.services.rolling`` (the stream row is locked, every roll is
stored as a ``DiceRoll``). Entered dice go through ``EnteredRoller``, exactly where the seeded
roller would roll (api-v1-systems "Dice thrown at the table"); they are kept with the campaign
row that used them and in the audit log, with ``"source": "entered"``."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from campaigns.messages import campaign_message
from campaigns.models import Campaign
from events.audit import Actor
from events.errors import Invalid
from missions import services as missions
from missions.dice import EnteredDiceError, EnteredRoller, Roll, Roller

SERVER, ENTERED = "server", "entered"
T = TypeVar("T")


@dataclass(frozen=True)
class Thrown(Generic[T]):
    """What an action rolled: its answer, every roll as stored, the entered faces left over."""

    value: T
    rolls: tuple[dict[str, Any], ...]
    unused: tuple[int, ...] = ()

    def record(self) -> dict[str, Any]:
        """The rolls as an answer or an audit entry shows them."""
        out: dict[str, Any] = {"dice_log": list(self.rolls)}
        if self.unused:
            out["unused_dice"] = list(self.unused)
        return out


def roll_line(roll: Roll, source: str) -> dict[str, Any]:
    return {"sequence": roll.sequence if source == SERVER else None, "purpose": roll.purpose,
            "expression": roll.expression, "dice": list(roll.dice), "total": roll.total,
            "side": roll.actor, "source": source}


def throw(campaign: Campaign, actor: Actor, action: Callable[[Roller], T],
          dice: Sequence[int] | None) -> Thrown[T]:
    """Run ``action`` on the campaign's stream, or on ``dice`` when faces were entered.

    Too few or impossible faces are 400 ``dice_missing`` / ``dice_invalid``; nothing is stored
    then (the caller's transaction rolls back)."""
    if dice is None:
        with missions.rolling(campaign.tournament.dice, actor.user if actor.user_id else None) as roller:
            value = action(roller)
        return Thrown(value, tuple(roll_line(r, SERVER) for r in roller.rolls))
    entered = EnteredRoller(dice)
    try:
        value = action(entered)
    except EnteredDiceError as exc:
        raise Invalid(campaign_message(exc.code, exc.params), exc.code) from None
    return Thrown(value, tuple(roll_line(r, ENTERED) for r in entered.rolls), entered.unused_dice)
