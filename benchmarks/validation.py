"""Army-list validation speed: engine lists/s on 1,000 realistic lists (count-based charts, then
Warhammer Battle with its advanced rules), and the API's p95 latency.

Run from the repository root: `python benchmarks/validation.py`. Goals: >= 5,000 lists/s for the
engine, p95 < 30 ms for POST /api/v1/lists/validate/. Prints figures; asserts nothing.
"""
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SLOTS = ["hq", "troops", "troops", "troops", "elites", "fast_attack", "heavy_support"]
N_LISTS = 1_000
N_REQUESTS = 300


def realistic_lists(seed: int = 1):
    from armylists.validation import Entry

    rng = random.Random(seed)
    lists = []
    for _ in range(N_LISTS):
        size = rng.randint(8, 15)
        lists.append([Entry(f"Unit {i}", rng.choice(SLOTS), rng.randint(40, 250), rng.randint(1, 20))
                      for i in range(size)])
    return lists


def bench_engine(lists) -> float:
    from armylists.validation import chart_from_rows, validate

    chart = chart_from_rows("w40k4-standard", [("hq", 1, 1), ("troops", 2, 4), ("elites", 0, 3),
                                                ("fast_attack", 0, 3), ("heavy_support", 0, 3)])
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for entries in lists:
            validate(entries, chart, 1500)
        best = min(best, time.perf_counter() - start)
    return len(lists) / best


def realistic_whfb_lists(seed: int = 2):
    """Warhammer Battle lists of 8 to 15 units with options, tags and a baggage entry (seed 003)."""
    from systems.whfb import army as whfb

    rng = random.Random(seed)
    lists = []
    for _ in range(N_LISTS):
        units = [whfb.WfbEntry(f"Unit {i}", rng.choice(whfb.SLOTS), rng.randint(40, 300), rng.randint(1, 25),
                               rng.choice(whfb.UNIT_TYPES), frozenset(rng.sample(["shooting", "shields"], 1)),
                               tuple(rng.sample(whfb.OPTIONS, rng.randint(0, 1))))
                 for i in range(rng.randint(8, 15))]
        units.append(whfb.WfbEntry("Wagon", "core", rng.randint(20, 250), 1, "chariot", baggage=True))
        lists.append(units)
    return lists


def bench_whfb_engine(lists) -> float:
    """The Warhammer Battle engine with every advanced rule on and the standard percentages."""
    from systems.whfb import army as whfb

    rules = whfb.AdvancedRules(mantlets=True, stakes=True, baggage=True)
    limits = whfb.percent_limits({"lords": {"max": 25}, "heroes": {"max": 25}, "core": {"min": 25},
                                  "special": {"max": 50}, "rare": {"max": 25}})
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for entries in lists:
            whfb.validate(entries, 2000, rules, "empire", frozenset(), limits)
        best = min(best, time.perf_counter() - start)
    return len(lists) / best


def bench_api(lists) -> list[float]:
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    client = Client()
    timings = []
    for entries in lists[:N_REQUESTS]:
        body = {"chart": "w40k4-standard", "points_limit": 1500,
                "units": [{"name": e.name, "slot": e.slot, "points": e.points, "models": e.models}
                          for e in entries]}
        start = time.perf_counter()
        response = client.post("/api/v1/lists/validate/", body, content_type="application/json")
        timings.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content
    return timings


def main() -> None:
    os.environ.setdefault("MUSTER_DATA_DIR", tempfile.mkdtemp(prefix="muster-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    lists = realistic_lists()
    rate = bench_engine(lists)
    print(f"engine: {rate:,.0f} lists/s on {N_LISTS} lists (goal >= 5,000) -> {rate / 5000:.1f}x goal")
    whfb_rate = bench_whfb_engine(realistic_whfb_lists())
    print(f"engine (Warhammer Battle, options, baggage, percentages): {whfb_rate:,.0f} lists/s on "
          f"{N_LISTS} lists (goal >= 5,000) -> {whfb_rate / 5000:.1f}x goal; baseline: the "
          f"count-based engine above in the same run")
    timings = bench_api(lists)
    p95 = statistics.quantiles(timings, n=20)[-1]
    print(f"api: p50 {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms over {len(timings)} "
          f"requests (goal p95 < 30 ms)")


if __name__ == "__main__":
    main()
