"""W40K Dynamics (seed 004) on a game of a Dynamics event: each player's order tokens and orders
per turn from their current list, and who holds the permanent +2 (api-v1-systems "W40K Dynamics").
Read by the game's API answer, the game page and the table sheet."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from events.models import Game, PlayerList, Tournament
from systems.w40k4 import dynamics
from systems.w40k4.event_rules import DYNAMICS

DEFAULT_ROUNDING = "ceil"  # DG1: a started block of 250 points counts


def is_dynamics(tournament: Tournament) -> bool:
    return tournament.turn_system == DYNAMICS


def list_sizes(player_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Player id -> (points, units) of their current main list, in one query."""
    rows = PlayerList.objects.filter(player_id__in=list(player_ids), role="").values_list(
        "player_id", "army_list__total_points", "army_list__entries")
    return {pid: (int(points or 0), len(entries or ())) for pid, points, entries in rows}


def block(game: Game, sizes: Mapping[int, tuple[int, int]] | None = None) -> dict[str, Any] | None:
    """The contract's ``dynamics`` object of ``game``, or None outside a Dynamics event or for a bye.

    Tokens come from the list's points (the points limit without a list); orders per turn are the
    list's units (0 without a list). ``sizes`` from ``list_sizes`` saves a query per game."""
    tournament = game.round.tournament
    if not is_dynamics(tournament) or game.is_bye:
        return None
    sizes = list_sizes(game.player_ids) if sizes is None else sizes
    rounding = (tournament.settings or {}).get("token_rounding", DEFAULT_ROUNDING)
    tokens, orders = {}, {}
    for pid in game.player_ids:
        points, units = sizes.get(pid, (0, 0))
        count = dynamics.tokens(points or tournament.points_limit, rounding)
        tokens[str(pid)] = {"per_order": count.per_order, "total": count.total, "sheets": count.sheets}
        orders[str(pid)] = units
    holder = (game.pregame or {}).get("permanent_advantage")
    return {"tokens": tokens, "orders_per_turn": orders,
            "permanent_advantage": int(holder) if holder not in (None, "") else None}
