"""Benchmark: pair round 6 of a 1,024- and a 2,048-player Swiss event, against networkx.

Run from the repository root: ``python benchmarks/pairing.py`` (about two minutes; ``--quick``
skips the 2,048-player baseline). Prints figures only; nothing here is a pass/fail test.

Baseline: networkx's blossom (pure Python) maximising the *same* integer weights over every
rematch-free pair inside a score group or across an odd threshold, one connected component at
a time. That graph holds every pairing reaching the natural-float bound (league/pairing/bounds),
so its optimum is the global one whenever the engine's certificate holds; the 1,024 run also
checks the global optimum directly with rustworkx over all ~520,000 rematch-free pairs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402

from league.pairing import PairingSettings, PlayerState, pair_round  # noqa: E402
from league.pairing.graphs import adjacent_edges, all_edges, core_and_fixed  # noqa: E402
from league.pairing.matching import perfect_matching  # noqa: E402
from league.pairing.problem import build_problem  # noqa: E402
from league.pairing.swiss import fit_tiebreak, matching_cost, weighted  # noqa: E402
from league.pairing.weights import make_encoder  # noqa: E402
from league.standings import GameResult, ScoringSettings, compute_standings  # noqa: E402

PLAYED_ROUNDS = 5
FACTIONS = 20


def simulate(n: int, rounds: int, seed: int) -> list[PlayerState]:
    """Play ``rounds`` Swiss rounds with the engine, random results, real standings."""
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    club = {i: f"club{rng.randrange(n // 4)}" for i in ids}
    faction = {i: f"faction{rng.randrange(FACTIONS)}" for i in ids}
    results: list[GameResult] = []
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    tables: dict[int, set[int]] = {i: set() for i in ids}
    byes: set[int] = set()
    scoring = ScoringSettings(seed=seed)

    def states() -> list[PlayerState]:
        rows = compute_standings(ids, results, scoring)
        return [
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
            for row in rows
        ]

    for number in range(1, rounds + 1):
        settings = PairingSettings(round_number=number, seed=seed)
        for game in pair_round(states(), settings).pairings:
            results.append(_play(rng, number, game.players))
            if game.table is None:
                byes.add(game.players[0])
                continue
            a, b = game.players
            opponents[a].add(b), opponents[b].add(a)
            tables[a].add(game.table), tables[b].add(game.table)
    return states()


def _play(rng: random.Random, number: int, players: tuple[int, ...]) -> GameResult:
    if len(players) == 1:
        return GameResult(number, (players[0],))
    a, b = players
    roll = rng.random()
    winner = a if roll < 0.45 else b if roll < 0.9 else None
    return GameResult(number, (a, b), winner, {a: rng.randrange(20), b: rng.randrange(20)})


def time_engine(players: list[PlayerState], settings: PairingSettings, repeats: int):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = pair_round(players, settings)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), result


def networkx_baseline(players: list[PlayerState], settings: PairingSettings):
    """Seconds and cost of networkx on the same weights (see the module docstring)."""
    problem = fit_tiebreak(build_problem(players, settings))
    encoder = make_encoder(problem)
    core, fixed = core_and_fixed(problem)
    edges = weighted(problem, encoder, sorted(adjacent_edges(problem, core, fixed)))
    start = time.perf_counter()
    pairs = []
    for component in _components(problem.n_vertices, edges):
        graph = nx.Graph()
        graph.add_weighted_edges_from(component)
        pairs.extend(nx.max_weight_matching(graph, maxcardinality=True))
    seconds = time.perf_counter() - start
    if 2 * len(pairs) != problem.n_vertices:
        return seconds, None, len(edges)
    ordered = [(min(u, v), max(u, v)) for u, v in pairs]
    return seconds, matching_cost(problem, ordered), len(edges)


def _components(n_vertices: int, edges: list[tuple[int, int, int]]):
    graph = nx.Graph()
    graph.add_nodes_from(range(n_vertices))
    graph.add_weighted_edges_from(edges)
    for nodes in nx.connected_components(graph):
        yield list(graph.subgraph(nodes).edges(data="weight"))


def global_check(players: list[PlayerState], settings: PairingSettings):
    """Seconds and cost of rustworkx over every rematch-free pair (no pruning at all)."""
    problem = fit_tiebreak(build_problem(players, settings))
    encoder = make_encoder(problem)
    start = time.perf_counter()
    edges = weighted(problem, encoder, all_edges(problem, rematches=False))
    pairs = perfect_matching(problem.n_vertices, edges)
    seconds = time.perf_counter() - start
    return seconds, (matching_cost(problem, pairs) if pairs else None), len(edges)


def run(n: int, goal_ms: float, baseline: bool, check_global: bool) -> None:
    start = time.perf_counter()
    players = simulate(n, PLAYED_ROUNDS, seed=n)
    print(
        f"\n{n} players after {PLAYED_ROUNDS} rounds (simulated in {time.perf_counter() - start:.1f} s)"
    )
    settings = PairingSettings(round_number=PLAYED_ROUNDS + 1, seed=2026)
    median, best, result = time_engine(players, settings, repeats=7)
    flags = sum(bool(p.deviations) for p in result.pairings)
    print(
        f"  engine: median {median * 1e3:.1f} ms, best {best * 1e3:.1f} ms (goal <= {goal_ms:.0f} ms)"
    )
    print(f"  proven by step '{result.method}', cost {result.cost}, games with deviations {flags}")
    if baseline:
        seconds, cost, n_edges = networkx_baseline(players, settings)
        print(f"  networkx baseline: {seconds:.1f} s on {n_edges} edges, cost {cost}")
        print(f"  ratio networkx / engine (median): {seconds / median:.0f}x")
        print(f"  costs equal: {cost == result.cost}")
    if check_global:
        seconds, cost, n_edges = global_check(players, settings)
        print(
            f"  global check (rustworkx, {n_edges} rematch-free pairs, {seconds:.1f} s): "
            f"cost {cost}, equal: {cost == result.cost}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 2,048-player baseline")
    args = parser.parse_args()
    run(1024, 50, baseline=True, check_global=True)
    run(2048, 250, baseline=not args.quick, check_global=False)


if __name__ == "__main__":
    main()
