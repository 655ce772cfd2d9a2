"""An event as data to take away: one JSON document, and CSV sheets for spreadsheets.

Plain functions returning a dict or CSV text; the admin (or any view) serves them. Each runs a
fixed number of queries whatever the number of players, rounds or games."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from events.models import Game, Tournament
from events.services import backup
from events.services.standings import registration_numbers, standings

# A cell starting with one of these is run as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def event_data(tournament: Tournament) -> dict[str, Any]:
    """The whole event (``backup.event_document``, which an import reads back) with its
    standings for readers (an import ignores them: they follow from the results)."""
    return {**backup.event_document(tournament), "standings": standings_data(tournament)}


def _number(value: Any) -> int | float:
    return value if isinstance(value, int) else float(value)


def standings_data(tournament: Tournament) -> list[dict[str, Any]]:
    """Best first; each player by name and by the ``ref`` the event document gives them."""
    rows = standings(tournament)
    refs = registration_numbers(player.pk for _row, player in rows)
    return [
        {"rank": row.rank, "player": {"ref": refs[player.pk], "name": player.name},
         "points": row.points,
         "wins": row.wins, "draws": row.draws, "losses": row.losses, "byes": row.byes,
         "tiebreakers": {k: _number(v) for k, v in row.tiebreakers.items()}}
        for row, player in rows
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
