"""A round's end at a 1,024-player event: 500 reports, then 500 confirmations, in a burst
through gunicorn (goal: p95 <= 250 ms per request on the README's stack, no errors).

Run from the repository root: ``python benchmarks/round_end.py`` (PostgreSQL on 127.0.0.1,
database ``muster_bench_round_end``, rebuilt on every run since a burst uses the round up;
Redis database 4 as the cache and the broker unless ``--broker``, emptied). Builds a 64-player
event (the baseline) and a 1,024-player one (``--repeat N``: N of them, one burst each), plays
rounds 1-5 through the services and publishes round 6 (benchmarks/pairing_api.py), gives every
player an account with an e-mail address and an API token, starts gunicorn with 3 sync workers
(deploy/gunicorn.conf.py's default; benchmarks/serving.py) and fires, from ``--concurrency``
clients, player A's report of each game (``POST /api/v1/games/{id}/report/``), then player B's
confirmation. Prints p50/p95, errors and throughput of each burst next to the goal, the
64-player event's burst as the baseline, and one report's and one confirmation's queries at
both sizes.

The notices are queued in the broker as a production server does. ``--celery-worker`` runs the
README's worker beside gunicorn on the same machine (``celery -A config worker``: prefork, one
child per core), which sends the opponent's e-mail of each report while the burst goes on,
through Django's in-memory backend (``--email locmem``) or over SMTP to a server of this
process that keeps nothing (``--email smtp``: EMAIL_URL, as in production); each burst then
waits for the worker to finish. Without it nothing consumes the queue (emptied afterwards);
``--eager`` sends the e-mails in the request, as the embedded default does. Besides latency,
which the machine's other work changes, it prints the CPU time spent per request by the
gunicorn workers, the Celery worker (main process and pool) and the PostgreSQL backends of each
(told apart by their ``application_name``), and the worker's per notice task. Prints figures;
asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import serving  # noqa: E402
from benchmarks.pairing_api import PLAYED_ROUNDS, build_event, play_rounds  # noqa: E402

GOAL_P95_MS = 250
BASELINE_PLAYERS = 64
# The application_name each side connects to PostgreSQL with: their backends' CPU apart.
WEB_APP = "muster-bench-web"
WORKER_APP = "muster-bench-worker"


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
    # Every player has an address: the opponent's notice of a report is written and sent.
    users = User.objects.bulk_create(User(username=f"bench-{p.pk}", email=f"bench-{p.pk}@example.org")
                                     for p in players)
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


def cpu_seconds(pids: Sequence[int]) -> dict[int, float]:
    """User and system CPU time each of the processes ``pids`` has used (Linux /proc; none
    elsewhere), in seconds."""
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return found


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two readings (a process started meanwhile: all of its own)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def backends(application: str) -> list[int]:
    """The PostgreSQL backends of the processes connected as ``application`` (the web nodes and
    the worker connect under their own ``application_name``; their connections are kept)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND application_name = %s", [application])
        return [pid for (pid,) in cursor.fetchall()]


def server_pids(server: serving.Server) -> list[int]:
    """The gunicorn workers."""
    master = server.process.pid if server.process else 0
    try:
        return [int(pid) for pid in
                Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def drained(timeout: float = 600) -> float:
    """Wait until the worker has run every notice task queued (each removes its outbox row);
    the seconds waited."""
    from notices.models import QueuedNotice

    start = time.perf_counter()
    while QueuedNotice.objects.exists():
        if time.perf_counter() - start > timeout:
            raise RuntimeError(f"notices still queued after {timeout} s")
        time.sleep(0.05)
    return time.perf_counter() - start


def notice_tasks() -> int:
    """Notice tasks queued so far: the outbox rows' sequence (the worker deletes the rows)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(last_value, 0) FROM pg_sequences WHERE sequencename = %s",
                       ["notices_queuednotice_id_seq"])
        row = cursor.fetchone()
    return row[0] if row else 0


def sessions() -> int:
    """Connections made to this database so far (PostgreSQL's statistics, flushed within a
    second or so): a backend that lived for one task has its CPU time counted nowhere else."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


@dataclass(frozen=True)
class Stack:
    """What serves the burst: gunicorn, and the Celery worker when one runs."""

    server: serving.Server
    worker: serving.CeleryWorker | None

    def groups(self) -> dict[str, list[int]]:
        found = {"gunicorn": server_pids(self.server), "PostgreSQL (web)": backends(WEB_APP)}
        if self.worker is not None:
            found["Celery worker"] = self.worker.pids()
            found["PostgreSQL (worker)"] = backends(WORKER_APP)
        return found


def burst(stack: Stack, label: str, tables: Sequence[Table], concurrency: int) -> None:
    """Reports, then confirmations; latency, and the CPU the server, the worker (until it has
    sent every notice the burst queued) and the database spent per request, which the other
    work on the machine does not change (latency it does)."""
    from notices.models import Notice

    for kind, make in (("reports", report_call), ("confirmations", confirm_call)):
        before = {name: cpu_seconds(group) for name, group in stack.groups().items()}
        first_task, connected = notice_tasks(), sessions()
        sent = Notice.objects.filter(status=Notice.Status.SENT).count()
        figures = serving.run_load(stack.server.port, [make(t) for t in tables], concurrency,
                                   ok=lambda status: status == 200)
        tasks = notice_tasks() - first_task
        wait = drained() if stack.worker is not None else 0.0
        time.sleep(1.5)  # the statistics of the last connections closed
        connected = sessions() - connected
        cpu = {name: spent(before[name], cpu_seconds(group)) * 1000 / len(tables)
               for name, group in stack.groups().items()}
        print(f"  {label:<22} {len(tables):>3} {kind:<13} {figures.line()}")
        print(f"  {'':<26} CPU per request: "
              + ", ".join(f"{name} {ms:.1f} ms" for name, ms in cpu.items())
              + f"; total {sum(cpu.values()):.1f} ms; {connected} PostgreSQL connections made")
        if stack.worker is not None:
            sent = Notice.objects.filter(status=Notice.Status.SENT).count() - sent
            worker_ms = cpu["Celery worker"] + cpu["PostgreSQL (worker)"]
            per_task = f"{worker_ms * len(tables) / tasks:.1f} ms per task" if tasks else "no task"
            print(f"  {'':<26} {tasks} notice tasks, {sent} e-mails sent, the last "
                  f"{wait:.1f} s after the burst; worker and its PostgreSQL: {per_task}")
        if figures.errors:
            print(f"    statuses: {dict(figures.statuses)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--games", type=int, default=500, help="reports (and confirmations) fired")
    parser.add_argument("--concurrency", type=int, default=16, help="clients at once")
    parser.add_argument("--workers", type=int, default=3,
                        help="gunicorn sync workers (3: deploy/gunicorn.conf.py's default)")
    parser.add_argument("--celery-worker", action="store_true",
                        help="a live Celery worker sends the notices the bursts queue")
    parser.add_argument("--worker-nice", type=int, default=0, metavar="N",
                        help="run the Celery worker under nice -n N (web requests first)")
    parser.add_argument("--email", choices=("locmem", "smtp"), default="locmem",
                        help="locmem: kept in memory; smtp: sent to an SMTP server of this "
                             "process that keeps nothing (EMAIL_URL, as in production)")
    parser.add_argument("--repeat", type=int, default=1, help="bursts on as many large events")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--database", default="muster_bench_round_end")
    parser.add_argument("--redis", default=f"{serving.REDIS}/4", help="the cache")
    parser.add_argument("--broker", default="", help="the broker (default: the cache's Redis)")
    parser.add_argument("--eager", action="store_true",
                        help="send the notices in the request (no broker, the embedded default)")
    parser.add_argument("--no-migrate", action="store_true", help="the database is migrated")
    args = parser.parse_args()
    if args.eager and args.celery_worker:
        parser.error("--eager sends the notices in the request: no worker to run")
    url = serving.database(args.database, fresh=True)
    broker = args.broker or args.redis
    # Connections kept through the run (60 s by default): a backend replaced during a burst
    # would take its CPU time away with it.
    extra = {"MUSTER_RATE_LIMITS": "off", "DEBUG": "false", "CONN_MAX_AGE": "600",
             "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if not args.eager:
        extra["CELERY_BROKER_URL"] = broker  # queued, as a production server does
    os.environ.update(extra)
    serving.setup_django(url, args.redis, migrate=not args.no_migrate)
    for redis_url in {args.redis, broker}:
        serving.flush_redis(redis_url)
    from django.db import connection

    start = time.perf_counter()
    small = build_round(BASELINE_PLAYERS, args.seed)
    large = [build_round(args.players, args.seed + n) for n in range(args.repeat)]
    print(f"{BASELINE_PLAYERS} and {args.players} players (x{args.repeat}) on "
          f"{connection.vendor}, round {PLAYED_ROUNDS + 1} published "
          f"({time.perf_counter() - start:.1f} s to build)")
    # One report and its confirmation per event, in-process: the queries must not grow.
    counts = [f"{queries_of(report_call(t[0]))} / {queries_of(confirm_call(t[0]))}"
              for t in (small, large[0])]
    print(f"queries per report / confirmation: {counts[0]} at {BASELINE_PLAYERS} players, "
          f"{counts[1]} at {args.players}")
    warm, small = small[1:5], small[5:]
    large = [tables[1:args.games + 1] for tables in large]
    if not args.eager:
        # The rounds' publication notices (1,000 e-mails: sent hours before a round ends) and
        # the queries' reports are no part of the burst: neither queued nor kept.
        from notices.models import QueuedNotice

        QueuedNotice.objects.all().delete()
        serving.flush_redis(broker)
    connection.close()

    with ExitStack() as running:
        if args.email == "smtp":
            extra["EMAIL_URL"] = running.enter_context(serving.MailSink()).url
        env = serving.server_env(f"{url}?application_name={WEB_APP}", args.redis, **extra)
        # The README's web node: deploy/gunicorn.conf.py (its access log included).
        server = running.enter_context(serving.Server(
            env, workers=args.workers, ready_path="/api/v1/",
            extra_args=["--config", "deploy/gunicorn.conf.py"]))
        worker = None
        if args.celery_worker:
            worker = running.enter_context(serving.CeleryWorker(
                {**env, "DATABASE_URL": f"{url}?application_name={WORKER_APP}"},
                nice=args.worker_nice))
        stack = Stack(server, worker)
        # Each worker's first requests import and connect: warm them on a few baseline tables
        # (and the Celery worker on their notices).
        for make in (report_call, confirm_call):
            serving.run_load(server.port, [make(t) for t in warm], args.workers)
        if worker is not None:
            drained()
        nice = f", nice {args.worker_nice}" if args.worker_nice else ""
        notices = ("notices sent in the request" if args.eager else
                   f"notices sent by a Celery worker ({args.email} e-mail{nice})" if worker else
                   "notices queued in Redis (no worker)")
        print(f"gunicorn with {args.workers} sync workers, {args.concurrency} clients at once, "
              f"{notices} (goal: p95 <= {GOAL_P95_MS} ms, 0 errors)")
        burst(stack, f"{BASELINE_PLAYERS} players (baseline)", small, args.concurrency)
        for n, tables in enumerate(large, 1):
            burst(stack, f"{args.players} players" + (f" #{n}" if args.repeat > 1 else ""),
                  tables, args.concurrency)
    for redis_url in {args.redis, broker}:
        serving.flush_redis(redis_url)


if __name__ == "__main__":
    main()
