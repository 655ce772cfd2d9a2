"""The WTC draft of a team match: moves stored in order under the match's row lock, the
engine's state replayed from them, the games the draft makes kept in step, and what each
reader may see of sealed commits.

Hidden information: a defender, attackers or refusal commit shows its players only to its own
team and staff until the other team has committed the same step and phase; then both carry
the ``revealed_at`` of the move that revealed them."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config import plain_rows
from events import event_cache
from events.audit import Actor, entry, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Game, Round
from teams.engine import draft as engine
from teams.engine.refusals import TeamRefused
from teams.messages import worded
from teams.models import DraftMove, TeamMatch
from teams.services import draft_reads, team_games
from teams.services.draft_reads import Members
from teams.services.matches import tables, visible

SYSTEM_RANDOM = random.SystemRandom()


def _move(row: DraftMove) -> engine.Move:
    return engine.Move(row.team_id, row.phase, tuple(row.players), row.table, row.auto, row.forced)


def _wanted(state: engine.DraftState) -> set[tuple[int, tuple[int, int], str]]:
    """The games the draft has made so far: (table, players, role) of each game with a table."""
    return {(g.table, g.players, g.role) for g in state.games if g.table is not None}


class Draft:
    """A match's draft as stored: its rows and the engine's state. ``members`` and ``rows`` may
    come preloaded (the monitor loads a round's in bulk); otherwise one query loads both."""

    def __init__(self, match: TeamMatch, members: Members | None = None,
                 rows: list[DraftMove] | None = None) -> None:
        settings = match.round.tournament.team_event.settings
        if match.second_id is None or settings["draft"] != "wtc":
            raise Conflict(_("This team match has no draft."), "draft_not_used")
        self.match, self.settings = match, settings
        if members is None or rows is None:
            members, rows = draft_reads.rosters_and_moves(match)
        self.members = members
        rosters = tuple(tuple(player for player, _user in self.members[team]) for team in match.team_ids)
        self.setup = engine.Setup((match.first_id, match.second_id), rosters,
                                  tuple(tables(match, settings["size"])))
        self.rows = rows
        try:
            self.state = engine.replay(self.setup, [_move(r) for r in self.rows])
        except TeamRefused as exc:  # stored moves are always legal: a broken row is a bug
            raise RuntimeError(f"team match {match.pk}: stored draft moves do not replay") from exc
        # The games as stored: every change of the draft's games is synced in the same
        # transaction (sync_games), so they match the state it was loaded with.
        self.synced = _wanted(self.state)

    def team_of_user(self, user_id: int | None, *, captain: bool) -> int | None:
        """The match's team whose captain (or, ``captain=False``, a member) has this account."""
        if user_id is None:
            return None
        for team in (self.match.first, self.match.second):
            for player, user in self.members[team.pk]:
                if user == user_id and (not captain or player == team.captain_id):
                    return team.pk
        return None

    def store(self, actor: Actor, move: engine.Move, rolls: list | None = None) -> None:
        try:
            self.state = engine.apply(self.state, move)
        except TeamRefused as exc:
            raise worded(exc) from exc
        row = DraftMove(
            match=self.match, index=len(self.rows), team_id=move.team, phase=move.phase,
            players=list(move.players), table=move.table, rolls=rolls or [], auto=move.auto,
            forced=move.forced, by=actor.user if actor.user_id and not move.auto else None)
        audited = entry(actor, "draft_auto_pick" if move.auto and not move.forced else "draft_move",
                        self.match.round.tournament, self.match,
                        {"match": self.match.pk, "step": self.state.step, "phase": move.phase,
                         "team": move.team, "players": list(move.players), "table": move.table,
                         "auto": move.auto, "rolls": rolls or []},
                        stale=False)  # no cached page shows a draft's moves; its games: sync_games
        self.rows.append(plain_rows.insert(row, audited))  # one statement: a round trip less

    def settle(self, actor: Actor) -> None:
        while moves := engine.forced_moves(self.state):
            for move in moves:
                self.store(actor, move)
        if _wanted(self.state) != self.synced:  # most moves make no game: no query then
            self.sync_games(actor)

    def opened_at(self) -> datetime:
        index = self.state.opened_by
        return self.match.created_at if index is None else self.rows[index].created_at

    def deadline(self) -> datetime | None:
        if self.state.phase == engine.DONE:
            return None
        return self.opened_at() + timedelta(seconds=self.settings["step_seconds"])

    def overdue(self, now: datetime) -> bool:
        deadline = self.deadline()
        if deadline is None:
            return False
        whole = self.match.created_at + timedelta(seconds=self.settings["draft_seconds"])
        return now > deadline or now > whole

    def sync_games(self, actor: Actor) -> None:
        """The match's games as the draft has them (made when a table is chosen, with its
        table's mission and the pre-game rolls: teams/services/team_games.py)."""
        wanted = _wanted(self.state)
        links = list(self.match.match_games.select_related("game"))
        have = {(mg.game.table, (mg.game.player_a_id, mg.game.player_b_id), mg.role): mg for mg in links}
        for key, link in have.items():
            if key not in wanted:
                if link.game.status != Game.Status.PENDING:
                    raise Conflict(_("A game of this phase already has a result: it cannot be undone."),
                                   "draft_game_reported")
                link.game.delete()
        if wanted != set(have):  # the projector, the grid and the players' pages show games
            event_cache.changed(self.match.round.tournament_id)
        added = sorted(wanted - set(have))
        if added:  # seating reads the round and its event whole (missions, dice, lists)
            self.match.round = Round.objects.select_related("tournament").get(pk=self.match.round_id)
        for table, (a, b), role in added:
            team_games.seat_game(actor, self.match, table, (a, b), role)
        self.synced = wanted


def _loaded(pk: int, actor: Actor, *, lock: bool) -> Draft:
    """Match ``pk``'s draft as this reader may see it (a 404 otherwise); ``lock``: under the
    match's row lock, held to the end of the transaction."""
    return Draft(visible(draft_reads.match(pk, lock=lock), staff=actor.is_staff))


def _locked(pk: int, actor: Actor) -> Draft:
    return _loaded(pk, actor, lock=True)


def _team_of(actor: Actor, draft: Draft) -> int | None:
    """The team of the match whose captain the actor is."""
    return draft.team_of_user(actor.user_id, captain=True)


def _acting_team(actor: Actor, draft: Draft, team: int | None) -> int:
    if actor.is_staff and team is not None:
        if team not in draft.match.team_ids:
            raise Invalid(_("Team %(team)s does not play this match.") % {"team": team}, "team_not_in_match")
        return team
    own = _team_of(actor, draft)
    if own is None:
        if actor.is_staff:
            raise Invalid(_("Staff name the team they commit for (\"team\")."), "team_required")
        raise Forbidden(_("Only a captain of this match's teams can do this."), "not_captain")
    return own


def catch_up(draft: Draft, actor: Actor) -> None:
    """Auto-pick: past the deadline, a random legal choice for each late team (logged auto)."""
    if not draft.settings["auto_pick"]:
        return
    while draft.overdue(timezone.now()):
        if draft.state.phase == engine.ROLL:
            _roll(draft, actor, None, auto=True)
            continue
        for team in draft.state.waiting_for:
            move = engine.random_move(draft.state, team, SYSTEM_RANDOM)
            if move is not None:
                draft.store(actor, move)
        draft.settle(actor)


@transaction.atomic
def commit(actor: Actor, pk: int, *, phase: str, players: list[int] | None = None,
           table: int | None = None, team: int | None = None) -> dict:
    draft = _locked(pk, actor)
    acting = _acting_team(actor, draft, team)
    catch_up(draft, actor)
    draft.store(actor, engine.Move(acting, phase, tuple(players or ()), table))
    draft.settle(actor)
    return draft_data(draft, actor)


def _roll(draft: Draft, actor: Actor, dice: list[int] | None, *, auto: bool = False) -> dict:
    if draft.state.phase != engine.ROLL:
        raise worded(TeamRefused("draft_wrong_phase", status=409, phase=draft.state.phase))
    rolls = [list(dice)] if dice else []
    while not rolls or rolls[-1][0] == rolls[-1][1]:  # ties are rolled again
        rolls.append([SYSTEM_RANDOM.randint(1, 6), SYSTEM_RANDOM.randint(1, 6)])
    winner = draft.match.first_id if rolls[-1][0] > rolls[-1][1] else draft.match.second_id
    draft.store(actor, engine.Move(winner, engine.ROLL, auto=auto), rolls)
    return {"rolls": rolls, "winner": winner}


@transaction.atomic
def roll(actor: Actor, pk: int, dice: list[int] | None = None) -> dict:
    draft = _locked(pk, actor)
    if not actor.is_staff and _team_of(actor, draft) is None:
        raise Forbidden(_("Only a captain of this match's teams can do this."), "not_captain")
    return _roll(draft, actor, dice)


@transaction.atomic
def undo(actor: Actor, pk: int) -> dict:
    if not actor.is_staff:
        raise Forbidden(_("Only the organisers can do this."), "staff_only")
    draft = _locked(pk, actor)
    kept = engine.undo([_move(r) for r in draft.rows])
    if len(kept) == len(draft.rows):
        raise Conflict(_("The draft has no move to undo."), "draft_nothing_to_undo")
    dropped = draft.rows[len(kept):]
    draft.rows = draft.rows[:len(kept)]
    draft.state = engine.replay(draft.setup, kept)
    draft.sync_games(actor)
    DraftMove.objects.filter(pk__in=[r.pk for r in dropped]).delete()
    record(actor, "draft_undone", draft.match.round.tournament, draft.match,
           {"match": draft.match.pk, "moves": [{"phase": r.phase, "team": r.team_id, "players": r.players,
                                                "table": r.table, "auto": r.auto} for r in dropped]})
    return draft_data(draft, actor)


def current(actor: Actor, pk: int) -> Draft:
    """Match ``pk``'s draft as ``actor`` may see it, auto-picks made first when they are due."""
    draft = _loaded(pk, actor, lock=False)
    if draft.settings["auto_pick"] and draft.overdue(timezone.now()):
        with transaction.atomic():
            draft = _locked(pk, actor)
            catch_up(draft, actor)
    return draft


def read(actor: Actor, pk: int) -> dict:
    """GET: the draft as ``actor`` may see it (auto-picks made first when they are due)."""
    return draft_data(current(actor, pk), actor)


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def draft_data(draft: Draft, actor: Actor) -> dict:
    state, rows = draft.state, draft.rows
    viewer = None if actor.is_staff else draft.team_of_user(actor.user_id, captain=False)
    commits = []
    for c in state.commits:
        entry: dict = {"step": c.step, "phase": c.move.phase, "team": c.move.team}
        if c.revealed_by is not None or actor.is_staff or viewer == c.move.team:
            if c.move.phase == engine.TABLE:
                entry["table"] = c.move.table
            else:
                entry["players"] = list(c.move.players)
            if c.move.auto:
                entry["auto"] = True
        if c.revealed_by is not None:
            entry["revealed_at"] = _when(rows[c.revealed_by].created_at)
        commits.append(entry)
    roll_row = next((r for r in rows if r.phase == engine.ROLL), None)
    return {
        "match": draft.match.pk, "step": state.step, "phase": state.phase, "token": state.token,
        "tokens": [draft.setup.teams[side] for side in state.tokens],
        "deadline": _when(draft.deadline()), "overdue": draft.overdue(timezone.now()),
        "waiting_for": list(state.waiting_for), "commits": commits,
        "roll": {"rolls": roll_row.rolls, "winner": roll_row.team_id} if roll_row else None,
        # Public already (what was paired is known): the players each team has left in this
        # step, and the tables not yet chosen.
        "pools": {str(team): list(pool) for team, pool in zip(draft.setup.teams, state.pools, strict=True)},
        "free_tables": list(state.free_tables),
    }
