"""Benchmark: the Swiss pairing engine on simulated 1,024-, 2,048- and 8,192-player events.

Run from the repository root: ``python benchmarks/pairing.py`` (the full sweep: 20 events, about
an hour because every state is checked by a full solve of 15-30 s here; ``--check worst`` checks
only the slowest state, a few minutes) or ``--quick`` (3 events, the slowest state checked; about
two minutes); ``--sizes-only`` times the 2,048- and 8,192-player events alone (about a minute).
Prints figures next to their goals; nothing here is a pass/fail test.

Sweep (issue #15): 1,024 players in clubs of about four play simulated events to round 10;
the engine pairs the state before each of rounds 2..10 (median of ``REPEATS`` runs). Reported:
worst and median, with the event seed and round of the worst. Exactness: the cost must equal
that of a full solve, rustworkx's exact matching over every rematch-free pair (no pruning).

Baselines from the same run: ``legacy_pairs``, the engine as it was before issue #15 (the same
ladder without float candidates, windows or the slack step, on today's graph building, weights
and tables), timed on the same states, and the full solve's own time. The size runs also print
the time spent inside rustworkx's exact matching, which the engine cannot go below.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import rustworkx as rx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from events.pairing import PairingSettings, PlayerState, pair_round  # noqa: E402
from events.pairing.brackets import bracket_pairs  # noqa: E402
from events.pairing.graphs import adjacent_edges, all_edges, core_and_fixed, sparse_edges  # noqa: E402
from events.pairing.matching import perfect_matching  # noqa: E402
from events.pairing.problem import GAP, build_problem  # noqa: E402
from events.pairing.results import build_result  # noqa: E402
from events.pairing.swiss import fit_tiebreak, lower_bound, matching_cost, weighted  # noqa: E402
from events.pairing.weights import make_encoder  # noqa: E402
from events.standings import GameResult, ScoringSettings, compute_standings  # noqa: E402

FACTIONS = 20
REPEATS = 3
SWEEP_PLAYERS, SWEEP_ROUNDS = 1024, 10
GOAL_WORST_MS, GOAL_TYPICAL_MS = 100, 30
SIZES = ((2048, 60, "55-100 ms"), (8192, 300, "450 ms"))  # players, goal, figure in issue #15
PLAYED_ROUNDS = 5  # the size runs pair round 6


def play(n: int, rounds: int, seed: int) -> Iterator[tuple[int, list[PlayerState]]]:
    """Swiss rounds paired by the engine, random results, real standings: yields the state
    before each round (round number, players), then plays that round."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    club = {i: f"club{rng.randrange(n // 4)}" for i in ids}
    faction = {i: f"faction{rng.randrange(FACTIONS)}" for i in ids}
    results: list[GameResult] = []
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    tables: dict[int, set[int]] = {i: set() for i in ids}
    byes: set[int] = set()
    scoring = ScoringSettings(seed=seed)
    for number in range(1, rounds + 1):
        states = [
            PlayerState(
                id=row.player,
                score=row.points,
                rank=row.rank - 1,
                club=club[row.player],
                faction=faction[row.player],
                opponents=frozenset(opponents[row.player]),
                tables=frozenset(tables[row.player]),
                had_bye=row.player in byes,
            )
            for row in compute_standings(ids, results, scoring)
        ]
        yield number, states
        for game in pair_round(states, PairingSettings(round_number=number, seed=seed)).pairings:
            results.append(_play(rng, number, game.players))
            if game.table is None:
                byes.add(game.players[0])
                continue
            a, b = game.players
            opponents[a].add(b), opponents[b].add(a)
            tables[a].add(game.table), tables[b].add(game.table)


def _play(rng: random.Random, number: int, players: tuple[int, ...]) -> GameResult:
    if len(players) == 1:
        return GameResult(number, (players[0],))
    a, b = players
    roll = rng.random()
    winner = a if roll < 0.45 else b if roll < 0.9 else None
    return GameResult(number, (a, b), winner, {a: rng.randrange(20), b: rng.randrange(20)})


def timed(function, *args, repeats: int = 1):
    """(median seconds, last result) of ``repeats`` calls."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def legacy_pairs(players: list[PlayerState], settings: PairingSettings):
    """(cost, step) of the engine before issue #15: bracket, sparse, sparse_wide, adjacent (all
    proven only by the natural-float bound), then the full solve; tables assigned as today."""
    problem = fit_tiebreak(build_problem(players, settings))
    encoder = make_encoder(problem)
    core, fixed = core_and_fixed(problem)
    bound = lower_bound(problem, core)

    def matched(edges):
        return perfect_matching(problem.n_vertices, weighted(problem, encoder, sorted(edges)))

    steps = [
        ("bracket", lambda: bracket_pairs(problem, encoder, core, fixed, 2), len(bound)),
        ("sparse", lambda: matched(sparse_edges(problem, core, fixed, 2)), len(bound)),
        ("sparse_wide", lambda: matched(sparse_edges(problem, core, fixed, 12)), len(bound)),
        ("adjacent", lambda: matched(adjacent_edges(problem, core, fixed)), GAP + 1),
        ("full", lambda: matched(all_edges(problem, rematches=False)), 0),
        ("complete", lambda: matched(all_edges(problem, rematches=True)), 0),
    ]
    for method, attempt, tiers in steps:
        pairs = attempt()
        if pairs is not None:
            cost = matching_cost(problem, pairs)
            if cost[:tiers] == bound[:tiers]:
                build_result(problem, pairs, cost, method, None)
                return cost, method
    raise AssertionError("the complete graph always has a perfect matching")


def full_solve(players: list[PlayerState], settings: PairingSettings):
    """Cost of rustworkx's exact matching over every rematch-free pair (no pruning at all)."""
    problem = fit_tiebreak(build_problem(players, settings))
    edges = weighted(problem, make_encoder(problem), all_edges(problem, rematches=False))
    pairs = perfect_matching(problem.n_vertices, edges)
    return matching_cost(problem, pairs) if pairs else None


@dataclass
class Sample:
    seed: int
    round: int
    seconds: float
    method: str
    cost: tuple[int, ...]
    legacy: float | None = None
    legacy_method: str = ""
    exact: bool | None = None
    full_seconds: float | None = None


def sweep(seeds: list[int], legacy: bool, check_all: bool) -> list[Sample]:
    """Measure every state; without ``check_all``, the slowest one alone gets the full solve."""
    samples: list[Sample] = []
    worst: tuple[float, list[PlayerState], PairingSettings] | None = None
    for seed in seeds:
        start = time.perf_counter()
        for number, players in play(SWEEP_PLAYERS, SWEEP_ROUNDS, seed):
            if number == 1:
                continue
            settings = PairingSettings(round_number=number, seed=seed)
            seconds, result = timed(pair_round, players, settings, repeats=REPEATS)
            sample = Sample(seed, number, seconds, result.method, result.cost)
            if legacy:
                sample.legacy, (_, sample.legacy_method) = timed(legacy_pairs, players, settings)
            if check_all:
                _check(sample, players, settings)
            elif worst is None or seconds > worst[0]:
                worst = (seconds, players, settings)
            samples.append(sample)
            _print_sample(sample)
        print(f"  (event {seed} simulated and measured in {time.perf_counter() - start:.0f} s)")
    if worst is not None:
        slowest = max(samples, key=lambda s: s.seconds)
        _check(slowest, *worst[1:])
    return samples


def _check(sample: Sample, players: list[PlayerState], settings: PairingSettings) -> None:
    sample.full_seconds, cost = timed(full_solve, players, settings)
    sample.exact = cost == sample.cost


def _print_sample(s: Sample) -> None:
    line = f"  event {s.seed:>2} round {s.round:>2}: {s.seconds * 1e3:7.1f} ms ({s.method})"
    if s.legacy is not None:
        line += f"   before #15: {s.legacy * 1e3:8.1f} ms ({s.legacy_method})"
    if s.exact is not None:
        line += f"   full solve {s.full_seconds:.1f} s, exact: {s.exact}"
    print(line, flush=True)


def report_sweep(samples: list[Sample], seeds: list[int], check_all: bool) -> None:
    times = [s.seconds for s in samples]
    worst = max(samples, key=lambda s: s.seconds)
    print(f"\nSweep: {SWEEP_PLAYERS} players, {len(seeds)} events, rounds 2-{SWEEP_ROUNDS}")
    print(f"  {'round':>5} {'states':>6} {'median ms':>10} {'max ms':>8}  max before #15 (ms)")
    for number in range(2, SWEEP_ROUNDS + 1):
        row = [s for s in samples if s.round == number]
        before = [s.legacy for s in row if s.legacy is not None]
        old = f"{max(before) * 1e3:.0f}" if before else "-"
        print(
            f"  {number:>5} {len(row):>6} {statistics.median(s.seconds for s in row) * 1e3:>10.1f}"
            f" {max(s.seconds for s in row) * 1e3:>8.1f}  {old}"
        )
    print(
        f"  engine worst {worst.seconds * 1e3:.1f} ms (goal <= {GOAL_WORST_MS} ms) at event "
        f"{worst.seed} round {worst.round} ({worst.method}); median "
        f"{statistics.median(times) * 1e3:.1f} ms (goal <= {GOAL_TYPICAL_MS} ms)"
    )
    before = [s for s in samples if s.legacy is not None]
    if before:
        old = max(before, key=lambda s: s.legacy or 0)
        slow = sum(1 for s in before if (s.legacy or 0) > 1)
        print(
            f"  before #15, same states: worst {old.legacy * 1e3:.0f} ms at event {old.seed} "
            f"round {old.round} ({old.legacy_method}); median "
            f"{statistics.median(s.legacy for s in before) * 1e3:.1f} ms; states over 1 s: "
            f"{slow} of {len(before)}"
        )
    steps = sorted({s.method for s in samples})
    print(
        "  steps that proved the optimum: "
        + ", ".join(f"{m} {sum(s.method == m for s in samples)}" for m in steps)
    )
    if check_all:
        exact = sum(bool(s.exact) for s in samples)
        full = [s.full_seconds for s in samples if s.full_seconds is not None]
        print(
            f"  exact against the full solve: {exact} of {len(samples)} states "
            f"(full solve median {statistics.median(full):.1f} s)"
        )


def report_worst_check(samples: list[Sample]) -> None:
    worst = max(samples, key=lambda s: s.seconds)
    print(
        f"  slowest state (event {worst.seed} round {worst.round}) against the full solve "
        f"({worst.full_seconds:.1f} s): exact: {worst.exact}"
    )


def matcher_seconds(function, *args) -> float:
    """Seconds one call spends inside rustworkx's exact matching, the engine's floor (its
    blossom method restarts a search over the whole component for each of its n/2 stages)."""
    spent = 0.0
    original = rx.max_weight_matching

    def measured(*positional, **named):
        nonlocal spent
        start = time.perf_counter()
        try:
            return original(*positional, **named)
        finally:
            spent += time.perf_counter() - start

    rx.max_weight_matching = measured
    try:
        function(*args)
    finally:
        rx.max_weight_matching = original
    return spent


def run_size(n: int, goal_ms: float, issue: str, legacy: bool) -> None:
    start = time.perf_counter()
    players = next(s for number, s in play(n, PLAYED_ROUNDS + 1, seed=n) if number > PLAYED_ROUNDS)
    elapsed = time.perf_counter() - start
    print(f"\n{n} players before round {PLAYED_ROUNDS + 1} (simulated in {elapsed:.0f} s)")
    settings = PairingSettings(round_number=PLAYED_ROUNDS + 1, seed=2026)
    seconds, result = timed(pair_round, players, settings, repeats=5)
    print(
        f"  engine: median {seconds * 1e3:.0f} ms (goal <= {goal_ms:.0f} ms; issue #15: {issue}),"
        f" step '{result.method}', cost {result.cost}"
    )
    matcher = statistics.median(matcher_seconds(pair_round, players, settings) for _ in range(3))
    print(f"  of which rustworkx's exact matching: {matcher * 1e3:.0f} ms")
    if legacy:
        old, (cost, method) = timed(legacy_pairs, players, settings, repeats=5)
        print(
            f"  before #15, same state: median {old * 1e3:.0f} ms ('{method}'), "
            f"same cost: {cost == result.cost}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 events, full solve of the worst")
    parser.add_argument("--seeds", type=int, help="events in the sweep (default 20, quick 3)")
    parser.add_argument(
        "--check",
        choices=("all", "worst"),
        help="full solve of every state (default) or of the slowest (default with --quick)",
    )
    parser.add_argument("--no-legacy", action="store_true", help="skip the pre-#15 baseline")
    parser.add_argument("--no-sizes", action="store_true", help="skip 2,048 and 8,192 players")
    parser.add_argument("--sizes-only", action="store_true",
                        help="only the 2,048- and 8,192-player events (no sweep)")
    args = parser.parse_args()
    legacy = not args.no_legacy
    if args.sizes_only:
        for n, goal, issue in SIZES:
            run_size(n, goal, issue, legacy)
        return
    seeds = list(range(1, (args.seeds or (3 if args.quick else 20)) + 1))
    print(f"Sweep of {SWEEP_PLAYERS} players, events {seeds[0]}..{seeds[-1]}:")
    check_all = (args.check or ("worst" if args.quick else "all")) == "all"
    samples = sweep(seeds, legacy, check_all)
    report_sweep(samples, seeds, check_all)
    if not check_all:
        report_worst_check(samples)
    if not args.no_sizes:
        for n, goal, issue in SIZES:
            run_size(n, goal, issue, legacy)


if __name__ == "__main__":
    main()
