"""An event as data to take away: one JSON document, and CSV sheets for spreadsheets.

Plain functions returning a dict or CSV text; the admin (or any view) serves them. Each runs a
fixed number of queries whatever the number of players, rounds or games."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from league.models import Game, Player, PlayerList, Report, Round, Tournament
from league.services.standings import standings

FORMAT = "muster-event"
VERSION = 1
# A cell starting with one of these is run as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def event_data(tournament: Tournament) -> dict[str, Any]:
    """Everything about the event: settings, players with their lists, rounds, games, every
    report, and the standings."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament_data(tournament),
        "players": players_data(tournament),
        "rounds": rounds_data(tournament),
        "standings": standings_data(tournament),
    }


def tournament_data(t: Tournament) -> dict[str, Any]:
    return {
        "slug": t.slug, "name": t.name, "status": t.status, "chart": t.chart.slug,
        "points_limit": t.points_limit, "level": t.level.slug, "rounds": t.rounds,
        "on_six": t.on_six, "missions": t.missions, "starts_on": _iso(t.starts_on),
        "list_deadline": _iso(t.list_deadline), "lists_published": t.lists_published,
        "require_check_in": t.require_check_in, "win_points": t.win_points,
        "draw_points": t.draw_points, "loss_points": t.loss_points, "bye_points": t.bye_points,
        "tiebreaks": list(t.tiebreaks), "bye_priority": t.bye_priority,
        "club_weight": t.club_weight, "faction_weight": t.faction_weight,
        "language": t.language, "seed": t.seed, "created_at": _iso(t.created_at),
    }


def players_data(tournament: Tournament) -> list[dict[str, Any]]:
    current = PlayerList.objects.select_related("army_list__chart").order_by("role")
    players = tournament.players.select_related("user").prefetch_related(
        Prefetch("lists", queryset=current))
    return [_player(p) for p in players]


def _player(p: Player) -> dict[str, Any]:
    return {
        "id": p.pk, "name": p.name, "club": p.club, "faction": p.faction,
        "username": p.user.get_username() if p.user else None,
        "checked_in": p.checked_in, "dropped": p.dropped, "list_unlocked": p.list_unlocked,
        "registered_at": _iso(p.created_at),
        "lists": [_list(row) for row in p.lists.all()],
    }


def _list(row: PlayerList) -> dict[str, Any]:
    army = row.army_list
    return {
        "role": row.role or None, "id": army.pk, "chart": army.chart.slug,
        "points_limit": army.points_limit, "total_points": army.total_points,
        "valid": army.valid, "source_format": army.source_format, "entries": army.entries,
        "report": army.report, "updated_at": _iso(row.updated_at),
    }


def rounds_data(tournament: Tournament) -> list[dict[str, Any]]:
    reports = Report.objects.select_related("reporter", "confirmed_by")
    games = Game.objects.select_related("mission").prefetch_related(
        Prefetch("reports", queryset=reports))
    rounds = tournament.round_set.select_related("mission").prefetch_related(
        Prefetch("games", queryset=games))
    return [_round(r) for r in rounds]


def _round(r: Round) -> dict[str, Any]:
    return {
        "number": r.number, "status": r.status,
        "mission": r.mission.slug if r.mission else None, "rolls": r.rolls, "pairing": r.pairing,
        "paired_at": _iso(r.created_at), "published_at": _iso(r.published_at),
        "games": [_game(g) for g in r.games.all()],
    }


def _game(g: Game) -> dict[str, Any]:
    return {
        "id": g.pk, "table": g.table, "players": list(g.player_ids),
        "mission": g.mission.slug if g.mission else None, "roles": g.roles, "pregame": g.pregame,
        "rolls": g.rolls, "deviations": g.deviations, "list_problems": g.list_problems,
        "status": g.status, "winner": g.winner_id, "victory_points": g.victory_points,
        "reports": [_report(rep) for rep in g.reports.all()],
    }


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _report(rep: Report) -> dict[str, Any]:
    return {
        "id": rep.pk, "by_player": rep.by_player_id, "by_staff": rep.by_staff,
        "reporter": _username(rep.reporter), "status": rep.status, "winner": rep.winner_id,
        "outcome": rep.outcome, "victory_points": rep.victory_points,
        "stratagems": rep.stratagems, "comment": rep.comment, "reported_at": _iso(rep.created_at),
        "confirmed_by": _username(rep.confirmed_by), "confirmed_at": _iso(rep.confirmed_at),
    }


def _number(value: Any) -> int | float:
    return value if isinstance(value, int) else float(value)


def standings_data(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"rank": row.rank, "player": {"id": player.pk, "name": player.name}, "points": row.points,
         "wins": row.wins, "draws": row.draws, "losses": row.losses, "byes": row.byes,
         "tiebreakers": {k: _number(v) for k, v in row.tiebreakers.items()}}
        for row, player in standings(tournament)
    ]


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text, never runs as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return "" if value is None else value


def to_csv(header: Sequence[str], rows: Iterable[Sequence[Any]], delimiter: str = ",") -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([safe_cell(v) for v in row] for row in rows)
    return out.getvalue()


def standings_csv(tournament: Tournament, delimiter: str = ",") -> str:
    """One line per player, best first, with the tiebreakers in the tournament's order."""
    tiebreaks = list(tournament.tiebreaks)
    header = ["rank", "player", "club", "faction", "points", "wins", "draws", "losses", "byes",
              *tiebreaks]
    rows = [
        [row.rank, player.name, player.club, player.faction, row.points, row.wins, row.draws,
         row.losses, row.byes, *(_number(row.tiebreakers.get(k, 0)) for k in tiebreaks)]
        for row, player in standings(tournament)
    ]
    return to_csv(header, rows, delimiter)


PAIRING_HEADER = ["round", "round_status", "table", "player_a", "club_a", "role_a", "player_b",
                  "club_b", "role_b", "mission", "status", "winner", "vp_a", "vp_b"]


def pairings_csv(tournament: Tournament, number: int | None = None, delimiter: str = ",") -> str:
    """One line per game (a bye has no table and no second player), round by round."""
    games = Game.objects.filter(round__tournament=tournament).select_related(
        "round", "mission", "player_a", "player_b", "winner").order_by("round__number", "table", "pk")
    if number is not None:
        games = games.filter(round__number=number)
    return to_csv(PAIRING_HEADER, (_pairing_row(g) for g in games), delimiter)


def _pairing_row(g: Game) -> list[Any]:
    a, b = g.player_a, g.player_b
    vp = g.victory_points or {}
    return [
        g.round.number, g.round.status, g.table, a.name, a.club, g.roles.get(str(a.pk)),
        b.name if b else None, b.club if b else None, g.roles.get(str(b.pk)) if b else None,
        g.mission.name if g.mission else None, g.status, g.winner.name if g.winner else None,
        vp.get(str(a.pk)), vp.get(str(b.pk)) if b else None,
    ]
