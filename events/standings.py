"""Pure standings engine: tournament points, tiebreakers and unique ranks from game results.

Conventions (organiser settings where the rules are silent):
- Only the results passed in count; the caller passes confirmed ones.
- A bye adds ``bye_points``: "win" counts it as a won game (in ``wins``), "draw" as a drawn
  one (in ``draws``), an int adds that many points and no game. It is always counted in
  ``byes`` and adds ``bye_vp`` to both VP scored and VP difference. A bye has no opponent,
  so it adds nothing to an opponent-based tiebreaker.
- ``sos``: sum of the tournament points of every opponent met (twice if met twice).
- ``opp_win_rate``: mean over opponents met of their win rate ``(wins + draws / 2) / games``
  (games counted as above), each raised to ``opp_win_rate_floor`` (default 1/3) so one weak
  opponent does not sink a player; 0 with no opponent. Compared exactly, shown to 3 decimals.
- ``vp_diff`` / ``vp_scored``: victory points for minus against / for, summed over games.
- ``head_to_head``: only splits a tie of exactly two players who met (net wins between them);
  a tie of three or more is left to the next tiebreaker, because a mini-table of a subgroup
  depends on games some of them never played.
- Last of all, a stable hash of (seed, player id) makes every rank unique.
- ``extra`` (awards and penalties, per player, possibly negative) is added to the tournament
  points the ranking and ``points`` use, and shown in ``extra``; the tiebreakers stay on game
  points (``sos`` sums the opponents' points from games), because an award is not won against
  an opponent. Players missing from ``extra`` get 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from events.pairing.hashing import stable_key
from events.scoring import Band, tournament_points

Tiebreak = Literal["sos", "opp_win_rate", "vp_diff", "vp_scored", "head_to_head"]
TIEBREAKS: tuple[str, ...] = ("sos", "opp_win_rate", "vp_diff", "vp_scored", "head_to_head")
Key = int | Fraction


@dataclass(frozen=True)
class GameResult:
    """One game (two players) or one bye (one player); ``winner`` None is a draw."""

    round: int
    players: tuple[int, int] | tuple[int]
    winner: int | None = None
    vp: Mapping[int, int] = field(default_factory=dict)  # absent player = 0


@dataclass(frozen=True)
class ScoringSettings:
    """Tournament points and tiebreak order chosen by the organiser."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye_points: Literal["win", "draw"] | int = "win"
    bye_vp: int = 0
    tiebreaks: tuple[str, ...] = ("sos", "opp_win_rate", "vp_diff", "vp_scored")
    seed: int = 0
    opp_win_rate_floor: Fraction = Fraction(1, 3)
    # Scoring ``vp_table``: tournament points from the victory-point difference through these
    # bands (events/scoring.py) instead of win/draw/loss; the first band is a draw.
    vp_bands: tuple[Band, ...] | None = None


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; ``tiebreakers`` lists the configured keys in order."""

    rank: int
    player: int
    points: int
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreakers: Mapping[str, float | int]
    extra: int = 0  # awards minus penalties, already included in ``points``


@dataclass
class _Tally:
    points: int = 0  # from games and byes only
    extra: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    vp_for: int = 0
    vp_against: int = 0
    opponents: list[int] = field(default_factory=list)
    net_against: dict[int, int] = field(default_factory=dict)  # wins minus losses per opponent


def compute_standings(
    player_ids: Sequence[int],
    results: Sequence[GameResult],
    settings: ScoringSettings,
    extra: Mapping[int, int] | None = None,
) -> tuple[StandingRow, ...]:
    """Standings of ``player_ids`` from ``results`` (plus ``extra`` points per player); ranks
    are 1..n and unique."""
    _check_settings(settings)
    tallies = {pid: _Tally() for pid in player_ids}
    if len(tallies) != len(player_ids):
        raise ValueError("player ids must be unique")
    for result in results:
        _record(tallies, result, settings)
    _add_extra(tallies, extra or {})
    keys = _keys(tallies, settings)
    order = _order(tallies, keys, settings)
    return tuple(
        _row(rank, pid, tallies[pid], keys[pid], settings)
        for rank, pid in enumerate(order, start=1)
    )


def _check_settings(settings: ScoringSettings) -> None:
    unknown = set(settings.tiebreaks) - set(TIEBREAKS)
    if unknown:
        raise ValueError(f"unknown tiebreaks: {sorted(unknown)}")
    if len(set(settings.tiebreaks)) != len(settings.tiebreaks):
        raise ValueError("a tiebreak is listed twice")
    if isinstance(settings.bye_points, str) and settings.bye_points not in ("win", "draw"):
        raise ValueError("bye_points must be 'win', 'draw' or an int")


def _add_extra(tallies: dict[int, _Tally], extra: Mapping[int, int]) -> None:
    unknown = sorted(set(extra) - set(tallies))
    if unknown:
        raise ValueError(f"extra points for unknown players {unknown}")
    for pid, points in extra.items():
        tallies[pid].extra = int(points)


def _record(tallies: dict[int, _Tally], result: GameResult, settings: ScoringSettings) -> None:
    unknown = [p for p in result.players if p not in tallies]
    if unknown:
        raise ValueError(f"result of round {result.round} names unknown players {unknown}")
    if len(result.players) == 1:
        _record_bye(tallies[result.players[0]], settings)
        return
    if len(result.players) != 2 or result.players[0] == result.players[1]:
        raise ValueError(f"malformed result in round {result.round}")
    a, b = result.players
    if result.winner is not None and result.winner not in (a, b):
        raise ValueError(f"winner {result.winner} did not play in that game")
    for me, them in ((a, b), (b, a)):
        _record_game(tallies[me], me, them, result, settings)


def _record_bye(tally: _Tally, settings: ScoringSettings) -> None:
    tally.byes += 1
    tally.vp_for += settings.bye_vp
    bands = settings.vp_bands
    if settings.bye_points == "win":
        tally.wins += 1
        # With a band table a bye won is the widest win: the last band's winner points.
        tally.points += bands[-1].winner_tp if bands else settings.win
    elif settings.bye_points == "draw":
        tally.draws += 1
        tally.points += bands[0].winner_tp if bands else settings.draw
    else:
        tally.points += int(settings.bye_points)


def _record_game(
    tally: _Tally, me: int, them: int, result: GameResult, settings: ScoringSettings
) -> None:
    tally.opponents.append(them)
    tally.vp_for += result.vp.get(me, 0)
    tally.vp_against += result.vp.get(them, 0)
    if settings.vp_bands:
        outcome = _record_by_table(tally, result.vp.get(me, 0), result.vp.get(them, 0), settings.vp_bands)
    elif result.winner is None:
        tally.draws += 1
        tally.points += settings.draw
        outcome = 0
    elif result.winner == me:
        tally.wins += 1
        tally.points += settings.win
        outcome = 1
    else:
        tally.losses += 1
        tally.points += settings.loss
        outcome = -1
    tally.net_against[them] = tally.net_against.get(them, 0) + outcome


def _record_by_table(tally: _Tally, mine: int, theirs: int, bands: tuple[Band, ...]) -> int:
    """Tournament points from the band of the difference; a win, draw or loss as the band says."""
    scored = tournament_points((mine, theirs), bands)
    tally.points += scored.points[0]
    if scored.draw:
        tally.draws += 1
        return 0
    if mine > theirs:
        tally.wins += 1
        return 1
    tally.losses += 1
    return -1


def _win_rate(tally: _Tally, floor: Fraction) -> Fraction:
    games = tally.wins + tally.draws + tally.losses
    rate = Fraction(2 * tally.wins + tally.draws, 2 * games) if games else Fraction(0)
    return max(rate, floor)


def _keys(tallies: dict[int, _Tally], settings: ScoringSettings) -> dict[int, dict[str, Key]]:
    """Per player, the exact value of every per-player tiebreaker."""
    rates = {pid: _win_rate(t, settings.opp_win_rate_floor) for pid, t in tallies.items()}
    keys: dict[int, dict[str, Key]] = {}
    for pid, tally in tallies.items():
        opponents = tally.opponents
        keys[pid] = {
            "sos": sum(tallies[o].points for o in opponents),
            "opp_win_rate": (
                sum((rates[o] for o in opponents), Fraction(0)) / len(opponents)
                if opponents
                else Fraction(0)
            ),
            "vp_diff": tally.vp_for - tally.vp_against,
            "vp_scored": tally.vp_for,
            "head_to_head": 0,  # filled in by _order for the pairs it separates
        }
    return keys


def _order(
    tallies: dict[int, _Tally], keys: dict[int, dict[str, Key]], settings: ScoringSettings
) -> list[int]:
    """Players best first: points (extra included), the tiebreakers in order, then the seeded
    lot."""
    groups = _split(list(tallies), lambda pid: tallies[pid].points + tallies[pid].extra)
    for name in settings.tiebreaks:
        if name == "head_to_head":
            groups = [part for g in groups for part in _head_to_head(g, tallies, keys)]
        else:
            groups = [part for g in groups for part in _split(g, lambda pid, n=name: keys[pid][n])]
    lot = {pid: stable_key(settings.seed, "standings", pid) for pid in tallies}
    return [pid for g in groups for pid in sorted(g, key=lambda pid: (lot[pid], pid))]


def _split(group: list[int], key: Callable[[int], Key]) -> list[list[int]]:
    """Sort a group best (largest key) first and cut it where the key changes."""
    if len(group) < 2:
        return [group]
    ordered = sorted(group, key=key, reverse=True)
    parts: list[list[int]] = [[ordered[0]]]
    for pid in ordered[1:]:
        if key(pid) == key(parts[-1][0]):
            parts[-1].append(pid)
        else:
            parts.append([pid])
    return parts


def _head_to_head(
    group: list[int], tallies: dict[int, _Tally], keys: dict[int, dict[str, Key]]
) -> list[list[int]]:
    if len(group) != 2:
        return [group]
    a, b = group
    net = tallies[a].net_against.get(b, 0)
    if net == 0:
        return [group]
    keys[a]["head_to_head"], keys[b]["head_to_head"] = net, -net
    return [[a], [b]] if net > 0 else [[b], [a]]


def _row(
    rank: int, pid: int, tally: _Tally, key: dict[str, Key], settings: ScoringSettings
) -> StandingRow:
    shown: dict[str, float | int] = {}
    for name in settings.tiebreaks:
        value = key[name]
        shown[name] = round(float(value), 3) if isinstance(value, Fraction) else int(value)
    return StandingRow(
        rank=rank,
        player=pid,
        points=tally.points + tally.extra,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        byes=tally.byes,
        tiebreakers=shown,
        extra=tally.extra,
    )
