"""Demo events of the game systems, so a fresh site shows every system Muster serves: each
system gives its `DemoEvent` (``GameSystem.demo_event``, e.g. systems/whfb/demo.py), created
here with the demo players, their lists and round 1 paired (two results in); and the demo Epic
40,000 campaign."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.module_loading import import_string

from armylists import systems as list_systems
from armylists.models import Chart, GameSystem
from events.audit import SYSTEM
from events.demo import LEGAL, PLAYERS
from events.models import Game, Player, Tournament
from events.services import lists, results, rounds, tournaments
from systems.registry import game_systems

PLAYER_COUNT = 8


@dataclass(frozen=True)
class DemoEvent:
    """One system's demo event: its slug and name, its columns (``fields``, read when it is
    made), how a demo player's list is submitted and the result of a reported game."""

    slug: str
    name: str
    fields: Callable[[], dict[str, Any]]
    submit: Callable[[Player], None]
    result: Callable[[Game], results.ResultInput]


def system_list(body: dict[str, Any]) -> Callable[[Player], None]:
    """Submit ``body`` (as ``PUT …/list/`` takes it) through the event system's list rules."""
    def submit(player: Player) -> None:
        tournament = player.tournament
        rules = list_systems.rules_for(tournament.game_system.slug)
        data = lists.system_list_data(tournament, tournament.chart, rules, body)
        lists.submit_system_list(SYSTEM, player, role="", rules=rules, data=data)
    return submit


def chart_list(player: Player) -> None:
    """Submit the legal demo list of a count-based chart."""
    lists.submit_list(SYSTEM, player, role="", entries=LEGAL)


def system_fields(system: str, chart: str) -> dict[str, Any]:
    """The event's game system and chart, by slug."""
    return {"game_system": GameSystem.objects.get(slug=system),
            "chart": Chart.objects.get(slug=chart)}


def demo_events() -> list[DemoEvent]:
    """Every installed system's demo event, in the registry's order."""
    return [import_string(system.demo_event) for system in game_systems() if system.demo_event]


def demo_system_events(accounts: Sequence[Any] = ()) -> list[Tournament]:
    """Create each demo event once; later calls return them unchanged."""
    return [_event(event, accounts) for event in demo_events()]


def _event(event: DemoEvent, accounts: Sequence[Any]) -> Tournament:
    existing = Tournament.objects.filter(slug=event.slug).first()
    if existing is not None:
        return existing
    tournament = tournaments.create_tournament(
        SYSTEM, slug=event.slug, name=event.name, seed=len(event.slug), status="registration_open",
        **event.fields())
    # PLAYERS' factions are Warhammer 40,000 armies: these systems' players register without one.
    for index, (name, club, _faction) in enumerate(PLAYERS[:PLAYER_COUNT]):
        account = accounts[index] if index < len(accounts) else None
        player = tournaments.register_player(SYSTEM, tournament, name=name, club=club, faction="",
                                             username=account.get_username() if account else None)
        event.submit(player)
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    for game in round_.games.filter(status=Game.Status.PENDING).order_by("table")[:2]:
        results.report(SYSTEM, game.pk, event.result(game))
    return tournament


# --- an Epic 40,000 campaign (seed 001), set up as the seed's example map and started ---------

CAMPAIGN_NAME = "Demo — Laïtus Prime"
CAMPAIGN_SIDES = (
    ("west", "Alix", "Space Marines", "space-marines", 5, ("1", "3"), (
        ("Aquila Guard", 1000, "ground", False, "1"), ("Bastion Guard", 1000, "ground", False, "3"),
        ("Captain Varro", 800, "ground", True, "4"), ("Crusader Armour", 1200, "ground", False, "7"),
        ("Eagle Scouts", 400, "ground", False, "9"))),
    ("east", "Bastien", "Orks", "orks", 3, ("G", "I"), (
        ("Mob Gork", 1000, "ground", False, "G"), ("Mob Mork", 1000, "ground", False, "I"),
        ("Warboss Grukk", 700, "ground", True, "D"), ("Big Gunz", 1500, "ground", False, "A"),
        ("Kult of Speed", 800, "ground", False, "C"))),
)


def demo_campaign(accounts: Sequence[Any] = ()) -> Any:
    """The seed's example campaign between the first two demo players, started at turn 1."""
    from campaigns.engine.army import DetachmentSpec
    from campaigns.models import Campaign
    from campaigns.services import placement as campaign_placement
    from campaigns.services import setup as campaign_setup
    from campaigns.state_serializers import SettingsSerializer
    from events.systems import normalised

    existing = Campaign.objects.filter(name=CAMPAIGN_NAME).first()
    if existing is not None:
        return existing
    campaign = campaign_setup.create_campaign(SYSTEM, name=CAMPAIGN_NAME, seed=1,
                                              settings=normalised(SettingsSerializer, {}))
    placements = {}
    for index, (side, name, army, faction, value, majors, detachments) in enumerate(CAMPAIGN_SIDES):
        account = accounts[index] if index < len(accounts) else None
        campaign_setup.add_side(SYSTEM, campaign, side=side, name=name, army_name=army,
                                faction=faction, strategic_value=value,
                                username=account.get_username() if account else None)
        campaign_setup.set_army(SYSTEM, campaign, side,
                                [DetachmentSpec(d[0], d[1], d[2], d[3]) for d in detachments])
        campaign_setup.set_majors(SYSTEM, campaign, side, majors)
        placements[side] = [(d[0], d[4]) for d in detachments]
    side: str | None = "east"  # R11: the lower strategic value places first, then they alternate
    while side is not None:
        detachment, territory = placements[side].pop(0)
        side = campaign_placement.place(SYSTEM, campaign, detachment=detachment,
                                        territory=territory, side=side)
    return campaign_placement.start(SYSTEM, campaign)
