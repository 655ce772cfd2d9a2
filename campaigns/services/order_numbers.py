"""The ids players read and name for a campaign's orders (api-v1-systems "Sealed declarations":
« Order ids say nothing of the other side's sealed orders »).

The database key counts every order of every campaign, so a side would see it jump over the
enemy's sealed orders. An order's public id is its ``number`` instead: within a turn, west's
orders are 1, 3, 5… and east's 2, 4, 6…, each side counting its own orders only, so the ids of a
turn never collide and tell nothing of the other side. A reaction names the attack it answers,
an escort the mission it covers, by that id; a name resolves only among the orders the sender
may see, so a sealed attack answers exactly as an absent one.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from django.db.models import Max

from campaigns.engine import map as grid
from campaigns.engine.state import AIR_MISSION, ATTACK
from campaigns.models import CampaignOrder, CampaignTurn

# The refusal params that carry an order's id: told back as the sender named it.
ID_PARAMS = ("for_attack", "escort_of")


def first_number(side: str) -> int:
    return 1 if side == grid.SIDES[0] else 2


def next_number(turn: CampaignTurn, side: str) -> int:
    """The public id of ``side``'s next order of ``turn`` (after its own orders only)."""
    top = turn.orders.filter(side=side).aggregate(top=Max("number"))["top"]
    return first_number(side) if top is None else top + len(grid.SIDES)


def public_id(row: CampaignOrder) -> int:
    """The id players read (the database key for an order older than the numbering)."""
    return row.number if row.number is not None else row.pk


def public_ids(rows: Iterable[CampaignOrder]) -> dict[int, int]:
    """Database key → public id of ``rows``."""
    return {row.pk: public_id(row) for row in rows}


class TurnIds(Mapping[int, int]):
    """``public_ids`` of a turn's orders, read on first use (a page without reactions or
    escorts to offer never needs them)."""

    def __init__(self, turn: CampaignTurn) -> None:
        self._turn = turn
        self._ids: dict[int, int] | None = None

    def _all(self) -> dict[int, int]:
        if self._ids is None:
            self._ids = public_ids(self._turn.orders.all())
        return self._ids

    def __getitem__(self, key: int) -> int:
        return self._all()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def linked_id(key: int | None, ids: Mapping[int, int]) -> int | None:
    """The public id of the order a row links to (its attack, its escorted mission)."""
    return None if key is None else ids.get(key, key)


def _key(rows: Iterable[CampaignOrder], number: int | None) -> int | None:
    """The database key of the order named ``number``; else a key no order has (the engine then
    refuses it as unknown, and ``told`` puts the sender's number back in its answer)."""
    if number is None:
        return None
    found = next((row.pk for row in rows if public_id(row) == number), None)
    return found if found is not None else -number


def attack_key(turn: CampaignTurn, side: str, number: int | None) -> int | None:
    """The enemy attack ``side``'s reaction names: only one out of its envelope (accepted)."""
    rows = turn.orders.filter(side=grid.enemy(side), kind=ATTACK, status=CampaignOrder.ACCEPTED)
    return _key(rows, number)


def mission_key(turn: CampaignTurn, side: str, number: int | None) -> int | None:
    """``side``'s own air mission an escort names (its own orders, sealed or not)."""
    rows = turn.orders.filter(side=side, kind=AIR_MISSION).exclude(status=CampaignOrder.REFUSED)
    return _key(rows, number)


def told(params: Mapping[str, object], named: Mapping[str, int | None]) -> dict[str, object]:
    """A refusal's params with the order ids as the sender named them."""
    return {key: (named.get(key) if key in ID_PARAMS and key in named else value)
            for key, value in params.items()}
