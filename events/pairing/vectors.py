"""The per-pair values of ``problem`` and ``hashing`` for many pairs at once, with numpy.

numpy's uint64 arithmetic wraps modulo 2**64 exactly like ``hashing``'s masks, so the keys
here equal those of ``hashing`` bit for bit, and the penalty terms those of ``pair_penalty``.
Scores go through int64 only when every total stays far inside it (``VertexArrays.exact``);
otherwise callers keep the plain Python path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Protocol

import numpy as np

from events.pairing.hashing import mix64

if TYPE_CHECKING:
    from events.pairing.types import PairingSettings, PlayerState

_C1 = np.uint64(0x9E3779B97F4A7C15)
_C2 = np.uint64(0xBF58476D1CE4E5B9)
_C3 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_INT64_ROOM = 1 << 62
LOOKUP_SPAN = 16  # ids spread over at most this many times their count: a direct lookup table


def mix64_array(values: np.ndarray) -> np.ndarray:
    """``hashing.mix64`` of every entry of a uint64 array."""
    z = values + _C1
    z = (z ^ (z >> _S30)) * _C2
    z = (z ^ (z >> _S27)) * _C3
    return z ^ (z >> _S31)


@dataclass(frozen=True)
class VertexArrays:
    """Per vertex (the bye vertex last, at the lowest score, in no club or faction)."""

    score: np.ndarray  # int64
    club: np.ndarray  # int64 codes, 0 = none
    faction: np.ndarray  # int64 codes, 0 = none
    hashes: np.ndarray  # uint64, ``mix64`` of the id (of -1 for the bye vertex)
    exact: bool  # scores, their squared gaps and sums of those fit int64
    met: np.ndarray | None  # sorted ``u * (n + 1) + v`` of the pairs u < v who met; None: ids
    # beyond int64, ``Problem.met`` one pair at a time


def vertex_arrays(players: Sequence[PlayerState]) -> VertexArrays:
    scores = [p.score for p in players]
    low, high = min(scores, default=0), max(scores, default=0)
    # Every sum taken here is over at most one pair per vertex.
    exact = (
        low > -_INT64_ROOM
        and high < _INT64_ROOM
        and (high - low) ** 2 * (len(players) + 2) < _INT64_ROOM
    )
    score = np.array([*scores, low], dtype=np.int64) if exact else np.zeros(0, dtype=np.int64)
    ids = _ids(players)
    return VertexArrays(
        score=score,
        club=_codes([p.club for p in players]),
        faction=_codes([p.faction for p in players]),
        hashes=_hashes(players, ids),
        exact=exact,
        met=None if ids is None else _met_codes(players, ids),
    )


def _ids(players: Sequence[PlayerState]) -> np.ndarray | None:
    """The ids as int64, or None when one does not fit."""
    try:
        return np.fromiter((p.id for p in players), dtype=np.int64, count=len(players))
    except OverflowError:
        return None


def _hashes(players: Sequence[PlayerState], ids: np.ndarray | None) -> np.ndarray:
    """``mix64`` of each id and of -1 (the bye vertex); int64's two's complement, read as
    uint64, is ``mix64``'s wrap of negative ids."""
    if ids is None:
        return np.array([*(mix64(p.id) for p in players), mix64(-1)], dtype=np.uint64)
    return mix64_array(np.append(ids, -1).view(np.uint64))


def _met_codes(players: Sequence[PlayerState], ids: np.ndarray) -> np.ndarray | None:
    """The pairs who met, recorded on either side (``Problem.met``), as sorted codes."""
    n = len(players)
    recorded = [p.opponents for p in players]
    lengths = np.fromiter(map(len, recorded), dtype=np.int64, count=n)
    try:
        others = np.fromiter(chain.from_iterable(recorded), dtype=np.int64, count=lengths.sum())
    except OverflowError:
        return None
    mine = np.repeat(np.arange(n, dtype=np.int64), lengths)
    theirs = _positions(ids, others)
    keep = (theirs >= 0) & (theirs != mine)
    mine, theirs = mine[keep], theirs[keep]
    return distinct(np.minimum(mine, theirs) * (n + 1) + np.maximum(mine, theirs))


def _positions(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Index of each wanted id in ``ids`` (distinct), -1 where absent."""
    if len(ids) == 0:
        return np.full(len(wanted), -1, dtype=np.int64)
    low, high = int(ids.min()), int(ids.max())
    if high - low <= LOOKUP_SPAN * len(ids):  # usual database keys: a direct table
        table = np.full(high - low + 1, -1, dtype=np.int64)
        table[ids - low] = np.arange(len(ids), dtype=np.int64)
        inside = (wanted >= low) & (wanted <= high)
        found = np.full(len(wanted), -1, dtype=np.int64)
        found[inside] = table[wanted[inside] - low]
        return found
    by_id = np.argsort(ids)
    at = np.minimum(np.searchsorted(ids[by_id], wanted), len(ids) - 1)
    return np.where(ids[by_id[at]] == wanted, by_id[at], -1)


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (``np.unique`` without its hashing detour)."""
    values = np.sort(values)
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def _codes(labels: list[str]) -> np.ndarray:
    """Integer code of each label, 0 for "" (and for the bye vertex, appended)."""
    codes: dict[str, int] = {"": 0}
    return np.array([*(codes.setdefault(label, len(codes)) for label in labels), 0], dtype=np.int64)


def shuffled_order(base: int, hashes: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """``vertices`` sorted by ``item_key(base, hash)``, ties by vertex (``graphs.shuffled``)."""
    keys = mix64_array(np.uint64(base) ^ hashes[vertices])
    return vertices[np.lexsort((vertices, keys))]


class PairSource(Protocol):
    """What the per-pair functions read of a ``problem.Problem`` (named here, not imported:
    ``problem`` builds its arrays with this module)."""

    players: tuple[PlayerState, ...]
    settings: PairingSettings
    preferred: frozenset[tuple[int, int]]
    tiebreak_range: int

    @property
    def n(self) -> int: ...

    @property
    def arrays(self) -> VertexArrays: ...

    @property
    def tiebreak_base(self) -> int: ...


def tiebreaks(problem: PairSource, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """``problem.tiebreak`` of each pair ``us[k] < vs[k]`` (int64)."""
    span = problem.tiebreak_range
    if span <= 1 or len(us) == 0:
        return np.zeros(len(us), dtype=np.int64)
    hashes = problem.arrays.hashes
    keys = mix64_array(np.uint64(problem.tiebreak_base) ^ (hashes[us] + hashes[vs]))
    values = (keys % np.uint64(span - 1)).astype(np.int64) + 1
    values[vs == problem.n] = 0
    if problem.preferred:
        pairs = zip(us.tolist(), vs.tolist(), strict=True)
        favoured = [k for k, pair in enumerate(pairs) if pair in problem.preferred]
        values[favoured] = 0
    return values


@dataclass(frozen=True)
class PairTerms:
    """The non-zero tiers of ``pair_penalty`` for pairs of two players (no bye vertex)."""

    rematch: np.ndarray  # bool
    gap: np.ndarray  # int64, (score_u - score_v) ** 2
    strong: np.ndarray  # int64
    weak: np.ndarray  # int64


def pair_terms(problem: PairSource, us: np.ndarray, vs: np.ndarray) -> PairTerms:
    """Needs ``problem.arrays.exact``; ``vs`` must not hold the bye vertex."""
    score = problem.arrays.score
    strong, weak = affinities(problem, us, vs)
    return PairTerms(rematches(problem, us, vs), (score[us] - score[vs]) ** 2, strong, weak)


def rematches(problem: PairSource, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """Whether each pair of distinct players already met (bool), in either order."""
    met = problem.arrays.met
    if met is not None:
        codes = np.minimum(us, vs) * (problem.n + 1) + np.maximum(us, vs)
        at = np.minimum(np.searchsorted(met, codes), max(len(met) - 1, 0))
        return met[at] == codes if len(met) else np.zeros(len(us), dtype=bool)
    players = problem.players
    pairs = ((players[u], players[v]) for u, v in zip(us.tolist(), vs.tolist(), strict=True))
    met = (b.id in a.opponents or a.id in b.opponents for a, b in pairs)  # as ``Problem.met``
    return np.fromiter(met, dtype=bool, count=len(us))


def affinities(problem: PairSource, us: np.ndarray, vs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``affinity_counts`` of each pair of players: (strong, weak) int64 arrays."""
    arrays, settings = problem.arrays, problem.settings
    strong = np.zeros(len(us), dtype=np.int64)
    weak = np.zeros(len(us), dtype=np.int64)
    for weight, codes in (
        (settings.club_weight, arrays.club),
        (settings.faction_weight, arrays.faction),
    ):
        if weight != "ignore":
            same = (codes[us] == codes[vs]) & (codes[us] != 0)
            (strong if weight == "avoid_strongly" else weak)[same] += 1
    return strong, weak


def clean_mask(problem: PairSource, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """``graphs.is_clean`` of each pair ``us[k] < vs[k]`` (the bye vertex included)."""
    bye = vs == problem.n
    clean = np.zeros(len(us), dtype=bool)
    if bye.any():
        had_bye = np.fromiter((problem.players[u].had_bye for u in us[bye].tolist()), dtype=bool)
        clean[bye] = ~had_bye
    real = ~bye
    ru, rv = us[real], vs[real]
    strong, weak = affinities(problem, ru, rv)
    clean[real] = ~rematches(problem, ru, rv) & (strong == 0) & (weak == 0)
    return clean
