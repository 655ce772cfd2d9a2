"""What the game page adds for the game systems (events/systems): the players' current lists
the system forms offer, the W40K Dynamics panel (order tokens, orders per turn, the permanent +2,
the morale helper). A report's system facts in words are the system's (systems/reports.py)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from events.models import Game, PlayerList
from events.services import dynamics as dynamics_service
from systems.w40k4 import dynamics

Entries = Sequence[Mapping[str, Any]]


def main_lists(game: Game) -> dict[int, tuple[int, list[dict[str, Any]]]]:
    """Player id -> (points, entries) of both players' current main lists, in one query."""
    rows = PlayerList.objects.filter(player_id__in=game.player_ids, role="").values_list(
        "player_id", "army_list__total_points", "army_list__entries")
    return {pid: (int(points or 0), list(entries or ())) for pid, points, entries in rows}


def entries_of(lists: Mapping[int, tuple[int, list[dict[str, Any]]]]) -> dict[int, Entries]:
    return {pid: entries for pid, (_points, entries) in lists.items()}


# --- W40K Dynamics -----------------------------------------------------------------------------

def dynamics_panel_applies(game: Game) -> bool:
    return dynamics_service.is_dynamics(game.round.tournament) and not game.is_bye


def dynamics_panel(game: Game, lists: Mapping[int, tuple[int, Entries]]) -> dict[str, Any] | None:
    """Each player's order tokens and orders per turn, and the permanent +2 holder, from the same
    block the API and the table sheet give (None outside a Dynamics event)."""
    sizes = {pid: (points, len(entries)) for pid, (points, entries) in lists.items()}
    block = dynamics_service.block(game, sizes)
    if block is None:
        return None
    players = (game.player_a, game.player_b)
    rows = [{"player": p, **block["tokens"][str(p.pk)],
             "orders": block["orders_per_turn"][str(p.pk)]} for p in players]
    holder = next((p for p in players if p.pk == block["permanent_advantage"]), None)
    return {"rows": rows, "holder": holder, "rule": morale_rule(game),
            "rule_text": morale_rule_text(morale_rule(game))}


def morale_rule(game: Game) -> str:
    rule = (game.round.tournament.settings or {}).get("morale_rule")
    return rule if rule in dynamics.MORALE_RULES else dynamics.MORALE_RULES[0]


def morale_rule_text(rule: str) -> str:
    # The spaces before "%" here and below are non-breaking: "25 %" never splits on a phone.
    if rule == "more_than":
        return _("This event applies the FAQ: more than 25 % of the models the unit had at the "
                 "start of the pass.")
    return _("This event applies the main rule: 25 % or more of the models the unit had at the "
             "start of the pass.")


def morale_words(check: dynamics.MoraleCheck, models: int, pending: int) -> str:
    words = {"pending": pending, "models": models, "percent": round(check.fraction * 100),
             "minimum": check.minimum_casualties}
    if check.test_required:
        return _("Morale test required: %(pending)s pending casualties of %(models)s models "
                 "(%(percent)s %%). From %(minimum)s pending casualties this unit tests.") % words
    return _("No morale test: %(pending)s pending casualties of %(models)s models "
             "(%(percent)s %%). From %(minimum)s pending casualties this unit tests.") % words
