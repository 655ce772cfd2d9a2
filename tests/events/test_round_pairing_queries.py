"""Pairing a round through the API: the query count does not grow with the field, the answer is
the stored round, and every die rolled is logged (one batch per pairing, issue #15)."""
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import Game, Tournament
from missions.models import DiceBatch, DiceRoll
from tests.tournament_fixtures import build_event, client_for, expect, get, pair, settle_round

pytestmark = pytest.mark.django_db

# Measured 25 on SQLite, 26 on PostgreSQL (the games' keys are drawn before they are copied),
# one of them the round's published notice kept as a row (notices.outbox: one QueuedNotice
# insert, whatever the field); a query per player or per game would add 4 to 20.
PAIRING_QUERIES = 26


def paired_round_queries(staff_user, players: int) -> tuple[int, dict]:
    """(queries, answer) of pairing round 2 (missions and pre-game dice per table, a bye when
    ``players`` is odd), round 1 played."""
    event = build_event(staff_user, players, prefix=f"q{players}", rounds=3, missions="per_table")
    settle_round(event, expect(pair(event.staff, event.slug), 201))
    with CaptureQueriesContext(connection) as queries:
        body = expect(pair(event.staff, event.slug), 201)
    return len(queries), body


def test_pairing_takes_the_same_queries_whatever_the_field(staff_user):
    small, _ = paired_round_queries(staff_user, 9)
    large, body = paired_round_queries(staff_user, 41)
    assert len(body["games"]) == 21  # 20 tables and a bye
    assert small == large <= PAIRING_QUERIES


def test_the_answer_is_the_round_as_stored(staff_user):
    _queries, body = paired_round_queries(staff_user, 11)
    slug = Tournament.objects.get().slug
    assert expect(get(client_for(None), f"/tournaments/{slug}/rounds/2/"), 200) == body
    ids = [g["id"] for g in body["games"]]
    assert sorted(ids) == sorted(Game.objects.filter(round__number=2).values_list("pk", flat=True))
    assert body["games"][-1]["table"] is None  # the bye last, as the stored round lists it


def test_a_round_logs_its_rolls_in_one_batch_that_holds_every_die_of_its_games(staff_user):
    event = build_event(staff_user, 7, rounds=2, missions="per_table")
    first = expect(pair(event.staff, event.slug, draft=True), 201)
    again = expect(pair(event.staff, event.slug, draft=True), 201)  # re-paired: new dice
    stream = Tournament.objects.get().dice
    batches = list(DiceBatch.objects.filter(stream=stream).order_by("first_sequence"))
    assert [b.first_sequence for b in batches] == [0, len(batches[0].rolls)]
    assert batches[1].first_sequence + len(batches[1].rolls) == stream.next_sequence
    assert not DiceRoll.objects.filter(stream=stream).exists()
    for body, batch in zip((first, again), batches, strict=True):
        logged = {r.sequence: r for r in batch.as_rolls()}
        shown = [roll for g in body["games"] for roll in g["pregame"]["rolls"]]
        assert shown and len(logged) == len(batch.rolls)
        for roll in shown:  # each die the games show is the logged one, and nothing else is
            row = logged.pop(roll["sequence"])
            assert (row.purpose, row.expression, row.dice, row.total) == (
                roll["purpose"], roll["expression"], roll["dice"], roll["total"])
        assert {r.purpose for r in logged.values()} == {"mission"}  # the per-table missions
        assert len(logged) == sum(len(g["mission_rolls"]) for g in body["games"])


def test_staff_read_a_batch_roll_by_roll_and_cannot_change_it(client, staff_user):
    event = build_event(staff_user, 4, rounds=1, missions="per_table")
    expect(pair(event.staff, event.slug), 201)
    batch = DiceBatch.objects.get()
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    page = client.get(reverse("admin:missions_dicebatch_change", args=[batch.pk])).content.decode()
    first = batch.as_rolls()[0]
    assert f"<td>{first.sequence}</td><td>{first.purpose}</td>" in page
    assert page.count("<tr><td>") == len(batch.rolls)
    stream_page = client.get(reverse("admin:missions_dicestream_change", args=[batch.stream_id]))
    assert stream_page.status_code == 200
    assert client.post(reverse("admin:missions_dicebatch_delete", args=[batch.pk]),
                       {"post": "yes"}).status_code == 403
    assert DiceBatch.objects.get().rolls == batch.rolls


def test_a_round_answer_names_the_charts_of_its_list_flags_in_one_query(staff_user):
    from armylists.models import Chart

    event = build_event(staff_user, 6, lists=False, rounds=1, missions="per_table")
    body = expect(pair(event.staff, event.slug), 201)
    other = Chart.objects.exclude(slug="w40k4-standard").first()
    kinds = [{"code": "list_missing", "role": None, "chart": "w40k4-standard"},
             {"code": "list_invalid", "role": "attacker", "chart": "w40k4-standard"},
             {"code": "list_missing", "role": "defender", "chart": other.slug}]
    for game, kind in zip(Game.objects.order_by("table"), kinds, strict=True):
        Game.objects.filter(pk=game.pk).update(
            list_problems=[{**kind, "player": pid} for pid in game.player_ids])
    with CaptureQueriesContext(connection) as queries:
        shown = expect(get(event.staff, f"/tournaments/{event.slug}/rounds/1/"), 200)
    charts = [q for q in queries.captured_queries if 'FROM "armylists_chart"' in q["sql"]]
    assert len(charts) == 1  # not one per kind of flag
    messages = [p["message"] for g in shown["games"] for p in g["list_problems"]]
    assert len(messages) == 6 and all(str(other.name) in m for m in messages[4:])
    assert len(body["games"]) == 3
