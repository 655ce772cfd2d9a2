"""A round's end at a 1,024-player event: 500 reports, then 500 confirmations, in a burst
through gunicorn (goal: p95 <= 200 ms per request, no errors).

Run from the repository root: ``python benchmarks/round_end.py`` (PostgreSQL on 127.0.0.1,
database ``muster_bench_round_end``, rebuilt on every run since a burst uses the round up;
Redis database 4 as the cache, emptied). Builds a 64-player event (the baseline) and a
1,024-player one, plays rounds 1-5 through the services and publishes round 6
(benchmarks/pairing_api.py), gives every player an account and an API token, starts gunicorn
with 2 sync workers (benchmarks/serving.py) and fires, from ``--concurrency`` clients, player
A's report of each game (``POST /api/v1/games/{id}/report/``), then player B's confirmation.
Prints p50/p95, errors and throughput of each burst next to the goal, the 64-player event's
burst as the baseline, and one report's and one confirmation's queries at both sizes.
The notices are queued in Redis database 4 as a production server does (no worker runs; the
queue is emptied afterwards); ``--eager`` sends them in the request, as the embedded default
does. Besides latency, which the machine's other work changes, it prints the CPU time the
gunicorn workers and their PostgreSQL backends spent per request. Prints figures; asserts
nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import serving  # noqa: E402
from benchmarks.pairing_api import PLAYED_ROUNDS, build_event, play_rounds  # noqa: E402

GOAL_P95_MS = 200
BASELINE_PLAYERS = 64


@dataclass(frozen=True)
class Table:
    """A game of the published round and its players' API tokens."""

    game: int
    a: int
    b: int
    token_a: str
    token_b: str


def build_round(n_players: int, seed: int) -> list[Table]:
    """An event of ``n_players`` with accounts and tokens, rounds 1-5 played, round 6 published."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from events.audit import SYSTEM
    from events.models import Player
    from events.services import rounds

    tournament, staff = build_event(n_players, seed)
    staff.username = f"bench-staff-{tournament.pk}"  # build_event names every staff alike
    staff.save(update_fields=["username"])
    User = get_user_model()
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    users = User.objects.bulk_create(User(username=f"bench-{p.pk}") for p in players)
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in users)
    for player, user in zip(players, users, strict=True):
        player.user = user
    Player.objects.bulk_update(players, ["user"], batch_size=500)
    key_of = {player.pk: token.key for player, token in zip(players, tokens, strict=True)}
    play_rounds(tournament, PLAYED_ROUNDS, seed)
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    games = round_.games.filter(player_b__isnull=False).order_by("table")
    return [Table(g.pk, g.player_a_id, g.player_b_id, key_of[g.player_a_id], key_of[g.player_b_id])
            for g in games]


def _post(path: str, token: str, body: dict) -> serving.Call:
    return serving.Call("POST", path, {"Authorization": f"Token {token}",
                                       "Content-Type": "application/json"},
                        json.dumps(body).encode())


def report_call(table: Table) -> serving.Call:
    body = {"result": {"winner": table.a},
            "victory_points": {str(table.a): 1200, str(table.b): 800}, "stratagems": {}}
    return _post(f"/api/v1/games/{table.game}/report/", table.token_a, body)


def confirm_call(table: Table) -> serving.Call:
    return _post(f"/api/v1/games/{table.game}/confirm/", table.token_b, {})


def queries_of(call: serving.Call) -> int:
    """The queries one request makes, in this process (Django's test client)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = Client().generic(call.method, call.path, call.body,
                                    content_type="application/json", HTTP_HOST="127.0.0.1",
                                    HTTP_AUTHORIZATION=call.headers["Authorization"])
    if response.status_code != 200:
        raise RuntimeError(f"{call.path}: {response.status_code} {response.content[:300]!r}")
    return len(queries)


def cpu_seconds(pids: Sequence[int]) -> float:
    """User and system CPU time the processes ``pids`` have used (Linux /proc; 0 elsewhere)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def server_pids(server: serving.Server) -> tuple[list[int], list[int]]:
    """The gunicorn workers and the PostgreSQL backends serving them (their connections are
    kept between requests)."""
    from django.db import connection

    master = server.process.pid if server.process else 0
    try:
        workers = [int(pid) for pid in
                   Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        workers = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()")
        backends = [pid for (pid,) in cursor.fetchall()]
    return workers, backends


def burst(server: serving.Server, label: str, tables: Sequence[Table], concurrency: int) -> None:
    """Reports, then confirmations; latency, and the CPU the server and the database spent per
    request, which the other work on the machine does not change (latency it does)."""
    workers, backends = server_pids(server)
    for kind, make in (("reports", report_call), ("confirmations", confirm_call)):
        before = cpu_seconds(workers), cpu_seconds(backends)
        figures = serving.run_load(server.port, [make(t) for t in tables], concurrency,
                                   ok=lambda status: status == 200)
        web, database = ((cpu_seconds(pids) - start) * 1000 / len(tables)
                         for pids, start in zip((workers, backends), before, strict=True))
        print(f"  {label:<22} {len(tables):>3} {kind:<13} {figures.line()}")
        print(f"  {'':<26} CPU per request: gunicorn {web:.1f} ms, PostgreSQL {database:.1f} ms")
        if figures.errors:
            print(f"    statuses: {dict(figures.statuses)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--games", type=int, default=500, help="reports (and confirmations) fired")
    parser.add_argument("--concurrency", type=int, default=16, help="clients at once")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--database", default="muster_bench_round_end")
    parser.add_argument("--redis", default=f"{serving.REDIS}/4")
    parser.add_argument("--eager", action="store_true",
                        help="send the notices in the request (no broker, the embedded default)")
    parser.add_argument("--no-migrate", action="store_true", help="the database is migrated")
    args = parser.parse_args()
    url = serving.database(args.database, fresh=True)
    extra = {"MUSTER_RATE_LIMITS": "off", "DEBUG": "false"}
    if not args.eager:
        extra["CELERY_BROKER_URL"] = args.redis  # queued, as a production server does
    os.environ.update(extra)
    serving.setup_django(url, args.redis, migrate=not args.no_migrate)
    serving.flush_redis(args.redis)
    from django.db import connection

    start = time.perf_counter()
    small = build_round(BASELINE_PLAYERS, args.seed)
    large = build_round(args.players, args.seed)
    print(f"{BASELINE_PLAYERS} and {args.players} players on {connection.vendor}, round "
          f"{PLAYED_ROUNDS + 1} published ({time.perf_counter() - start:.1f} s to build)")
    # One report and its confirmation per event, in-process: the queries must not grow.
    counts = [f"{queries_of(report_call(t[0]))} / {queries_of(confirm_call(t[0]))}"
              for t in (small, large)]
    print(f"queries per report / confirmation: {counts[0]} at {BASELINE_PLAYERS} players, "
          f"{counts[1]} at {args.players}")
    warm, small, large = small[1:5], small[5:], large[1:args.games + 1]
    connection.close()

    env = serving.server_env(url, args.redis, **extra)
    with serving.Server(env, workers=args.workers, ready_path="/api/v1/") as server:
        # Each worker's first requests import and connect: warm them on a few baseline tables.
        for make in (report_call, confirm_call):
            serving.run_load(server.port, [make(t) for t in warm], args.workers)
        notices = "notices sent in the request" if args.eager else "notices queued in Redis"
        print(f"gunicorn with {args.workers} sync workers, {args.concurrency} clients at once, "
              f"{notices} (goal: p95 <= {GOAL_P95_MS} ms, 0 errors)")
        burst(server, f"{BASELINE_PLAYERS} players (baseline)", small, args.concurrency)
        burst(server, f"{args.players} players", large, args.concurrency)
    serving.flush_redis(args.redis)


if __name__ == "__main__":
    main()
