"""The WTC draft of a team match, move by move (api-v1-seasons-teams.md §3).

Each step: both teams commit a defender, then two attackers against the other's defender, then
refuse one of the two attackers offered to them (these three phases are sealed: a commit is
revealed when both teams have made theirs), then tables are chosen in turn. The refused attackers
go back to their pools, except in the last step (3 players left with odd sizes, 4 with even
ones), where they play each other and, with 4 left, the two players left play each other.

The stored moves are the truth: ``replay`` folds them into a ``DraftState``; ``apply`` checks one
more; ``forced_moves`` are the server's own (attackers with no choice, a table with one left),
which the caller stores like any move; ``undo`` drops the last phase. Teams are ids; the first
team of the match is side 0."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from teams.engine.refusals import DraftRefused

ROLL, DEFENDER, ATTACKERS, REFUSAL, TABLE, DONE = "roll", "defender", "attackers", "refusal", "table", "done"
SEALED = (DEFENDER, ATTACKERS, REFUSAL)
PHASES = (ROLL, *SEALED, TABLE, DONE)
COUNTS = {DEFENDER: 1, ATTACKERS: 2, REFUSAL: 1}
ROLE_DEFENDER, ROLE_REFUSED, ROLE_LAST = "defender", "refused", "last"
SIZES = range(3, 9)


@dataclass(frozen=True)
class Setup:
    teams: tuple[int, int]
    rosters: tuple[tuple[int, ...], tuple[int, ...]]
    tables: tuple[int, ...]

    def side(self, team: int) -> int:
        return self.teams.index(team)


@dataclass(frozen=True)
class Move:
    team: int
    phase: str
    players: tuple[int, ...] = ()
    table: int | None = None
    auto: bool = False  # made by the server (auto-pick, or no choice left)
    forced: bool = False  # the server had no choice: undo takes it back with the phase before


@dataclass(frozen=True)
class Commit:
    index: int  # the move's position
    step: int
    move: Move
    revealed_by: int | None  # the move that revealed it (itself for tables), None while sealed


@dataclass(frozen=True)
class Game:
    step: int
    role: str
    players: tuple[int, int]  # (first team's player, second team's player)
    chooser: int | None  # the side that chooses its table; None: the table left
    table: int | None = None


@dataclass(frozen=True)
class DraftState:
    setup: Setup
    phase: str = ROLL
    step: int = 1
    tokens: tuple[int, ...] = ()  # the side holding the token, per step so far
    pools: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # the players each side has left
    commits: tuple[Commit, ...] = ()
    games: tuple[Game, ...] = ()
    moves: int = 0
    opened_by: int | None = None  # the move after which the current phase (or turn) opened

    @property
    def last_step(self) -> bool:
        return len(self.pools[0]) <= 4

    @property
    def token(self) -> int | None:
        return self.setup.teams[self.tokens[-1]] if self.tokens else None

    def step_commits(self, phase: str) -> dict[int, Commit]:
        """This step's commits of ``phase`` by side."""
        return {self.setup.side(c.move.team): c for c in self.commits
                if c.step == self.step and c.move.phase == phase}

    def chosen(self, phase: str, side: int) -> tuple[int, ...]:
        commit = self.step_commits(phase).get(side)
        return commit.move.players if commit else ()

    @property
    def free_tables(self) -> tuple[int, ...]:
        used = {g.table for g in self.games}
        return tuple(t for t in self.setup.tables if t not in used)

    @property
    def next_game(self) -> Game | None:
        return next((g for g in self.games if g.table is None), None)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        teams = self.setup.teams
        if self.phase == ROLL:
            return teams
        if self.phase in SEALED:
            done = self.step_commits(self.phase)
            return tuple(team for side, team in enumerate(teams) if side not in done)
        if self.phase == TABLE:
            game = self.next_game
            side = self.tokens[-1] if game.chooser is None else game.chooser
            return (teams[side],)
        return ()


def start(setup: Setup) -> DraftState:
    size = len(setup.rosters[0])
    if size not in SIZES or len(setup.rosters[1]) != size or len(setup.tables) != size:
        raise ValueError("a draft needs two rosters of 3 to 8 players and as many tables")
    return DraftState(setup, pools=setup.rosters)


def replay(setup: Setup, moves: Sequence[Move]) -> DraftState:
    state = start(setup)
    for move in moves:
        state = apply(state, move)
    return state


def apply(state: DraftState, move: Move) -> DraftState:
    """The state after ``move``, or a ``DraftRefused``."""
    if move.team not in state.setup.teams:
        raise DraftRefused("not_captain", status=403)
    if move.phase != state.phase or state.phase == DONE:
        raise DraftRefused("draft_wrong_phase", status=409, phase=state.phase)
    if move.phase == ROLL:
        side = state.setup.side(move.team)
        return replace(state, phase=DEFENDER, tokens=(side,), moves=state.moves + 1,
                       opened_by=state.moves)
    if move.phase == TABLE:
        return _table(state, move)
    return _sealed(state, move)


def _offered_to(state: DraftState, side: int) -> tuple[int, ...]:
    """The attackers the other side sent against ``side``'s defender."""
    return state.chosen(ATTACKERS, 1 - side)


def allowed_players(state: DraftState, side: int) -> tuple[int, ...]:
    """Whom ``side`` may name in the current sealed phase."""
    if state.phase == REFUSAL:
        return _offered_to(state, side)
    defender = state.chosen(DEFENDER, side)
    return tuple(p for p in state.pools[side] if p not in defender)


def _sealed(state: DraftState, move: Move) -> DraftState:
    side = state.setup.side(move.team)
    if side in state.step_commits(state.phase):
        raise DraftRefused("draft_already_committed", status=409, phase=state.phase)
    expected = COUNTS[state.phase]
    if len(move.players) != expected or move.table is not None:
        raise DraftRefused("draft_player_count", phase=state.phase, count=expected)
    allowed = allowed_players(state, side)
    for player in move.players:
        if player not in allowed or move.players.count(player) > 1:
            raise DraftRefused("draft_player_unavailable", player=player)
    index = state.moves
    commit = Commit(index, state.step, move, None)
    commits = (*state.commits, commit)
    state = replace(state, commits=commits, moves=index + 1)
    if len(state.step_commits(state.phase)) < 2:
        return state
    revealed = tuple(replace(c, revealed_by=index) if c.step == state.step and c.move.phase == state.phase
                     else c for c in commits)
    state = replace(state, commits=revealed, opened_by=index)
    if state.phase == DEFENDER:
        return replace(state, phase=ATTACKERS)
    if state.phase == ATTACKERS:
        return replace(state, phase=REFUSAL)
    return replace(state, phase=TABLE, games=(*state.games, *_step_games(state)))


def _step_games(state: DraftState) -> list[Game]:
    """This step's games in the order their tables are chosen."""
    token = state.tokens[-1]
    defender = [state.chosen(DEFENDER, side)[0] for side in (0, 1)]
    refused = [state.chosen(REFUSAL, side)[0] for side in (0, 1)]  # refused[s]: a player of 1 - s
    accepted = [next(p for p in _offered_to(state, side) if p != refused[side]) for side in (0, 1)]
    # accepted[s]: the other side's attacker who plays side s's defender.
    games = {side: Game(state.step, ROLE_DEFENDER,
                        (defender[0], accepted[0]) if side == 0 else (accepted[1], defender[1]), side)
             for side in (0, 1)}
    ordered = [games[token], games[1 - token]]
    if state.last_step:
        ordered.append(Game(state.step, ROLE_REFUSED, (refused[1], refused[0]), token))
        left = [tuple(p for p in state.pools[side]
                      if p != defender[side] and p not in state.chosen(ATTACKERS, side)) for side in (0, 1)]
        if left[0]:
            ordered.append(Game(state.step, ROLE_LAST, (left[0][0], left[1][0]), None))
    return ordered


def _table(state: DraftState, move: Move) -> DraftState:
    game = state.next_game
    chooser = state.tokens[-1] if game.chooser is None else game.chooser
    if state.setup.side(move.team) != chooser and not move.forced:
        raise DraftRefused("draft_not_your_turn", status=409)
    if move.players or move.table not in state.free_tables:
        raise DraftRefused("draft_table_unavailable", table=move.table, tables=list(state.free_tables))
    index = state.moves
    games = list(state.games)
    games[games.index(game)] = replace(game, table=move.table)
    state = replace(state, games=tuple(games), moves=index + 1, opened_by=index,
                    commits=(*state.commits, Commit(index, state.step, move, index)))
    if state.next_game is not None:
        return state
    if state.last_step:
        return replace(state, phase=DONE)
    return _next_step(state)


def _next_step(state: DraftState) -> DraftState:
    paired = {p for g in state.games for p in g.players}
    pools = tuple(tuple(p for p in pool if p not in paired) for pool in state.pools)
    token = 1 - state.tokens[-1]
    return replace(state, step=state.step + 1, phase=DEFENDER, pools=pools,
                   tokens=(*state.tokens, token))


def forced_moves(state: DraftState) -> list[Move]:
    """The moves the server makes itself now: attackers when exactly two players are left
    besides the defender, a table when one is left."""
    teams = state.setup.teams
    if state.phase == ATTACKERS:
        done = state.step_commits(ATTACKERS)
        return [Move(teams[side], ATTACKERS, allowed_players(state, side), auto=True, forced=True)
                for side in (0, 1) if side not in done and len(allowed_players(state, side)) == 2]
    if state.phase == TABLE and len(state.free_tables) == 1:
        return [Move(state.waiting_for[0], TABLE, table=state.free_tables[0], auto=True, forced=True)]
    return []


def settle(state: DraftState) -> tuple[DraftState, list[Move]]:
    """Apply the server's forced moves until none is left; the state and the moves made."""
    made: list[Move] = []
    while moves := forced_moves(state):
        for move in moves:
            state = apply(state, move)
            made.append(move)
    return state, made


def random_move(state: DraftState, team: int, rng: random.Random) -> Move | None:
    """A random legal move for ``team`` now (auto-pick), or None when it has nothing to do."""
    if team not in state.waiting_for or state.phase in (ROLL, DONE):
        return None
    if state.phase == TABLE:
        return Move(team, TABLE, table=rng.choice(state.free_tables), auto=True)
    allowed = allowed_players(state, state.setup.side(team))
    return Move(team, state.phase, tuple(rng.sample(allowed, COUNTS[state.phase])), auto=True)


def _groups(moves: Sequence[Move]) -> list[list[int]]:
    """Move positions grouped by phase: consecutive moves of one step and phase."""
    state_steps = _steps(moves)
    groups: list[list[int]] = []
    for i, move in enumerate(moves):
        key = (state_steps[i], move.phase)
        if groups and (state_steps[groups[-1][0]], moves[groups[-1][0]].phase) == key:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _steps(moves: Sequence[Move]) -> list[int]:
    """The step of each move (a new step starts with the first defender after a table)."""
    steps, step, previous = [], 1, None
    for move in moves:
        if move.phase == DEFENDER and previous == TABLE:
            step += 1
        steps.append(step)
        previous = move.phase
    return steps


def undo(moves: Sequence[Move]) -> list[Move]:
    """The moves without the last phase a person made (and the server's forced moves after it)."""
    groups = _groups(moves)

    def forced(group: list[int]) -> bool:
        return all(moves[i].forced for i in group)

    while groups and forced(groups[-1]):
        groups.pop()
    if groups:
        groups.pop()
    return [moves[i] for group in groups for i in group]
