"""Events with a published round for the round-clock, projector and results-grid tests: built
through the league services, as an organiser would, in any game system."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from armylists import systems as list_systems
from events.audit import Actor
from events.models import Round, Tournament
from events.services import lists, rounds, tournaments
from tests.browser.events import COMMANDO, WHFB_UNITS, open_event, system_event

SYSTEMS = {"w40k4": None, "whfb": ("whfb-open", 2000), "urban-war": ("urban-war-commando", 250)}
FIRST = ["Amélie", "Bruno", "Chloé", "Damien", "Élise", "Fabrice", "Gaëlle", "Hugo", "Inès",
         "Julien", "Karima", "Léon", "Manon", "Nathan", "Océane", "Pierre"]


def player_names(count: int) -> list[str]:
    """Distinct, realistic names (first name and a surname-like suffix), not in alphabetical order
    of registration, so "find your table" has something to sort."""
    return [f"{FIRST[(i * 7) % len(FIRST)]} Joueur-{i:03d}" for i in range(count)]


def new_event(staff: Actor, system: str = "w40k4", *, name: str = "Tournoi de Lyon",
              **fields: Any) -> Tournament:
    """An event open for registration, in French unless told otherwise."""
    fields.setdefault("language", "fr")
    if system == "w40k4":
        return open_event(staff, name=name, **fields)
    chart, points = SYSTEMS[system]
    fields.setdefault("points_limit", points)
    return system_event(staff, system, chart, name, **fields)


def list_body(system: str) -> dict[str, Any] | None:
    if system == "whfb":
        return {"faction": "empire", "units": WHFB_UNITS}
    if system == "urban-war":
        return {"models": COMMANDO}
    return None


def paired_round(staff: Actor, event: Tournament, count: int, *, names: Sequence[str] = (),
                 with_lists: bool = False) -> Round:
    """Register ``count`` players (no accounts; lists only when asked: a system whose result
    reads the lists needs them), lock the lists and pair round 1, published."""
    body = list_body(event.game_system.slug) if with_lists else None
    for name in list(names) or player_names(count):
        player = tournaments.register_player(staff, event, name=name)
        if body is not None:
            rules = list_systems.rules_for(event.game_system.slug)
            data = lists.system_list_data(event, event.chart, rules, body)
            lists.submit_system_list(staff, player, role="", rules=rules, data=data)
    event = tournaments.transition(staff, Tournament.objects.get(pk=event.pk),
                                   Tournament.Status.LISTS_LOCKED)
    return rounds.pair_next_round(staff, event)
