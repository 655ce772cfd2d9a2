"""An event's backup holds the organiser's day: each round's clock, the check-in codes and state,
the self check-in window, the awards and penalties with their staff entries and votes. Restored
into a database without the event, it gives the same standings with extras, the same clocks and
the same codes, and exports back to the same document."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.audit import Actor
from events.models import AuditEntry, Player, Round, Tournament
from events.services import backup, exports, restore, results, rounds, tournaments
from events.services import standings as standings_service
from tests.browser.events import open_event, organiser, register, user
from tests.events.test_backup import purge, without_time
from venue.award_models import ScoreComponent, ScoreVote
from venue.services import awards, checkin, clock

pytestmark = pytest.mark.django_db
Kind = ScoreComponent.Kind


def confirm_all(staff: Actor, round_: Round) -> None:
    for game in round_.games.exclude(player_b=None).order_by("table"):
        results.report(staff, game.pk, results.ResultInput(
            winner=game.player_a_id, victory_points={game.player_a_id: 12, game.player_b_id: 4}))


def day_event(staff: Actor, prefix: str, count: int = 6) -> Tournament:
    """Two rounds: the first played to the end under its clock, the second running with its clock
    paused; players checked in at the door (by code and by name), self check-in open; painting
    scores, a late-list penalty with its reason, and votes for sportsmanship."""
    event = open_event(staff, name=f"Journée {prefix}", language="en")
    players = [register(event, user(f"{prefix}{i}"), f"{prefix.title()} {i}") for i in range(count)]
    checkin.check_in_by_code(staff, event, players[0].checkin_code)
    checkin.check_in_player(staff, players[1])
    checkin.open_window(staff, event)
    checkin.self_check_in(Actor(user=players[2].user), event,
                          checkin.window(event).token)
    painting = awards.define_component(staff, event, name="Painting", weight=2)
    late = awards.define_component(staff, event, name="Late list", kind=Kind.PENALTY, weight=5)
    fair = awards.define_component(staff, event, name="Sportsmanship", players_vote=True,
                                   counts=False)
    gone = awards.define_component(staff, event, name="Removed later")
    for value, player in enumerate(players, start=1):
        awards.set_entry(staff, painting, player, value)
    awards.set_entry(staff, late, players[3], 1, "list sent on the morning")
    awards.set_entry(staff, gone, players[0], 3)
    awards.remove_component(staff, gone)

    event = tournaments.transition(staff, event, Tournament.Status.LISTS_LOCKED)
    first = rounds.pair_next_round(staff, event)
    clock.act(staff, event, 1, clock.START, 90)
    clock.act(staff, event, 1, clock.EXTEND, 10)
    confirm_all(staff, first)
    for voter, chosen in ((players[0], players[1]), (players[1], players[0]),
                          (players[2], players[1])):
        awards.cast_vote(Actor(user=voter.user), fair, chosen)
    awards.cast_vote(Actor(user=players[2].user), fair, players[3])  # a vote moved
    event.refresh_from_db()
    rounds.pair_next_round(staff, event)
    clock.act(staff, event, 2, clock.START, 120)
    clock.act(staff, event, 2, clock.PAUSE)
    event.refresh_from_db()
    return event


def ranking(event: Tournament, *, with_extras: bool = True) -> list[tuple[Any, ...]]:
    """Standings by player name, with each player's awards and penalties."""
    extras = awards.load(event)
    return [(row.rank, player.name, row.points, row.wins, row.losses, dict(row.tiebreakers),
             [(s.component.name, s.value, s.points, s.counted)
              for s in extras.scores(player.pk, ranked=with_extras)])
            for row, player in standings_service.standings(event, ranked_with_extras=with_extras)]


def clocks(event: Tournament, now) -> list[clock.Reading]:
    return [clock.read(r, now) for r in event.round_set.select_related("clock").order_by("number")]


def door(event: Tournament) -> list[tuple[Any, ...]]:
    return [(p.name, p.checkin_code, p.checked_in, p.checked_in_at,
             p.checked_in_by.get_username() if p.checked_in_by else None)
            for p in event.players.select_related("checked_in_by").order_by("name")]


def votes(event: Tournament) -> set[tuple[str, str, str]]:
    return {(v.component.name, v.voter.name, v.voted_for.name) for v in ScoreVote.objects.filter(
        component__tournament=event).select_related("component", "voter", "voted_for")}


def test_a_restored_event_has_the_same_day():
    staff = organiser()
    event = day_event(staff, "ana")
    now = timezone.now() + timedelta(minutes=3)
    before = {"ranking": ranking(event), "without": ranking(event, with_extras=False),
              "clocks": clocks(event, now), "door": door(event), "votes": votes(event),
              "window": checkin.window(event).token}
    assert [c.state for c in before["clocks"]] == [clock.ENDED, clock.PAUSED]
    assert before["ranking"] != before["without"]  # the extras change the ranking
    document = json.loads(json.dumps(exports.event_data(event)))
    slug = event.slug
    purge(event)

    restored = restore.restore_event(Actor(staff.user), document)
    assert restored.warnings == []
    assert {k: restored.counts[k] for k in ("round_clocks", "award_components", "award_entries",
                                            "award_votes")} == {
        "round_clocks": 2, "award_components": 3, "award_entries": 7, "award_votes": 3}
    copy = Tournament.objects.get(slug=slug)
    assert ranking(copy) == before["ranking"]
    assert ranking(copy, with_extras=False) == before["without"]
    assert clocks(copy, now) == before["clocks"]
    assert door(copy) == before["door"]  # the same codes: the QR codes players hold still work
    assert votes(copy) == before["votes"]
    window = checkin.window(copy)
    assert window.is_open and window.token == before["window"]
    assert checkin.window_accepts(copy, before["window"])
    # The audit names the restored rows: the components and the players voted for.
    voted = AuditEntry.objects.filter(tournament=copy, action="score_vote").order_by("pk").last()
    fair = copy.score_components.get(name="Sportsmanship")
    moved_to = copy.players.get(name="Ana 3")
    assert voted.data["component"] == fair.pk and voted.data["after"] == moved_to.pk
    removed = AuditEntry.objects.get(tournament=copy, action="score_component_removed")
    assert removed.data["entries"] == {str(copy.players.get(name="Ana 0").pk): 3}
    after = json.loads(json.dumps(exports.event_data(copy)))
    assert without_time(after) == without_time(document)


def test_the_restored_clock_goes_on_from_where_it_was():
    staff = organiser()
    event = day_event(staff, "bea", count=4)
    document = json.loads(json.dumps(exports.event_data(event)))
    purge(event)
    copy = restore.restore_event(Actor(staff.user), document).tournament
    paused = clock.read(Round.objects.get(tournament=copy, number=2))
    reading = clock.act(staff, copy, 2, clock.RESUME)
    assert reading.state == clock.RUNNING and reading.duration == timedelta(minutes=120)
    assert reading.remaining_seconds <= paused.remaining_seconds


def test_a_player_checked_in_is_still_checked_in_and_a_code_works_at_the_door():
    staff = organiser()
    event = day_event(staff, "cyr", count=4)
    waiting = event.players.get(name="Cyr 3")
    document = json.loads(json.dumps(exports.event_data(event)))
    purge(event)
    copy = restore.restore_event(Actor(staff.user), document).tournament
    assert [p.name for p in checkin.missing_players(copy)] == ["Cyr 3"]
    done = checkin.check_in_by_code(staff, copy, waiting.checkin_code)
    assert done.player.name == "Cyr 3" and not done.already


def test_an_older_document_without_the_day_still_restores():
    staff = organiser()
    event = day_event(staff, "dan", count=4)
    document = json.loads(json.dumps(exports.event_data(event)))
    for player in document["players"]:
        del player["checkin_code"], player["checked_in_by"]
    for round_ in document["rounds"]:
        del round_["clock"]
    del document["awards"], document["tournament"]["check_in_window"]
    document["audit"] = []
    purge(event)
    copy = restore.restore_event(Actor(staff.user), document).tournament
    assert not copy.score_components.exists() and checkin.window(copy) is None
    assert {r.state for r in clocks(copy, timezone.now())} == {clock.NOT_STARTED}
    assert len({p.checkin_code for p in Player.objects.filter(tournament=copy)}) == 4


def test_the_export_of_the_day_is_a_fixed_number_of_queries():
    staff = organiser()
    counts = []
    for prefix, count in (("eve", 4), ("fay", 10)):
        event = Tournament.objects.select_related("chart", "level", "dice", "created_by").get(
            pk=day_event(staff, prefix, count).pk)
        with CaptureQueriesContext(connection) as queries:
            backup.event_document(event)
        counts.append(len(queries))
    assert counts[0] == counts[1]
