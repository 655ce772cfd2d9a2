"""Mission pack of a 500-table round (goal: <= 2 s with one worker process, <= 250 MiB peak RSS).

Run from the repository root: ``python benchmarks/packs.py [--tables N] [--no-baseline] [--naive]``.
Uses a throw-away SQLite database and media directory unless DATABASE_URL is set (then it must
point to an empty database you can lose). Builds a 2N-player event (1,000 players by default,
missions rolled per table at omega: the most distinct forms), pairs round 1 through the
services, then in one fresh spawned worker process with Django loaded (as a Celery worker is
after its first pack, so its peak RSS is its own) it gathers the pack's data and renders it:
  1. forms laid out once by WeasyPrint, per-table texts drawn into their slots (the goal),
     ``--repeat`` times in the same worker;
  2. the previous renderer, per-table texts laid out by WeasyPrint in chunks and merged with
     pypdf (the baseline, same run; skip with ``--no-baseline``);
  3. with ``--naive``, the whole pack as one WeasyPrint document.
Prints wall and CPU seconds, pages, file size and peak RSS next to the goals; asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOAL_SECONDS = 2
GOAL_RSS_MIB = 250


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_worker(barrier) -> None:
    """A worker as Celery would have it after its first pack: Django, WeasyPrint's stylesheet
    and the pack fonts loaded."""
    import logging

    setup_django()
    logging.disable(logging.WARNING)  # WeasyPrint's notes on fonts, once per document
    from printing.fonts import FontsUnavailable, face
    from printing.render import _style

    _style()
    with contextlib.suppress(FontsUnavailable):  # then the packs fall back to WeasyPrint
        face(False, False), face(True, False)
    barrier.wait()


def build_measured(round_id: int, renderer: str) -> dict:
    """Gather round ``round_id``'s pack and render it with ``renderer``, as the task does
    (into memory instead of a file); what it took, in this worker."""
    from config.gc_pause import young_objects_only
    from events.models import Round
    from printing.render import render_job, render_pack, render_pack_weasyprint, whole_document
    from printing.services.mission_pack import pack_content

    wall, cpu = time.perf_counter(), cpu_seconds()
    with young_objects_only():  # as the task runs
        content = pack_content(Round.objects.select_related(
            "tournament__level", "tournament__game_system", "mission").get(pk=round_id))
        gathered = time.perf_counter() - wall
        out = io.BytesIO()
        if renderer == "slots":
            pages = render_pack(content, out)
        elif renderer == "weasyprint":
            pages = render_pack_weasyprint(content, out)
        else:
            out.write(render_job(whole_document(content)))
            pages = 2 + len(content.sheets)  # about: the naive document is not read back
    return {"seconds": time.perf_counter() - wall, "gather": gathered,
            "cpu": cpu_seconds() - cpu, "pages": pages, "bytes": out.tell(),
            "rss": peak_rss_mib(), "pid": os.getpid()}


def build_round(players: int, seed: int):
    from armylists.models import Chart
    from events.audit import SYSTEM
    from events.models import Player
    from events.services import rounds, tournaments
    from missions.models import Level

    tournament = tournaments.create_tournament(
        SYSTEM, name=f"Bench pack {players}", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="omega"), rounds=5, seed=seed,
        on_six="special", missions="per_table", language="en",
    )
    Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {i:04d} Longname-Example",
               club=f"Club {i % 97}", faction=f"Faction {i % 13}") for i in range(players))
    tournaments.transition(SYSTEM, tournament, "registration_open")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    return rounds.pair_next_round(SYSTEM, tournament)


def run(label: str, round_id: int, renderer: str, repeat: int = 1) -> list[dict]:
    """``repeat`` builds in one fresh worker process; prints each and returns them."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    with context.Pool(1, initializer=start_worker, initargs=(barrier,)) as pool:
        barrier.wait()
        results = [pool.apply(build_measured, (round_id, renderer)) for _ in range(repeat)]
    for n, r in enumerate(results, start=1):
        print(f"{label}{f' #{n}' if repeat > 1 else ''}: {r['seconds']:.2f} s wall "
              f"({r['gather']:.2f} s gathering the data), {r['cpu']:.2f} s CPU, {r['pages']} "
              f"pages, {r['bytes'] / 2**20:.1f} MiB PDF, worker peak RSS {r['rss']:.0f} MiB")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="builds of the goal's renderer")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the previous renderer (WeasyPrint overlays, about 15 s)")
    parser.add_argument("--naive", action="store_true", help="also one WeasyPrint document")
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="muster-bench-")
    os.environ.setdefault("MUSTER_DATA_DIR", data_dir)
    setup_django()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    round_ = build_round(2 * args.tables, args.seed)
    print(f"{2 * args.tables} players on {connection.vendor}; round 1 paired in "
          f"{time.perf_counter() - start:.1f} s; {os.cpu_count()} CPUs, load average "
          + " ".join(f"{n:.1f}" for n in os.getloadavg()))
    connection.close()  # the workers open their own
    fast = run("1 worker, texts drawn into slots", round_.pk, "slots", args.repeat)
    seconds = statistics.median(r["seconds"] for r in fast)
    cpu = statistics.median(r["cpu"] for r in fast)
    rss = max(r["rss"] for r in fast)
    print(f"goal <= {GOAL_SECONDS} s with 1 worker: median {seconds:.2f} s wall, {cpu:.2f} s CPU "
          f"({'met' if seconds <= GOAL_SECONDS else 'NOT met'}); goal <= {GOAL_RSS_MIB} MiB: "
          f"{rss:.0f} MiB ({'met' if rss <= GOAL_RSS_MIB else 'NOT met'})")
    if not args.no_baseline:
        (old,) = run("baseline, 1 worker, WeasyPrint overlays in chunks", round_.pk, "weasyprint")
        print(f"baseline vs slots: {old['seconds'] / seconds:.1f}x the wall time, "
              f"{old['cpu'] / cpu:.1f}x the CPU, {old['rss'] / rss:.2f}x the peak RSS, "
              f"PDF size {old['bytes'] / statistics.median(r['bytes'] for r in fast):.2f}x")
    if args.naive:
        (naive,) = run("naive, 1 worker, one WeasyPrint document", round_.pk, "naive")
        print(f"naive vs slots: {naive['seconds'] / seconds:.1f}x the wall time, "
              f"{naive['rss'] / rss:.1f}x the peak RSS")


if __name__ == "__main__":
    main()
