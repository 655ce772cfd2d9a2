"""Warhammer 40,000's box on a table sheet (systems/sheets): the W40K Dynamics order tokens and
orders per turn of both players, and who holds the permanent +2 (none in a standard game)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from events.models import Game, Player, Tournament
from events.services import dynamics
from printing.data import DynamicsBox
from systems.sheets import SheetBlock


def list_sizes(tournament: Tournament, player_ids: Iterable[int]) -> Mapping[int, Any]:
    """The Dynamics list sizes of the round's players (one query; none in a standard game)."""
    return dynamics.list_sizes(list(player_ids)) if dynamics.is_dynamics(tournament) else {}


def dynamics_box(kit: Any, game: Game, players: Sequence[Player]) -> DynamicsBox | None:
    data = dynamics.block(game, kit.gathered["dynamics"])
    if data is None:
        return None  # a standard turn system
    a, b = (str(player.pk) for player in players)
    holder = data["permanent_advantage"]
    names = {player.pk: player.name for player in players}
    return DynamicsBox(
        a_tokens=tokens_text(data["tokens"][a]), b_tokens=tokens_text(data["tokens"][b]),
        a_orders=orders_text(data["orders_per_turn"][a]),
        b_orders=orders_text(data["orders_per_turn"][b]),
        holder=names.get(holder) or gettext("nobody"))


def tokens_text(count: Mapping[str, Any]) -> str:
    """"8 of each order, 40 in all: 2 sheets of 30" (a printed sheet holds 6 of each, D-R3)."""
    return ngettext("%(per_order)d of each order, %(total)d in all: %(sheets)d sheet of 30",
                    "%(per_order)d of each order, %(total)d in all: %(sheets)d sheets of 30",
                    count["sheets"]) % count


def orders_text(units: int) -> str:
    if units == 0:
        return gettext("no list yet: one per unit on the table")
    return gettext("%(count)d (one per unit)") % {"count": units}


BOXES = {"dynamics": SheetBlock(dynamics_box, per_table=True, gather=list_sizes)}
