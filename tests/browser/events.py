"""Events built through the league services (as an organiser would), for the page tests."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from armylists.models import Chart
from armylists.services import entries_from_units
from league.audit import Actor
from league.models import Player, Round, Tournament
from league.services import lists, rounds, tournaments
from missions.models import Level

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
