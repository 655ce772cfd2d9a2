"""Events built through the league services (as an organiser would), for the page tests."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from armylists import systems as list_systems
from armylists.chart_reports import entries_from_units
from armylists.models import Chart, GameSystem
from events.audit import Actor
from events.models import Player, Round, Tournament
from events.services import lists, rounds, tournaments
from missions.models import Level
from systems.whfb.demo import WHFB_UNITS as DEMO_WHFB_UNITS

# w40k4-standard: hq 1–2, troops 2–6; 380 points.
LEGAL_UNITS = [
    {"name": "Captain", "slot": "hq", "points": 100, "models": 1},
    {"name": "Tactical Squad", "slot": "troops", "points": 180, "models": 10},
    {"name": "Scout Squad", "slot": "troops", "points": 100, "models": 5},
]


def organiser(username: str = "organiser") -> Actor:
    user = get_user_model().objects.create_user(username, password="orga-pass-1234", is_staff=True)
    return Actor(user=user)


def user(username: str, password: str = "player-pass-1234") -> Any:
    return get_user_model().objects.create_user(username, f"{username}@example.org", password)


def open_event(staff: Actor, name: str = "Cité en flammes", **fields: Any) -> Tournament:
    settings = {"chart": Chart.objects.get(slug="w40k4-standard"), "points_limit": 1000,
                "level": Level.objects.get(slug="gamma"), "rounds": 3, "seed": 1234, **fields}
    event = tournaments.create_tournament(staff, name=name, **settings)
    return tournaments.transition(staff, event, Tournament.Status.REGISTRATION_OPEN)


def register(event: Tournament, account: Any, name: str, units=LEGAL_UNITS) -> Player:
    actor = Actor(user=account)
    player = tournaments.register_player(actor, event, name=name)
    if units:
        lists.submit_list(actor, player, role="", entries=entries_from_units(units))
    return player


def lock_and_pair(staff: Actor, event: Tournament, *, draft: bool = False) -> Round:
    event = tournaments.transition(staff, event, Tournament.Status.LISTS_LOCKED)
    return rounds.pair_next_round(staff, event, draft=draft)


# --- events of the other game systems ----------------------------------------------------------

# whfb-open (no slot limits), 960 points and a 60-point baggage wagon (within 10 %): the demo's.
WHFB_UNITS = DEMO_WHFB_UNITS
# Six Colonial Marines (card 43101), the first one the commander.
COMMANDO = [{"profile": "43101", "cal": 2 if i == 0 else 1, "commander": i == 0,
             "label": "Sergent" if i == 0 else f"Marine {i}"} for i in range(6)]


def system_event(staff: Actor, slug: str, chart: str, name: str, **fields: Any) -> Tournament:
    """An open event of another game system (``slug``), e.g. whfb with its advanced rules."""
    event = tournaments.create_tournament(
        staff, name=name, game_system=GameSystem.objects.get(slug=slug),
        chart=Chart.objects.get(slug=chart), rounds=3, seed=7, **fields)
    return tournaments.transition(staff, event, Tournament.Status.REGISTRATION_OPEN)


def submit_system_list(player: Player, body: dict[str, Any]) -> None:
    """The list body ``PUT …/list/`` takes, through the services the list page and API use."""
    event = player.tournament
    rules = list_systems.rules_for(event.game_system.slug)
    data = lists.system_list_data(event, event.chart, rules, body)
    lists.submit_system_list(Actor(user=player.user), player, role="", rules=rules, data=data)


def register_system(event: Tournament, account: Any, name: str,
                    body: dict[str, Any] | None) -> Player:
    player = tournaments.register_player(Actor(user=account), event, name=name)
    if body is not None:
        submit_system_list(player, body)
    return player
