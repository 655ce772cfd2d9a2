"""Independent re-statement of the pairing objective for tests: costs, brute force, networkx."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import networkx as nx

from events.pairing import PairingResult, PairingSettings, PlayerState, pair_round

BYE = "bye"


def met(a: PlayerState, b: PlayerState) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def same_counts(settings: PairingSettings, a: PlayerState, b: PlayerState) -> tuple[int, int]:
    """(avoid_strongly, avoid) violations of one pair, straight from the settings' meaning."""
    strong = weak = 0
    for weight, attr in ((settings.club_weight, "club"), (settings.faction_weight, "faction")):
        x, y = getattr(a, attr), getattr(b, attr)
        if x and x == y:
            strong += weight == "avoid_strongly"
            weak += weight == "avoid"
    return strong, weak


def bye_position(players: Sequence[PlayerState], receiver: PlayerState) -> int:
    """Players with the receiver's bye status ranked below the receiver."""
    return sum(1 for p in players if p.had_bye == receiver.had_bye and p.rank > receiver.rank)


def cost_of(
    players: Sequence[PlayerState],
    settings: PairingSettings,
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
) -> tuple[int, ...]:
    """The 7-tier cost of a pairing given as player ids."""
    by_id = {p.id: p for p in players}
    rematches = gap = strong = weak = 0
    for a, b in pairs:
        pa, pb = by_id[a], by_id[b]
        rematches += met(pa, pb)
        gap += (pa.score - pb.score) ** 2
        s, w = same_counts(settings, pa, pb)
        strong, weak = strong + s, weak + w
    repeat = position_strict = position_soft = 0
    if bye is not None:
        receiver = by_id[bye]
        repeat = int(receiver.had_bye)
        position = bye_position(players, receiver)
        if settings.bye_priority == "strict":
            position_strict = position
        else:
            position_soft = position
            gap += (receiver.score - min(p.score for p in players)) ** 2
    return (rematches, repeat, position_strict, gap, strong, weak, position_soft)


def result_pairs(result: PairingResult) -> tuple[list[tuple[int, int]], int | None]:
    pairs = [p.players for p in result.pairings if len(p.players) == 2]
    byes = [p.players[0] for p in result.pairings if len(p.players) == 1]
    assert len(byes) <= 1
    return pairs, (byes[0] if byes else None)  # type: ignore[return-value]


def all_pairings(items: list) -> Iterator[list[tuple]]:
    """Every perfect matching of an even-length list."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def split_bye(pairing: list[tuple]) -> tuple[list[tuple[int, int]], int | None]:
    pairs, bye = [], None
    for a, b in pairing:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairs.append((a, b))
    return pairs, bye


def brute_force_cost(players: Sequence[PlayerState], settings: PairingSettings) -> tuple:
    items: list = [p.id for p in players] + ([BYE] if len(players) % 2 else [])
    return min(cost_of(players, settings, *split_bye(m)) for m in all_pairings(items))


def networkx_cost(players: Sequence[PlayerState], settings: PairingSettings) -> tuple:
    """Optimum by networkx on the complete graph, tiers encoded in base 10**7 (each tier's
    total stays far below that for the events the tests build)."""
    base = 10**7
    graph = nx.Graph()
    vertices: list = [p.id for p in players] + ([BYE] if len(players) % 2 else [])
    for i, a in enumerate(vertices):
        for b in vertices[i + 1 :]:
            pairs, bye = split_bye([(a, b)])
            cost = cost_of(players, settings, pairs, bye)
            weight = -sum(c * base ** (len(cost) - 1 - t) for t, c in enumerate(cost))
            graph.add_edge(a, b, weight=weight + base**8)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return cost_of(players, settings, *split_bye(list(matching)))


def optimum_cost(players: Sequence[PlayerState], settings: PairingSettings) -> tuple:
    return (
        brute_force_cost(players, settings)
        if len(players) <= 10
        else networkx_cost(players, settings)
    )


def max_clean_matching(players: Sequence[PlayerState], exclude: int | None = None) -> int:
    """Size of a maximum rematch-free matching (a bye vertex joins every player in odd fields)."""
    graph = nx.Graph()
    pool = [p for p in players if p.id != exclude]
    graph.add_nodes_from(p.id for p in pool)
    for i, a in enumerate(pool):
        graph.add_edges_from((a.id, b.id) for b in pool[i + 1 :] if not met(a, b))
    if len(pool) % 2:
        graph.add_edges_from((p.id, BYE) for p in pool)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def random_event(rng: random.Random, n: int, rank_by_score: bool = True) -> list[PlayerState]:
    """Players with random, symmetric histories, clubs, factions, byes and tables."""
    density = rng.choice([0.0, 0.1, 0.3, 0.6, 0.95])
    ids = rng.sample(range(1, 10 * n + 10), n)
    scores = {i: rng.choice([0, 1, 3, 4, 6, 7, 9]) for i in ids}
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    for x, a in enumerate(ids):
        for b in ids[x + 1 :]:
            if rng.random() < density:
                opponents[a].add(b)
                opponents[b].add(a)
    clubs, factions = rng.choice(["", "AB", "ABC", "ABCDEFG"]), rng.choice(["", "XY", "XYZ"])
    bye_rate = rng.choice([0.0, 0.3, 1.0])
    tie_order = {i: rng.random() for i in ids}
    if rank_by_score:
        order = sorted(ids, key=lambda i: (-scores[i], tie_order[i]))
    else:
        order = sorted(ids, key=lambda i: tie_order[i])
    return [
        PlayerState(
            id=i,
            score=scores[i],
            rank=order.index(i),
            club=rng.choice(clubs) if clubs else "",
            faction=rng.choice(factions) if factions else "",
            opponents=frozenset(opponents[i]),
            tables=frozenset(rng.sample(range(1, n // 2 + 2), rng.randrange(0, 3))),
            had_bye=rng.random() < bye_rate,
        )
        for i in ids
    ]


def random_settings(rng: random.Random) -> PairingSettings:
    weights = ["ignore", "avoid", "avoid_strongly"]
    return PairingSettings(
        round_number=rng.randrange(1, 9),
        club_weight=rng.choice(weights),
        faction_weight=rng.choice(weights),
        seed=rng.randrange(1 << 30),
        bye_priority=rng.choice(["strict", "soft"]),
    )


def simulated_event(rng: random.Random, n: int, rounds: int):
    """Play ``rounds`` rounds with the engine itself and random results."""
    ids = list(range(1, n + 1))
    club = {i: f"club{rng.randrange(n // 3)}" for i in ids}
    score = dict.fromkeys(ids, 0)
    met_: dict[int, set[int]] = {i: set() for i in ids}
    used: dict[int, set[int]] = {i: set() for i in ids}
    bye = dict.fromkeys(ids, False)
    lot = {i: rng.random() for i in ids}

    def states():
        order = sorted(ids, key=lambda i: (-score[i], lot[i]))
        return [
            PlayerState(i, score[i], k, club[i], "", frozenset(met_[i]), frozenset(used[i]), bye[i])
            for k, i in enumerate(order)
        ]

    for number in range(1, rounds + 1):
        for game in pair_round(states(), PairingSettings(round_number=number)).pairings:
            if len(game.players) == 1:
                score[game.players[0]] += 3
                bye[game.players[0]] = True
                continue
            a, b = game.players
            met_[a].add(b), met_[b].add(a), used[a].add(game.table), used[b].add(game.table)
            winner = rng.choice([a, b, None])
            for p in (a, b):
                score[p] += 1 if winner is None else 3 * (winner == p)
    return states()
