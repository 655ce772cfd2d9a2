"""Game points and match results of team events (api-v1-seasons-teams.md §3).

A game-points table is rows ``(min_diff, max_diff, winner_gp, loser_gp)`` over the difference of
victory points; ``max_diff`` None is open-ended. A difference past the last row takes the last
row (a table whose last row stops at 50 still scores 60)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from teams.engine.refusals import TeamRefused

SUM, CUTOFF, CLAMP = "sum", "cutoff", "clamp"
MODES = (SUM, CUTOFF, CLAMP)
WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class Row:
    low: int
    high: int | None
    winner: int
    loser: int


def gt20() -> tuple[Row, ...]:
    """0–5 → 10–10, 6–10 → 11–9, …, 46–50 → 19–1, 51 and more → 20–0."""
    rows = [Row(0, 5, 10, 10)]
    rows += [Row(5 * k + 1, 5 * k + 5, 10 + k, 10 - k) for k in range(1, 10)]
    return (*rows, Row(51, None, 20, 0))


PRESETS = {"gt-20": gt20}


def table_from(rows: Sequence[Sequence[int | None]]) -> tuple[Row, ...]:
    """A table from the API's ``[[min_diff, max_diff, winner_gp, loser_gp], ...]``: rows from 0
    upwards, each starting one past the previous one's end, only the last may be open-ended."""
    if not rows:
        raise TeamRefused("team_game_table", reason="empty")
    table = []
    expected = 0
    for number, raw in enumerate(rows, start=1):
        if len(raw) != 4 or any(v is not None and not isinstance(v, int) for v in raw) or None in (
                raw[0], raw[2], raw[3]):
            raise TeamRefused("team_game_table", reason="shape", row=number)
        row = Row(*raw)
        last = number == len(rows)
        if row.low != expected or (row.high is None and not last) or (
                row.high is not None and row.high < row.low) or min(row.winner, row.loser) < 0:
            raise TeamRefused("team_game_table", reason="rows", row=number)
        expected = (row.high or 0) + 1
        table.append(row)
    return tuple(table)


def game_points(table: Sequence[Row], vp_first: int, vp_second: int) -> tuple[int, int]:
    """Both players' game points for one game, from the difference of their victory points."""
    diff = abs(vp_first - vp_second)
    row = next((r for r in table if r.low <= diff and (r.high is None or diff <= r.high)), table[-1])
    if vp_first >= vp_second:
        return row.winner, row.loser
    return row.loser, row.winner


@dataclass(frozen=True)
class ResultRules:
    mode: str = SUM
    win_at: int | None = None
    loss_at: int | None = None
    cap: int | None = None
    floor: int | None = None
    win_points: int = 2
    draw_points: int = 1
    loss_points: int = 0

    def points(self, outcome: str) -> int:
        return {WIN: self.win_points, DRAW: self.draw_points, LOSS: self.loss_points}[outcome]


@dataclass(frozen=True)
class MatchResult:
    game_points: tuple[int, int]  # what standings count (clamped in ``clamp`` mode)
    outcomes: tuple[str, str]
    match_points: tuple[int, int]


def _compare(first: int, second: int) -> tuple[str, str]:
    if first == second:
        return DRAW, DRAW
    return (WIN, LOSS) if first > second else (LOSS, WIN)


def _cutoff(points: int, rules: ResultRules) -> str:
    if rules.win_at is not None and points >= rules.win_at:
        return WIN
    if rules.loss_at is not None and points <= rules.loss_at:
        return LOSS
    return DRAW


def match_result(first: int, second: int, rules: ResultRules) -> MatchResult:
    """A team match from both teams' summed game points, by the event's result mode."""
    if rules.mode == CLAMP:
        low = rules.floor if rules.floor is not None else 0
        high = rules.cap
        first, second = (max(low, p) if high is None else min(high, max(low, p))
                         for p in (first, second))
        outcomes = _compare(first, second)
    elif rules.mode == CUTOFF:
        outcomes = (_cutoff(first, rules), _cutoff(second, rules))
    else:
        outcomes = _compare(first, second)
    return MatchResult((first, second), outcomes, (rules.points(outcomes[0]), rules.points(outcomes[1])))
