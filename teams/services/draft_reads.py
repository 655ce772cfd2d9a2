"""What a draft reads, in two plain queries: the match with its round and event (under the match's
row lock for a commit), then both teams with their rosters and accounts, and the moves.

A commit is the hot path of a team round (every captain at once; each captain's phone also
polls the draft): the ORM compiled these queries anew on every call, which cost more than
running them (benchmarks/teams.py). The SQL is put together once per process and kept prepared
on each PostgreSQL connection (config/plain_rows.py); the instances are the ORM's own, with every
field not read deferred."""
from __future__ import annotations

from functools import cache

from django.db import connection

from config.plain_rows import Part, select, split
from config.plain_rows import cursor as plain_cursor
from events.models import Player, Round, Tournament
from teams.models import DraftMove, Team, TeamEvent, TeamMatch, TeamMember

MATCH = Part(TeamMatch, "m", ("id", "round_id", "number", "first_id", "second_id", "first_table", "created_at"))
ROUND = Part(Round, "r", ("id", "number", "status", "tournament_id"))
TOURNAMENT = Part(Tournament, "t", ("id", "status", "slug"))
EVENT = Part(TeamEvent, "e", ("id", "tournament_id", "settings"))
MATCH_PARTS = (MATCH, ROUND, TOURNAMENT, EVENT)
MOVE = Part(DraftMove, "d", ("id", "match_id", "index", "team_id", "phase", "players", "table", "rolls",
                             "auto", "forced", "by_id", "created_at"))

Members = dict[int, list[tuple[int, int | None]]]  # team -> its members (player, account) in order


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@cache
def _match_sql(lock: bool, skip_locked: bool = False) -> str:
    # Four tables: PostgreSQL plans every statement anew (client-side binding), and planning a
    # join costs more with each table than running it here; the teams come with the rosters.
    sql = (f"{select(MATCH_PARTS)} FROM {MATCH.table()}"
           f" JOIN {ROUND.table()} ON r.id = m.round_id"
           f" JOIN {TOURNAMENT.table()} ON t.id = r.tournament_id"
           f" JOIN {EVENT.table()} ON e.tournament_id = t.id"
           " WHERE m.id = %s")
    if lock:
        sql += " FOR UPDATE OF m"  # the match's row only: its teams and event stay free
        if skip_locked:
            sql += " SKIP LOCKED"
    return sql


def match(pk: int, *, lock: bool = False, skip_locked: bool = False) -> TeamMatch | None:
    """Match ``pk`` with its round and event (``round.tournament.team_event``), or None; its
    teams come with ``rosters_and_moves``. ``skip_locked`` (with ``lock``): None also when
    another transaction holds the match's lock, rather than waiting for it."""
    with plain_cursor() as cursor:
        # SQLite has no row locks (its writes queue): plain read there.
        lock = lock and connection.features.has_select_for_update_of
        cursor.execute(_match_sql(lock, skip_locked and lock), [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    found, round_, tournament, event = split(MATCH_PARTS, row)
    tournament.team_event = event
    round_.tournament = tournament
    found.round = round_
    return found


@cache
def _rosters_and_moves_sql(teams: int) -> str:
    # One statement, one round trip: the members (kind 0) and the moves (kind 1), padded to
    # the same columns. Read after the match's lock, so the moves are the latest committed.
    pad = ", ".join(["NULL"] * len(MOVE.fields))
    marks = ", ".join(["%s"] * teams)
    return (f"SELECT 0, tm.team_id, tm.position, tm.player_id, p.user_id, g.name, g.captain_id, {pad}"
            f" FROM {_table(TeamMember)} tm JOIN {_table(Player)} p ON p.id = tm.player_id"
            f" JOIN {_table(Team)} g ON g.id = tm.team_id WHERE tm.team_id IN ({marks})"
            f" UNION ALL SELECT 1, NULL, d.{connection.ops.quote_name('index')}, NULL, NULL, NULL, NULL,"
            f" {', '.join(MOVE.columns())} FROM {MOVE.table()} WHERE d.match_id = %s"
            " ORDER BY 1, 2, 3")


def rosters_and_moves(found: TeamMatch) -> tuple[Members, list[DraftMove]]:
    """Both teams' members in order with their accounts and the match's moves in order; the
    teams themselves (name, captain) set on the match as ``first`` and ``second``."""
    ids = found.team_ids
    with plain_cursor() as cursor:
        cursor.execute(_rosters_and_moves_sql(len(ids)), [*ids, found.pk])
        rows = cursor.fetchall()
    members: Members = {team: [] for team in ids}
    teams: dict[int, Team] = {}
    moves = []
    for kind, team, _order, player, user, name, captain, *move in rows:
        if kind:
            moves.append(MOVE.build(move))
            continue
        members[team].append((player, user))
        if team not in teams:
            teams[team] = Team.from_db(connection.alias, ["id", "name", "captain_id"], [team, name, captain])
    for side, team in (("first", found.first_id), ("second", found.second_id)):
        if team in teams:  # a team with no member (never registered so) is read when asked
            setattr(found, side, teams[team])
    return members, moves


def members_of(team_ids: list[int]) -> Members:
    """Teams' members in order with their accounts (the rosters; who is captain or member of
    which side)."""
    members: Members = {team: [] for team in team_ids}
    if not team_ids:
        return members
    marks = ", ".join(["%s"] * len(team_ids))
    with plain_cursor() as cursor:
        cursor.execute(f"SELECT tm.team_id, tm.player_id, p.user_id FROM {_table(TeamMember)} tm"
                       f" JOIN {_table(Player)} p ON p.id = tm.player_id WHERE tm.team_id IN ({marks})"
                       " ORDER BY tm.team_id, tm.position", list(team_ids))
        for team, player_id, user in cursor.fetchall():
            members[team].append((player_id, user))
    return members
