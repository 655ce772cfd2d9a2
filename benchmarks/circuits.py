"""Benchmark: a circuit of 5,000 events, 100,000 people and 1,000,000 games recomputed with
placement points (goal <= 10 s), Elo and Glicko-2 (goals <= 30 s each, one worker), and with
``--db`` the standings page and a breakdown served from the stored rows (goal p95 <= 50 ms).

Run from the repository root: ``python benchmarks/circuits.py`` (the engine and the breakdown
lines, no database), ``--scale 0.1`` for a tenth of the size. ``--db`` also stores the circuit
in the database of DATABASE_URL (PostgreSQL: e.g. postgres://postgres@127.0.0.1:5432/muster_circuits,
migrated), times the whole recompute (gather, engine, store) and 200 reads of the first page,
a searched page and breakdowns through Django's test client. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EVENTS, PEOPLE, GAMES = 5_000, 100_000, 1_000_000
GOALS = {"placement": 10.0, "elo": 30.0, "glicko2": 30.0}
GOAL_P95_MS = 50
FIRST_DAY = date(2025, 1, 1)


def synthetic(scale: float, seed: int = 25):
    """Events of 100 people from the crowd, 4 rounds each (200 games), dates over a year."""
    from circuits.engine import EventInput

    rng = random.Random(seed)
    events_n, people_n = max(1, int(EVENTS * scale)), max(200, int(PEOPLE * scale))
    per_event = GAMES // EVENTS  # 200 games: 100 people, 4 rounds
    events = []
    for n in range(events_n):
        people = rng.sample(range(people_n), 100)
        games = []
        for rnd in range(1, per_event // 50 + 1):
            rng.shuffle(people)
            for table in range(50):
                a, b = people[2 * table], people[2 * table + 1]
                roll = rng.random()
                games.append((rnd, table + 1, a, b, a if roll < 0.45 else b if roll < 0.9 else None,
                              roll > 0.995))
        placings = tuple((p, place) for place, p in enumerate(people, start=1))
        day = FIRST_DAY + timedelta(days=rng.randrange(365))
        events.append(EventInput((day, f"event {n}"), f"event {n}", day, 4, 100, 1.0, placings,
                                 tuple(games)))
    return events, list(range(people_n))


def engine_figures(scale: float) -> None:
    from circuits import engine
    from circuits.breakdown import Inputs, lines
    from config.gc_pause import gc_paused

    events, people = synthetic(scale)
    games = sum(len(e.games) for e in events)
    print(f"{len(events)} events, {len(people)} people, {games} games (scale {scale:g})")
    meta = {p: (f"player {p}", f"player {p}", f"Player {p}") for p in people}
    inputs = Inputs(tuple(events), {}, meta, {p: p for p in people})
    as_of = FIRST_DAY + timedelta(days=400)
    for method, raw in (("placement", {"decay_days": 90, "best_n": 5}), ("elo", {}), ("glicko2", {})):
        settings = engine.settings_from(method, raw)
        # CPU seconds of this process: the machine may be shared, the worker's core is not.
        start, wall = time.process_time(), time.perf_counter()
        with gc_paused():  # as circuits.services.compute runs it
            outcome = engine.compute(settings, events, people, {}, as_of=as_of)
            middle = time.process_time()
            built = sum(1 for _ in lines(inputs, outcome))
        end = time.process_time()
        goal = GOALS[method] * (scale if scale < 1 else 1)
        print(f"  {method:9s} engine {middle - start:6.2f} s + breakdown lines {end - middle:5.2f} s "
              f"= {end - start:6.2f} s CPU ({time.perf_counter() - wall:.2f} s wall) for {built} people "
              f"(goal <= {goal:g} s at this scale); leader {outcome.rows[0].value:.2f}")


def database_figures(scale: float, reads_only: bool = False) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.test import Client

    from circuits.models import Circuit, ExternalResult, Person
    from circuits.services import compute

    events, people = synthetic(scale)
    slug = f"bench-{scale:g}".replace(".", "-")
    circuit = Circuit.objects.filter(slug=slug).first()
    if circuit is None:  # the inputs are stored once; each method recomputes from them
        start = time.perf_counter()
        circuit = Circuit.objects.create(slug=slug, name=slug, method="elo", settings={})
        Person.objects.bulk_create([Person(circuit=circuit, key=f"player {p}", norm=f"player {p}",
                                           name=f"Player {p}") for p in people], batch_size=5000)
        pk = dict(Person.objects.filter(circuit=circuit).values_list("norm", "pk"))
        ids = [pk[f"player {p}"] for p in people]
        ExternalResult.objects.bulk_create([
            ExternalResult(circuit=circuit, name=e.name, date=e.day, rounds=e.rounds, players=e.players,
                           placings=[[ids[p], place] for p, place in e.placings],
                           games=[[r, t, ids[a], ids[b], None if w is None else ids[w], f]
                                  for r, t, a, b, w, f in e.games],
                           size=len(e.placings) + len(e.games)) for e in events], batch_size=200)
        print(f"  stored the inputs in {time.perf_counter() - start:.0f} s")
    for method in ("placement", "elo", "glicko2"):
        Circuit.objects.filter(pk=circuit.pk).update(
            method=method, settings=compute.engine.settings_from(method, {}).as_json())
        start, cpu = time.perf_counter(), time.process_time()
        if reads_only and method != "elo":
            continue
        if not reads_only:
            compute.compute_and_store(circuit.pk)
            print(f"  {method:9s} whole recompute (gather, engine, store) {time.perf_counter() - start:6.2f} s "
                  f"wall, {time.process_time() - cpu:6.2f} s CPU of this process "
                  f"(goal <= {GOALS[method]:g} s at full size; load average {os.getloadavg()[0]:.1f})")
        client = Client()
        for label, path in (
            ("standings page 1", f"/api/v1/circuits/{slug}/standings/?page=1"),
            # A distinctive fragment, as people type it: every synthetic key shares "player ",
            # whose trigrams match all 100,000 rows (real names are far more varied).
            ("searched page", f"/api/v1/circuits/{slug}/standings/?search=4242"),
            ("the HTML page", f"/circuits/{slug}/"),
            ("a breakdown", f"/api/v1/circuits/{slug}/players/player 4242/"),
        ):
            times, cpus = [], []
            for _ in range(200):
                t0, c0 = time.perf_counter(), time.process_time()
                assert client.get(path).status_code == 200
                times.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            p95 = statistics.quantiles(times, n=20)[-1]
            print(f"    {label:17s} median {statistics.median(times) * 1e3:5.1f} ms, "
                  f"p95 {p95 * 1e3:5.1f} ms wall, CPU median {statistics.median(cpus) * 1e3:5.1f} ms "
                  f"(goal p95 <= {GOAL_P95_MS} ms)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--db", action="store_true")
    parser.add_argument("--reads-only", action="store_true", help="with --db: no recompute, Elo's stored rows")
    args = parser.parse_args()
    if args.db:
        database_figures(args.scale, args.reads_only)
    else:
        engine_figures(args.scale)


if __name__ == "__main__":
    main()
