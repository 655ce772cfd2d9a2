"""What the game page adds for the game systems (league/systems): the players' current lists
the system forms offer, the W40K Dynamics panel (order tokens, orders per turn, the permanent +2,
the morale helper) and a report's or a confirmed game's system facts in the reader's language."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.models import Game, Player, PlayerList
from events.services import dynamics as dynamics_service
from events.system_game_forms import whfb_points_lines
from systems.w40k4 import dynamics
from systems.whfb.victory import BAGGAGE_BONUS

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


# --- a report's system facts ---------------------------------------------------------------------

def result_lines(game: Game, outcome: Mapping[str, Any], victory_points: Mapping[str, Any],
                 lists: Mapping[int, Entries]) -> list[str]:
    """A report's (or the confirmed game's) system facts in the reader's language; empty for a
    system whose reports carry none (the page then lists the victory points as they are)."""
    words = RESULT_WORDS.get(game.round.tournament.rules.slug)
    if words is None:
        return []
    return words((game.player_a, game.player_b), outcome or {}, victory_points or {}, lists)


def whfb_lines(players: Sequence[Player], outcome: Mapping[str, Any],
               victory_points: Mapping[str, Any], lists: Mapping[int, Entries]) -> list[str]:
    lines = whfb_points_lines(players, victory_points, outcome)
    captor = outcome.get("baggage_captured_by")
    for player, opponent in ((players[0], players[1]), (players[1], players[0])):
        if captor == player.pk:
            lines.append(_("%(player)s captured the baggage of %(opponent)s (+%(bonus)s victory "
                           "points).") % {"player": player.name, "opponent": opponent.name,
                                          "bonus": BAGGAGE_BONUS})
    looting = outcome.get("looting_units") or {}
    for player in players:
        units = looting.get(str(player.pk))
        if units:
            lines.append(_("Units of %(player)s that left to loot: %(units)s.")
                         % {"player": player.name, "units": ", ".join(units)})
    return lines


def urban_war_lines(players: Sequence[Player], outcome: Mapping[str, Any],
                    victory_points: Mapping[str, Any], lists: Mapping[int, Entries]) -> list[str]:
    loser = outcome.get("commando_destroyed")
    lost = next((p for p in players if p.pk == loser), None)
    lines = [_("The commando of %(player)s was destroyed.") % {"player": lost.name} if lost
             else _("No commando was destroyed.")]
    destroyed = outcome.get("destroyed") or {}
    for player, opponent in ((players[0], players[1]), (players[1], players[0])):
        points = {str(e.get("label")): e.get("points") for e in lists.get(opponent.pk, ())}
        labels = destroyed.get(str(player.pk)) or []
        if labels:
            named = ", ".join(model_words(label, points.get(label)) for label in labels)
            lines.append(ngettext("%(player)s destroyed %(count)s model: %(models)s.",
                                  "%(player)s destroyed %(count)s models: %(models)s.",
                                  len(labels))
                         % {"player": player.name, "count": len(labels), "models": named})
        else:
            lines.append(_("%(player)s destroyed no model.") % {"player": player.name})
    scores = ", ".join(f"{p.name} {victory_points.get(str(p.pk), 0)}" for p in players)
    lines.append(_("Victory points (the points of the enemy models destroyed): %(points)s.")
                 % {"points": scores})
    return lines


def model_words(label: str, points: Any) -> str:
    if points is None:  # the list changed since: the label alone
        return label
    return _("%(label)s (%(points)s points)") % {"label": label, "points": points}


RESULT_WORDS: dict[str, Callable[..., list[str]]] = {"whfb": whfb_lines, "urban-war": urban_war_lines}
