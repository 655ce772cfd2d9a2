"""What an order check answers and what it spends: the refusal (a code and its params), the
verdict, and each side's moves, attacks and reactions this turn with the Supreme Commanders'
extra actions (R16, R26, R28, G6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from campaigns.engine.map import (
    territory,
)
from campaigns.engine.state import (
    ATTACK,
    FORTIFY,
    MOVE,
    REACTION,
    SUPREME_COMMANDER_BONUS,
    VEHICLES,
    CampaignState,
    Detachment,
)
from campaigns.engine.tools import initiative_value
from config.refusals import CodedRefusal

ALLOWANCE_CODES: Mapping[str, str] = {
    MOVE: "move_allowance_exceeded", ATTACK: "attack_allowance_exceeded",
    REACTION: "reaction_allowance_exceeded",
}


@dataclass(frozen=True)
class Refusal:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """Accepted (``refusal`` None, ``bonus`` "supreme_commander" or None) or refused."""

    refusal: Refusal | None = None
    bonus: str | None = None
    commander: str | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


class OrderRefused(CodedRefusal):
    """An order the engine refuses; ``refusal`` keeps the engine's own record of it."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code, **dict(refusal.params))
        self.refusal = refusal


class Refuse(Exception):
    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.refusal = Refusal(code, params)


@dataclass(frozen=True)
class Allowance:
    """One kind of action for one side this turn: the initiative value, the regular actions
    used, and the Supreme Commanders whose extra action is still unused."""

    limit: int
    used: int
    commanders_left: tuple[str, ...] = ()

    @property
    def left(self) -> int:
        return max(self.limit - self.used, 0)


def allowances(state: CampaignState, side: str) -> Mapping[str, Allowance]:
    """R16 + G6: moves, attacks and reactions each up to the initiative value; R27: a fortify
    order uses a move; R26/R28: one extra move and one hasty attack per Supreme Commander."""
    limit = initiative_value(state.strategic_values[side])
    out = {}
    for kind, counted in ((MOVE, (MOVE, FORTIFY, VEHICLES)), (ATTACK, (ATTACK,)),
                          (REACTION, (REACTION,))):
        used = sum(1 for a in state.accepted(side, counted) if a.bonus is None)
        spent = {a.commander for a in state.accepted(side, (kind,)) if a.commander}
        left = tuple(d.name for d in commanders(state, side) if d.name not in spent)
        out[kind] = Allowance(limit, used, left if kind != REACTION else ())
    return out


def commanders(state: CampaignState, side: str) -> tuple[Detachment, ...]:
    return tuple(sorted((d for d in state.detachments
                         if d.side == side and d.supreme_commander and d.on_map),
                        key=lambda d: d.name))


def use_allowance(state: CampaignState, side: str, kind: str, col: int | None,
               bonus_allowed: bool) -> tuple[str | None, str | None]:
    """The bonus (and its Supreme Commander) this order needs, or a refusal.

    The regular allowance is spent first: the Supreme Commander's action is « supplémentaire ».
    It serves only a detachment in the commander's own line of resistance (R26 « par un
    détachement se trouvant sur cette ligne »; the hasty attack is read the same way).
    """
    allowance = allowances(state, side)[kind]
    if allowance.left > 0:
        return None, None
    if bonus_allowed and col is not None:
        for name in allowance.commanders_left:
            commander = state.detachment(side, name)
            if commander is not None and territory(commander.location).col == col:
                return SUPREME_COMMANDER_BONUS, name
    raise Refuse(ALLOWANCE_CODES[kind], limit=allowance.limit)
