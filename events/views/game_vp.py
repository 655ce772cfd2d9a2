"""The game page's victory-points helper: each side's units at the end of the game, scored by
the Cities of Death 25% rule of the game's mission (missions/victory), the result shown on the
page again and offered to the report form."""
from __future__ import annotations

from typing import Any

from django.shortcuts import redirect

from events.audit import Actor
from events.game_forms import VpFormSet, vp_rows_from_list
from events.models import Game, Player
from events.services.lists import current_list
from missions import services as missions
from missions import victory
from missions.messages import vp_message

SIDES = ("a", "b")


def has_vp_helper(found: Game) -> bool:
    """The victory-points helper applies the Cities of Death 25% rule of the game's mission."""
    return found.round.tournament.rules.rolls_missions and found.mission is not None


def vp(request, actor: Actor, found: Game, bound: dict[str, Any]):
    if not has_vp_helper(found):
        return redirect("game", pk=found.pk)
    sets = {side: VpFormSet(request.POST, prefix=f"vp{side}") for side in SIDES}
    if "vp_add_rows" in request.POST:
        bound["vp_sets"] = {side: fs.grown() for side, fs in sets.items()}
        return None
    bound["vp_sets"] = sets
    if not all(fs.is_valid() for fs in sets.values()):
        return None
    players = (found.player_a, found.player_b)
    states = tuple(victory.SideState(str(p.pk), found.roles.get(str(p.pk)), sets[s].units())
                   for s, p in zip(SIDES, players, strict=True))
    try:
        bound["vp_result"] = missions.score_game(found.mission, states)
    except victory.VpInputError as exc:
        bound["vp_error"] = vp_message(exc.code, exc.params)
    return None


def vp_context(found: Game, bound: dict[str, Any], result: victory.VpResult | None) -> dict[str, Any]:
    players = (found.player_a, found.player_b)
    sets = bound.get("vp_sets") or {
        side: VpFormSet(prefix=f"vp{side}", initial=vp_rows_from_list(entries(found, player)))
        for side, player in zip(SIDES, players, strict=True)}
    sides = [{"player": player, "formset": sets[side]}
             for side, player in zip(SIDES, players, strict=True)]
    if result is not None:
        for side, score in zip(sides, result.sides, strict=True):
            side["score"] = score
    return {"vp_sides": sides, "vp_error": bound.get("vp_error"), "vp_result": result,
            "vp_open": "vp_sets" in bound}


def entries(found: Game, player: Player) -> list[dict[str, Any]]:
    """The units of the list the player brought: their role's list, else their main list."""
    role = found.roles.get(str(player.pk))
    army_list = (current_list(player, role) if role else None) or current_list(player)
    return list(army_list.entries) if army_list else []
