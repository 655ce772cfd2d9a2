"""The pairing problem as vertices and per-edge penalty vectors (one entry per tier)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from events.pairing.hashing import mix64, pair_key, stable_key
from events.pairing.types import PairingSettings, PlayerState
from events.pairing.vectors import VertexArrays, vertex_arrays

# Tie-break tier: one penalty per edge in [0, TIEBREAK_RANGE); lowest tier, not part of the cost.
TIEBREAK_RANGE = 1 << 16

# Index of each tier in a penalty vector (COST_TIERS order, then the seeded tie-break).
REMATCH, REPEAT_BYE, BYE_STRICT, GAP, STRONG, WEAK, BYE_SOFT, TIEBREAK = range(8)
N_TIERS = 8
N_COST_TIERS = 7


@dataclass(frozen=True)
class Problem:
    """Players sorted by rank (vertex ``i`` = ``players[i]``) and, for odd fields, a bye vertex."""

    players: tuple[PlayerState, ...]
    settings: PairingSettings
    bye_position: tuple[int, ...]  # per player: same-status players ranked below them
    preferred: frozenset[tuple[int, int]]  # vertex pairs the tie-break favours (round 1)
    tiebreak_range: int = TIEBREAK_RANGE

    @cached_property
    def n(self) -> int:
        return len(self.players)

    @property
    def has_bye(self) -> bool:
        return self.n % 2 == 1

    @property
    def dummy(self) -> int:
        """Vertex index of the bye (only meaningful when ``has_bye``)."""
        return self.n

    @property
    def n_vertices(self) -> int:
        return self.n + (1 if self.has_bye else 0)

    @property
    def strict(self) -> bool:
        return self.settings.bye_priority == "strict"

    @cached_property
    def min_score(self) -> int:
        return min((p.score for p in self.players), default=0)

    @cached_property
    def max_score(self) -> int:
        return max((p.score for p in self.players), default=0)

    def bye_target(self) -> int:
        """The best bye receiver: lowest-ranked player without a bye (or, failing that, with one)."""
        return min(range(self.n), key=lambda i: (self.players[i].had_bye, self.bye_position[i]))

    @cached_property
    def tiebreak_base(self) -> int:
        return stable_key(self.settings.seed, self.settings.round_number, "pair")

    @cached_property
    def opponents(self) -> tuple[frozenset[int], ...]:
        """Vertex indices each player already met (built only by the steps that need all)."""
        return _opponent_sets(self.players, {p.id: i for i, p in enumerate(self.players)})

    def met(self, u: int, v: int) -> bool:
        """Whether two distinct players already met, as recorded on either side (the same
        relation as ``opponents``, without building it)."""
        a, b = self.players[u], self.players[v]
        return b.id in a.opponents or a.id in b.opponents

    @cached_property
    def arrays(self) -> VertexArrays:
        """Per-vertex numpy arrays for the vectorised paths (``vectors``)."""
        return vertex_arrays(self.players)

    @cached_property
    def id_hashes(self) -> tuple[int, ...]:
        """Per vertex, a mixed form of the player id (the bye vertex last), reused by keys."""
        return (*(mix64(p.id) for p in self.players), mix64(-1))

    def score(self, v: int) -> int:
        """Score of a vertex; the bye vertex stands at the lowest score of the field."""
        return self.min_score if v == self.n else self.players[v].score


def build_problem(
    players: Sequence[PlayerState],
    settings: PairingSettings,
    preferred_ids: Sequence[tuple[int, int]] = (),
) -> Problem:
    """Validate the input and index it; input order never matters."""
    ordered = tuple(sorted(players, key=lambda p: p.rank))
    _validate(ordered, settings)
    index = {p.id: i for i, p in enumerate(ordered)}
    preferred = frozenset(
        (min(index[a], index[b]), max(index[a], index[b])) for a, b in preferred_ids
    )
    return Problem(ordered, settings, _bye_positions(ordered), preferred)


def _validate(players: tuple[PlayerState, ...], settings: PairingSettings) -> None:
    weights = ("ignore", "avoid", "avoid_strongly")
    if settings.club_weight not in weights or settings.faction_weight not in weights:
        raise ValueError(f"club/faction weights must be one of {weights}")
    if settings.bye_priority not in ("strict", "soft"):
        raise ValueError("bye_priority must be 'strict' or 'soft'")
    if len({p.id for p in players}) != len(players):
        raise ValueError("player ids must be unique")
    if len({p.rank for p in players}) != len(players):
        raise ValueError("player ranks must be unique")


def _opponent_sets(
    players: tuple[PlayerState, ...], index: dict[int, int]
) -> tuple[frozenset[int], ...]:
    # Symmetric on purpose: a meeting recorded on either side counts as a meeting.
    sets: list[set[int]] = [set() for _ in players]
    for i, player in enumerate(players):
        for other in player.opponents:
            j = index.get(other)
            if j is not None and j != i:
                sets[i].add(j)
                sets[j].add(i)
    return tuple(frozenset(s) for s in sets)


def _bye_positions(players: tuple[PlayerState, ...]) -> tuple[int, ...]:
    """Per player, how many players of the same bye status are ranked below them."""
    below: list[int] = [0] * len(players)
    seen = {False: 0, True: 0}
    for i in range(len(players) - 1, -1, -1):  # players are sorted best first
        status = players[i].had_bye
        below[i] = seen[status]
        seen[status] += 1
    return tuple(below)


def pair_penalty(problem: Problem, u: int, v: int) -> tuple[int, ...]:
    """Penalty vector of pairing vertices ``u < v`` (``v`` may be the bye vertex)."""
    if v == problem.n:
        return bye_penalty(problem, u)
    a, b = problem.players[u], problem.players[v]
    strong, weak = affinity_counts(problem.settings, a, b)
    return (
        1 if problem.met(u, v) else 0,
        0,
        0,
        (a.score - b.score) ** 2,
        strong,
        weak,
        0,
        tiebreak(problem, u, v),
    )


def bye_penalty(problem: Problem, u: int) -> tuple[int, ...]:
    """Penalty vector of giving the bye to player ``u``."""
    player = problem.players[u]
    position = problem.bye_position[u]
    strict = problem.strict
    gap = 0 if strict else (player.score - problem.min_score) ** 2
    return (
        0,
        1 if player.had_bye else 0,
        position if strict else 0,
        gap,
        0,
        0,
        0 if strict else position,
        0,
    )


def affinity_counts(settings: PairingSettings, a: PlayerState, b: PlayerState) -> tuple[int, int]:
    """(strong, weak) counts of same-club/same-faction penalties for a pair."""
    strong = weak = 0
    if a.club and a.club == b.club:
        strong += settings.club_weight == "avoid_strongly"
        weak += settings.club_weight == "avoid"
    if a.faction and a.faction == b.faction:
        strong += settings.faction_weight == "avoid_strongly"
        weak += settings.faction_weight == "avoid"
    return strong, weak


def tiebreak(problem: Problem, u: int, v: int) -> int:
    """Seeded per-pair key; favoured pairs (round 1 shuffle) and byes get the best value, 0."""
    if problem.tiebreak_range <= 1 or v == problem.n or (u, v) in problem.preferred:
        return 0
    hashes = problem.id_hashes
    key = pair_key(problem.tiebreak_base, hashes[u], hashes[v])
    return 1 + key % (problem.tiebreak_range - 1)
