"""Benchmark: standings of 1,024 players after 8 rounds with every tiebreaker (goal <= 100 ms).

Run from the repository root: ``python benchmarks/standings.py``. Prints figures only.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from events.standings import GameResult, ScoringSettings, compute_standings  # noqa: E402

PLAYERS = 1024
ROUNDS = 8
GOAL_MS = 100


def swiss_like_results(rng: random.Random) -> tuple[list[int], list[GameResult]]:
    """Each round pairs neighbours in the current points order, as a Swiss event would."""
    ids = list(range(1, PLAYERS + 1))
    points = dict.fromkeys(ids, 0)
    results = []
    for number in range(1, ROUNDS + 1):
        order = sorted(ids, key=lambda p: (-points[p], rng.random()))
        for a, b in zip(order[::2], order[1::2], strict=True):
            roll = rng.random()
            winner = a if roll < 0.45 else b if roll < 0.9 else None
            for p in (a, b):
                points[p] += 1 if winner is None else 3 * (winner == p)
            results.append(
                GameResult(number, (a, b), winner, {a: rng.randrange(25), b: rng.randrange(25)})
            )
    return ids, results


def main() -> None:
    ids, results = swiss_like_results(random.Random(8))
    settings = ScoringSettings(
        tiebreaks=("sos", "opp_win_rate", "vp_diff", "vp_scored", "head_to_head"), seed=8
    )
    times = []
    for _ in range(9):
        start = time.perf_counter()
        rows = compute_standings(ids, results, settings)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"{PLAYERS} players x {ROUNDS} rounds ({len(results)} games), all tiebreakers")
    print(f"  median {median * 1e3:.1f} ms, best {min(times) * 1e3:.1f} ms (goal <= {GOAL_MS} ms)")
    print(
        f"  leader: player {rows[0].player}, {rows[0].points} points, {dict(rows[0].tiebreakers)}"
    )


if __name__ == "__main__":
    main()
