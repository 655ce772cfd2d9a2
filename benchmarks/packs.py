"""Mission pack of a 500-table round (goal: <= 30 s with 2 worker processes, <= 400 MiB each).

Run from the repository root: ``python benchmarks/packs.py [--tables N] [--no-naive]``.
Uses a throw-away SQLite database and media directory unless DATABASE_URL is set (then it must
point to an empty database you can lose). Builds a 2N-player event (1,000 players by default),
pairs round 1 through the services, gathers the pack's data once, then renders it
  1. in chunks on 2 worker processes, merged with pypdf (the goal),
  2. in chunks on 1 process, as one ``league.build_mission_pack`` task does,
  3. naively, as one WeasyPrint document (the baseline),
each renderer in fresh spawned processes with Django loaded, like Celery workers, so their
peak RSS is their own. Prints figures and ratios; asserts nothing.
"""
from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOAL_SECONDS = 30
GOAL_RSS_MIB = 400


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


_CPU_AT_START = 0.0


def start_worker(barrier) -> None:
    """A worker as Celery would have it after its first pack: Django, WeasyPrint, fonts loaded."""
    global _CPU_AT_START
    setup_django()
    from missions.packs.render import _style

    _style()
    _CPU_AT_START = cpu_seconds()
    barrier.wait()


def measured(result) -> tuple:
    """What a worker sends back with its result: its pid, peak RSS and CPU seconds so far."""
    return result, os.getpid(), peak_rss_mib(), cpu_seconds() - _CPU_AT_START


def render_measured(job) -> tuple:
    from missions.packs.render import render_job

    return measured(render_job(job))


def forms_measured(content) -> tuple:
    from missions.packs.render import render_forms

    return measured(render_forms(content))


def build_round(players: int, seed: int):
    from armylists.models import Chart
    from league.audit import SYSTEM
    from league.models import Player
    from league.services import rounds, tournaments
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


class Workers:
    """Peak RSS and CPU seconds per worker process, from what each job sends back."""

    def __init__(self) -> None:
        self.rss: dict[int, float] = {}
        self.cpu: dict[int, float] = {}

    def took(self, answer: tuple):
        result, pid, rss, cpu = answer
        self.rss[pid] = max(self.rss.get(pid, 0.0), rss)
        self.cpu[pid] = max(self.cpu.get(pid, 0.0), cpu)
        return result


def run(label: str, content, chunk: int, processes: int, naive: bool = False) -> dict:
    """Render the pack on ``processes`` fresh workers and merge in order; wall time and RSS.

    The front matter needs no form, so it starts while the forms are laid out; the chunks
    follow as soon as the forms (and so the slot positions) are known.
    """
    from missions.packs.render import front_job, merge, sheet_jobs, whole_document

    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes + 1)
    workers = Workers()
    with context.Pool(processes, initializer=start_worker, initargs=(barrier,)) as pool:
        barrier.wait()
        start = time.perf_counter()
        if naive:
            parts = [(workers.took(pool.apply(render_measured, (whole_document(content),))), ())]
            forms_pdf = b""
        else:
            front = pool.apply_async(render_measured, (front_job(content),))
            forms = workers.took(pool.apply(forms_measured, (content,)))
            chunks = sheet_jobs(content, forms, chunk)
            rendered = pool.imap(render_measured, chunks)
            forms_pdf = forms.pdf

            def gather():
                yield workers.took(front.get()), ()
                for job, answer in zip(chunks, rendered, strict=True):
                    yield workers.took(answer), job.form_of

            parts = gather()
        out = io.BytesIO()
        pages = merge(parts, forms_pdf, out)
        seconds = time.perf_counter() - start
    rss = sorted(workers.rss.values(), reverse=True)
    cpu = sorted(workers.cpu.values(), reverse=True)
    print(f"{label}: {seconds:.1f} s wall, {pages} pages, {pages / seconds:.1f} pages/s, "
          f"{out.tell() / 2**20:.1f} MiB PDF; per worker: peak RSS "
          + ", ".join(f"{r:.0f}" for r in rss) + " MiB, CPU "
          + ", ".join(f"{c:.1f}" for c in cpu) + " s")
    return {"seconds": seconds, "pages": pages, "bytes": out.tell(), "rss": rss, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--chunk", type=int, default=50, help="tables per WeasyPrint document")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--no-naive", action="store_true", help="skip the single-document baseline")
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="muster-bench-")
    os.environ.setdefault("MUSTER_DATA_DIR", data_dir)
    setup_django()
    from django.core.management import call_command
    from django.db import connection

    from league.services.packs import pack_content

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    round_ = build_round(2 * args.tables, args.seed)
    print(f"{2 * args.tables} players on {connection.vendor}; round 1 paired in "
          f"{time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    content = pack_content(round_)
    print(f"pack data gathered in {time.perf_counter() - start:.2f} s: {len(content.sheets)} sheets, "
          f"{len(content.missions)} missions, {len(content.pairings)} pairing lines")
    print(f"plan: forms, front matter, then chunks of {args.chunk} tables")
    two = run("2 worker processes", content, args.chunk, 2)
    one = run("1 worker process (as one task runs)", content, args.chunk, 1)
    print(f"2 workers vs 1: {one['seconds'] / two['seconds']:.2f}x faster")
    rss_ok = max(two["rss"]) <= GOAL_RSS_MIB
    print(f"goal <= {GOAL_SECONDS} s with 2 workers: {two['seconds']:.1f} s "
          f"({'met' if two['seconds'] <= GOAL_SECONDS else 'NOT met'}); goal <= {GOAL_RSS_MIB} MiB "
          f"per worker: {max(two['rss']):.0f} MiB ({'met' if rss_ok else 'NOT met'})")
    if args.no_naive:
        return
    naive = run("naive: one WeasyPrint document", content, args.chunk, 1, naive=True)
    print(f"naive vs 2 workers: {naive['seconds'] / two['seconds']:.1f}x the time, "
          f"{max(naive['rss']) / max(two['rss']):.1f}x the peak RSS per process; "
          f"PDF size {naive['bytes'] / two['bytes']:.2f}x")


if __name__ == "__main__":
    main()
