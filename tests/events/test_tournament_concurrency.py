"""Parallel requests: double clicks and both players at once must neither fail nor leave two
results, two rounds or a broken list history.

They run on the configured database: PostgreSQL (row locks) when DATABASE_URL points to it,
otherwise the embedded SQLite, on a file as `make run` serves it (writers queue on its lock).
Every thread waits at a barrier, sends one request through its own client and connection, and
closes that connection at the end."""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from armylists.models import ArmyList
from events.models import AuditEntry, Game, PlayerList, Report, Round
from tests.row_locks import row_held
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    build_event,
    client_for,
    confirm,
    expect,
    make_user,
    pair,
    post,
    report,
    settle_round,
    submit_list,
)

pytestmark = [
    # serialized_rollback: the flush after a transactional test would drop the reference data
    # (charts, missions) that migrations load.
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def in_parallel(calls: list[Callable[[], Any]]) -> list[tuple[int, Any]]:
    """Run ``calls`` at once; (status, JSON body) of each, in order. A raised error fails."""
    barrier = threading.Barrier(len(calls))
    answers: list[tuple[int, Any] | None] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            response = call()
            answers[index] = (response.status_code, response.json())
        except BaseException as exc:  # surfaced below: a crash in a thread must fail the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert all(answer is not None for answer in answers)
    return answers  # type: ignore[return-value]


def statuses(answers: list[tuple[int, Any]]) -> Counter:
    return Counter(status for status, _body in answers)


def test_parallel_confirmations_confirm_once(staff_user):
    event = build_event(staff_user, 2)
    game = expect(pair(event.staff, event.slug), 201)["games"][0]
    a, b = game["players"]
    expect(report(event.client(a), game["id"], a, {a: 600, b: 200}), 200)
    calls = [lambda: post(client_for(event.users[b]), f"/games/{game['id']}/confirm/")] * 6
    calls += [lambda: post(client_for(staff_user), f"/games/{game['id']}/confirm/")] * 2
    answers = in_parallel(calls)
    assert statuses(answers) == {200: 8}
    assert all(body["status"] == "confirmed" for _status, body in answers)
    stored = Game.objects.get(pk=game["id"])
    assert (stored.status, stored.winner_id) == ("confirmed", a)
    assert list(Report.objects.filter(game=stored).values_list("status", flat=True)) == ["confirmed"]
    assert AuditEntry.objects.filter(action="result_confirmed").count() == 1
    assert Round.objects.get(tournament__slug=event.slug).status == "completed"


@pytest.mark.parametrize("agree", [True, False])
def test_both_players_reporting_at_once(staff_user, agree):
    event = build_event(staff_user, 12)
    games = expect(pair(event.staff, event.slug), 201)["games"]
    calls = []
    for game in games:
        a, b = game["players"]
        for me in (a, b):
            winner = a if agree or me == a else b
            calls.append(lambda g=game["id"], me=me, w=winner, a=a, b=b: report(
                client_for(event.users[me]), g, w, {a: 400, b: 300}))
    answers = in_parallel(calls)
    assert statuses(answers) == {200: len(calls)}
    second = "confirmed" if agree else "disputed"
    for index, game in enumerate(games):
        pair_answers = sorted(body["status"] for _s, body in answers[2 * index:2 * index + 2])
        assert pair_answers == sorted(["reported", second])
        stored = Game.objects.get(pk=game["id"])
        assert stored.status == second
        reports = Counter(Report.objects.filter(game=stored).values_list("status", flat=True))
        assert reports == ({"superseded": 1, "confirmed": 1} if agree else {"disputed": 2})


def test_a_burst_of_reports_and_confirmations_settles_every_game(staff_user):
    """The end of a round at a venue: half the tables confirm (with double clicks) while the
    other half report from both sides at once. Every call succeeds and the round completes."""
    event = build_event(staff_user, 16)
    games = expect(pair(event.staff, event.slug), 201)["games"]
    calls = []
    for index, game in enumerate(games):
        a, b = game["players"]
        if index % 2:
            expect(report(event.client(a), game["id"], a, {a: 700, b: 100}), 200)
            calls += [lambda g=game["id"], b=b: confirm(client_for(event.users[b]), g)] * 2
        else:
            calls += [lambda g=game["id"], me=me, a=a, b=b: report(
                client_for(event.users[me]), g, a, {a: 700, b: 100}) for me in (a, b)]
    answers = in_parallel(calls)
    assert statuses(answers) == {200: len(calls)}
    stored = Game.objects.filter(round__tournament__slug=event.slug)
    assert sorted(stored.values_list("status", flat=True)) == ["confirmed"] * len(games)
    assert all(game.winner_id == game.player_a_id for game in stored)
    assert Report.objects.filter(game__in=stored, status="confirmed").count() == len(games)
    assert AuditEntry.objects.filter(action="result_confirmed").count() == len(games)
    assert Round.objects.get(tournament__slug=event.slug).status == "completed"


def test_the_last_confirmations_at_once_complete_the_round(staff_user):
    """A round's last tables confirmed at the same moment: each confirmation may see the others
    still open, but whichever commits last completes the round (none may leave it published)."""
    for attempt in range(3):
        event = build_event(staff_user, 6, prefix=f"l{attempt}-")
        games = expect(pair(event.staff, event.slug), 201)["games"]
        for game in games:
            a, b = game["players"]
            expect(report(event.client(a), game["id"], a, {a: 500, b: 100}), 200)
        answers = in_parallel([lambda g=game["id"], user=event.users[game["players"][1]]: confirm(
            client_for(user), g) for game in games])
        assert statuses(answers) == {200: len(games)}
        assert Round.objects.get(tournament__slug=event.slug).status == "completed"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only")
def test_a_confirmation_does_not_queue_on_the_round_row(staff_user):
    """Confirmations of different tables do not wait for each other on the round's row: one
    goes through while another transaction holds that row, since other games are still open
    (before, every confirmation of the round locked it, so a burst was applied one by one)."""
    event = build_event(staff_user, 6)
    game, *_others = expect(pair(event.staff, event.slug), 201)["games"]
    a, b = game["players"]
    expect(report(event.client(a), game["id"], a, {a: 500, b: 100}), 200)
    round_id = Round.objects.get(tournament__slug=event.slug).pk
    with row_held(Round, round_id):
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")  # a wait for the round row fails the test
        try:
            answer = expect(confirm(client_for(event.users[b]), game["id"]), 200)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    assert answer["status"] == "confirmed"
    assert Game.objects.get(pk=game["id"]).status == "confirmed"
    assert Round.objects.get(pk=round_id).status == "published"


@pytest.mark.parametrize("draft", [False, True])
def test_parallel_pairing_makes_one_next_round(staff_user, draft):
    event = build_event(staff_user, 8, rounds=3)
    settle_round(event, expect(pair(event.staff, event.slug), 201))
    calls = [lambda: pair(client_for(staff_user), event.slug, draft=draft)] * 8
    answers = in_parallel(calls)
    counts = statuses(answers)
    if draft:
        # Each call re-pairs the same draft in turn.
        assert counts == {201: 8}
    else:
        # The first pairs and publishes round 2; the others then meet its open games.
        assert counts == {201: 1, 409: 7}
        assert {body["code"] for status, body in answers if status == 409} == {"round_unconfirmed"}
    assert {body["number"] for status, body in answers if status == 201} == {2}
    rounds = list(Round.objects.filter(tournament__slug=event.slug).values_list("number", flat=True))
    assert sorted(rounds) == [1, 2]
    second = Round.objects.get(tournament__slug=event.slug, number=2)
    paired = [p for g in Game.objects.filter(round=second) for p in g.player_ids]
    assert sorted(paired) == sorted(event.clients)  # one set of games, each player once
    last = [body for status, body in answers if status == 201][-1] if not draft else None
    if last is not None:
        assert sorted(g["id"] for g in last["games"]) == sorted(
            Game.objects.filter(round=second).values_list("pk", flat=True))


def test_parallel_list_submissions_keep_every_version(staff_user):
    event = build_event(staff_user, 1, lock=False)
    (pid,) = event.clients
    first = PlayerList.objects.get(player_id=pid, role="").army_list_id
    user = event.users[pid]
    versions = [[*LEGAL_UNITS, {"name": f"Version {i}", "slot": "elites", "points": 10 + i}]
                for i in range(8)]
    answers = in_parallel([lambda units=units: submit_list(client_for(user), event.slug, pid, units)
                           for units in versions])
    assert statuses(answers) == {200: 8}
    new_ids = {body["id"] for _status, body in answers}
    assert len(new_ids) == 8
    current = PlayerList.objects.get(player_id=pid, role="").army_list_id
    assert current in new_ids
    # Walk the chain from the current list: every version once, ending at the first one.
    links = dict(ArmyList.objects.filter(pk__in=new_ids | {first})
                 .values_list("pk", "supersedes_id"))
    chain, node = [], current
    while node is not None:
        chain.append(node)
        node = links[node]
    assert chain[-1] == first and set(chain) == new_ids | {first} and len(chain) == 9


def test_parallel_self_registration_registers_once(staff_user):
    event = build_event(staff_user, 0, lock=False, lists=False)
    newcomer = make_user("newcomer")
    answers = in_parallel([lambda: post(client_for(newcomer), f"/tournaments/{event.slug}/players/",
                                        {"name": "Newcomer"})] * 5)
    assert statuses(answers) == {201: 1, 409: 4}
    assert {body["code"] for status, body in answers if status == 409} == {"already_registered"}


def race_report_and_repair(staff_user, prefix: str) -> None:
    event = build_event(staff_user, 4, prefix=prefix)
    game = expect(pair(event.staff, event.slug), 201)["games"][0]
    a, _b = game["players"]
    answers = in_parallel([
        lambda: report(client_for(event.users[a]), game["id"], a),
        lambda: post(client_for(staff_user), f"/tournaments/{event.slug}/rounds/1/repair/",
                     {"confirm": 1}),
    ])
    (report_status, _r), (repair_status, repair_body) = answers
    assert (report_status, repair_status) in ((200, 409), (404, 200)), answers
    if report_status == 200:
        assert repair_body["code"] == "round_has_results"
        assert Report.objects.filter(game_id=game["id"]).count() == 1
    else:
        assert not Game.objects.filter(pk=game["id"]).exists()


def test_a_report_racing_a_re_pairing_is_never_lost(staff_user):
    """Re-pairing deletes the round's games (and, by cascade, their reports): a report written
    at the same moment must either be seen by the re-pairing (409) or find its game gone.
    Before the fix this lost the report (both answered 200) or deadlocked (a 500)."""
    for attempt in range(4):
        race_report_and_repair(staff_user, f"r{attempt}-")
