"""Pairing a 1,024-player round through the API, writes included (goal: 250 ms on PostgreSQL).

Run from the repository root: ``python benchmarks/pairing_api.py [--players N] [--repeats N]``.
Uses a throw-away SQLite database unless DATABASE_URL is set (then it must point to an empty
database you can lose; the goal is for PostgreSQL). Builds an event, plays rounds 1-5 through
the services with random results, then times ``POST /api/v1/tournaments/{slug}/rounds/`` for
round 6, ``--repeats`` times (each call commits; the round is deleted before the next, so the
dice stream moves on and every call rolls fresh dice). Prints the median and best call next to
the goal, the pure engine's time on the same state as the baseline, and where the median call
spent its time: standings, engine, rolls (missions and pre-game dice), inserts (the round's dice
batch and the games), commit, notices (sent in the request without a broker), answer (the
round's data) and the rest (request, locks, audit, list checks, rendering the JSON).
Without a broker the event page's sections are built once the response is sent (the warm-up):
shown apart, not counted in the call. Prints figures; asserts nothing.
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAYED_ROUNDS = 5
GOAL_MS = 250
# Where a call spends its time: (label, attribute wrapped with a timer). The rolls are timed
# inside the games they are rolled for; the commit includes the deferred foreign-key checks;
# notices: the round's e-mails, sent in the request when no broker is set (queued otherwise).
PARTS = (
    ("standings", "events.services.rounds.pairing_states"),
    ("engine", "events.pairing.pair_round"),
    ("rolls", "events.services.rounds._game"),
    ("inserts", "missions.services._store_batch"),
    ("inserts", "events.services.rounds.insert_objects"),
    ("commit", "django.db.backends.base.base.BaseDatabaseWrapper.commit"),
    ("answer", "events.api.rounds.round_response"),
    ("notices", "notices.services.send"),
)
# Without a broker the event page's sections are built as the response closes, once a server
# has sent it (the test client closes before it returns): timed apart, not counted in the call.
WARM_UP = "events.views.event_sections.warm"


def build_event(n_players: int, seed: int):
    from django.contrib.auth import get_user_model

    from armylists.models import Chart
    from events.audit import SYSTEM
    from events.models import Player
    from events.services import tournaments
    from missions.models import Level

    staff = get_user_model().objects.create_user("bench-staff", is_staff=True)
    tournament = tournaments.create_tournament(
        SYSTEM, name=f"Bench {n_players}", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="gamma"), rounds=PLAYED_ROUNDS + 1,
        on_six="special", missions="per_table", seed=seed, faction_weight="avoid",
    )
    rng = random.Random(seed)
    Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {i}", club=f"club{rng.randrange(n_players // 4)}",
               faction=f"faction{rng.randrange(20)}") for i in range(n_players))
    tournaments.transition(SYSTEM, tournament, "registration_open")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    return tournament, staff


def play_rounds(tournament, rounds: int, seed: int) -> None:
    from events.audit import SYSTEM
    from events.models import Game
    from events.services import rounds as round_services

    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = round_services.pair_next_round(SYSTEM, tournament)
        games = list(round_.games.filter(status=Game.Status.PENDING))
        for game in games:
            a, b = game.player_a_id, game.player_b_id
            game.winner_id = rng.choice([a, b, None])
            game.victory_points = {str(a): rng.randrange(2000), str(b): rng.randrange(2000)}
            game.status = Game.Status.CONFIRMED
        Game.objects.bulk_update(games, ["winner", "victory_points", "status"], batch_size=500)
        round_services.complete_if_done(round_)


def engine_seconds(tournament) -> float:
    from events import pairing
    from events.services.rounds import active_players, pairing_settings
    from events.services.standings import pairing_states

    states, _numbers = pairing_states(tournament, active_players(tournament))
    start = time.perf_counter()
    pairing.pair_round(states, pairing_settings(tournament, PLAYED_ROUNDS + 1))
    return time.perf_counter() - start


def _timer(spent: dict[str, float], label: str, function: Callable) -> Callable:
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - start
    return timed


def api_call(tournament, staff) -> tuple[float, int, int, dict[str, float]]:
    """(seconds, queries, games, seconds per part) of one committed POST rounds/."""
    import pkgutil

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(staff)
    spent: dict[str, float] = defaultdict(float)
    with ExitStack() as stack:
        for label, target in PARTS:
            original = pkgutil.resolve_name(target)
            stack.enter_context(mock.patch(target, _timer(spent, label, original)))
        queries = stack.enter_context(CaptureQueriesContext(connection))
        warm_up = {"seconds": 0.0, "queries": 0}
        stack.enter_context(mock.patch(WARM_UP, _apart(warm_up, pkgutil.resolve_name(WARM_UP))))
        start = time.perf_counter()
        response = client.post(f"/api/v1/tournaments/{tournament.slug}/rounds/", {},
                               content_type="application/json")
        seconds = time.perf_counter() - start - warm_up["seconds"]
    assert response.status_code == 201, response.content[:500]
    games = len(response.json()["games"])
    tournament.round_set.filter(number=PLAYED_ROUNDS + 1).delete()
    spent["warm-up after the response"] = warm_up["seconds"]
    return seconds, len(queries) - warm_up["queries"], games, spent


def _apart(measured: dict[str, float], function: Callable) -> Callable:
    """``function`` timed, and its queries counted, to leave them out of the call's figures."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def timed(*args, **kwargs):
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            try:
                return function(*args, **kwargs)
            finally:
                measured["seconds"] += time.perf_counter() - start
                measured["queries"] += len(queries)
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5, help="timed calls (median reported)")
    args = parser.parse_args()
    os.environ.setdefault("MUSTER_DATA_DIR", tempfile.mkdtemp(prefix="muster-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    tournament, staff = build_event(args.players, args.seed)
    start = time.perf_counter()
    play_rounds(tournament, PLAYED_ROUNDS, args.seed)
    setup = time.perf_counter() - start
    print(f"{args.players} players on {connection.vendor}; rounds 1-{PLAYED_ROUNDS} paired and "
          f"played through the services in {setup:.1f} s")
    engine = engine_seconds(tournament)
    calls = [api_call(tournament, staff) for _ in range(args.repeats)]
    seconds = [c[0] for c in calls]
    median = statistics.median(seconds)
    middle, n_queries, n_games, parts = min(calls, key=lambda c: abs(c[0] - median))
    print(f"POST rounds/ (round {PLAYED_ROUNDS + 1}, missions per table, pre-game rolls, writes), "
          f"{args.repeats} calls: median {median * 1000:.0f} ms, best {min(seconds) * 1000:.0f} ms "
          f"(goal <= {GOAL_MS} ms on PostgreSQL); {n_queries} queries, {n_games} games")
    print(f"pure engine on the same state (baseline): {engine * 1000:.0f} ms; "
          f"API / engine: {median / engine:.1f}x")
    after = parts.pop("warm-up after the response", 0.0)
    rest = middle - sum(parts.values())
    print(f"median call ({middle * 1000:.0f} ms): " + ", ".join(f"{label} {ms * 1000:.0f} ms" for label, ms in
                                       [*parts.items(), ("rest", rest)]))
    print(f"then, once the response is sent: warm-up of the event page {after * 1000:.0f} ms")


if __name__ == "__main__":
    main()
