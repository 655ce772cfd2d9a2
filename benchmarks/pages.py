"""The public event page and the standings API of a 1,024-player event after round 6, served by
gunicorn (2 workers) with Redis as the cache (goals: each >= 100 requests/s, the page's
p95 <= 50 ms).

Run from the repository root: ``python benchmarks/pages.py``. Needs PostgreSQL and Redis on
127.0.0.1. Builds the event once through the services (``benchmarks/pairing_api.py``) in the
database ``muster_bench_pages`` (``--fresh`` rebuilds it) and empties Redis database 3 before
each server starts. The baseline comes from the same run: the same server with Django's dummy
cache (nothing is ever cached, so every request computes the standings and renders), and the
first request after the cache was emptied. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serving  # noqa: E402
from benchmarks.pairing_api import build_event, play_rounds  # noqa: E402

ROUNDS = 6
NAME = "Pages bench"
GOAL_RATE = 100
GOAL_P95_MS = 50


def event_slug(players: int, seed: int) -> str:
    """The slug of the event after round 6, built unless this database has it already."""
    from events.models import Round, Tournament

    name = f"{NAME} {players}"
    found = Tournament.objects.filter(name=name).first()
    done = found is not None and found.round_set.filter(
        status=Round.Status.COMPLETED).count() == ROUNDS
    if done:
        return found.slug
    if found is not None:
        raise SystemExit(f"{name} is half built: run again with --fresh")
    start = time.perf_counter()
    tournament, _staff = build_event(players, seed)
    Tournament.objects.filter(pk=tournament.pk).update(name=name, rounds=ROUNDS)
    tournament.refresh_from_db()
    play_rounds(tournament, ROUNDS, seed)
    print(f"built {players} players, rounds 1-{ROUNDS} paired and played through the services "
          f"in {time.perf_counter() - start:.0f} s")
    return tournament.slug


def targets(slug: str) -> dict[str, list[serving.Call]]:
    """Per target, the requests it cycles through."""
    page = f"/tournaments/{slug}/"
    english, french = {"Accept-Language": "en"}, {"Accept-Language": "fr"}
    return {
        "event page": [serving.Call("GET", page, english)],
        "standings API": [serving.Call("GET", f"/api/v1/tournaments/{slug}/standings/", english)],
        # What else visitors open: French, other pages and rounds, a search (never cached).
        "event page, mixed views": [
            serving.Call("GET", page, french),
            serving.Call("GET", f"{page}?standings_page=2", english),
            serving.Call("GET", f"{page}?round=3&tables_page=4", english),
            serving.Call("GET", f"{page}?players_page=7", french),
            serving.Call("GET", f"{page}?q=player%2042", english),
        ],
    }


def measure(env: dict[str, str], calls: dict[str, list[serving.Call]], requests: int,
            concurrency: int, flush) -> dict[str, tuple[float, serving.Summary]]:
    """Per target: the first request's milliseconds after ``flush`` (the cache emptied), then
    the load's summary (``requests`` requests cycling through the target's calls)."""
    figures = {}
    with serving.Server(env, workers=2, ready_path="/api/v1/") as server:
        for label, cycle in calls.items():
            flush()
            start = time.perf_counter()
            status, _body = serving.request(server.port, cycle[0])
            first = (time.perf_counter() - start) * 1000
            if status != 200:
                raise SystemExit(f"{label}: status {status}\n{server.output()}")
            load = [cycle[i % len(cycle)] for i in range(requests)]
            figures[label] = first, serving.run_load(server.port, load, concurrency)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--requests", type=int, default=600, help="per target, cached")
    parser.add_argument("--baseline-requests", type=int, default=30, help="per target, uncached")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--database", default="muster_bench_pages")
    parser.add_argument("--redis", default=f"{serving.REDIS}/3")
    parser.add_argument("--fresh", action="store_true", help="rebuild the event")
    parser.add_argument("--no-migrate", action="store_true", help="the database is migrated")
    args = parser.parse_args()

    url = serving.database(args.database, fresh=args.fresh)
    serving.setup_django(url, args.redis, migrate=not args.no_migrate)
    calls = targets(event_slug(args.players, args.seed))
    print(f"{args.players} players after round {ROUNDS}; gunicorn, 2 workers; "
          f"{args.concurrency} concurrent connections")

    def flush() -> None:
        serving.flush_redis(args.redis)

    baseline = measure(serving.server_env(url, "dummycache://"), calls,
                       args.baseline_requests, args.concurrency, flush)
    cached = measure(serving.server_env(url, args.redis), calls, args.requests,
                     args.concurrency, flush)
    for label in calls:
        first, summary = cached[label]
        _first, uncached = baseline[label]
        goal = {"event page": f"goal >= {GOAL_RATE}/s, p95 <= {GOAL_P95_MS} ms",
                "standings API": f"goal >= {GOAL_RATE}/s"}.get(label, "no goal of its own")
        print(f"{label} ({goal})")
        print(f"  cached (Redis): {summary.line()}")
        print(f"  baseline, nothing cached: {uncached.line()}")
        print(f"  first request after the cache was emptied: {first:.0f} ms")


if __name__ == "__main__":
    main()
