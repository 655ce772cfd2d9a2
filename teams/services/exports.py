"""A team event's data to take away: team standings and every team-match game as CSV sheets
(spreadsheet-safe cells, events.services.exports.to_csv), a fixed number of queries; and one
team match as JSON (teams, lists, tables, the draft log as the reader may see it)."""
from __future__ import annotations

from typing import Any

from events.audit import Actor
from events.models import Player, Tournament
from events.services.exports import to_csv
from events.services.lists import may_read
from teams.engine import scoring
from teams.models import MatchGame, TeamEvent, TeamMatch, TeamMember
from teams.services import drafts
from teams.services.events import game_table
from teams.services.matches import get_match, match_data, team_standings

STANDINGS_HEADER = ["rank", "team", "match_points", "game_points", "played", "byes"]
GAMES_HEADER = ["round", "match", "team_a", "team_b", "table", "role", "player_a", "player_b", "status",
                "vp_a", "vp_b", "gp_a", "gp_b"]


def standings_csv(tournament: Tournament, event: TeamEvent) -> str:
    rows = [[line["rank"], line["team"]["name"], line["match_points"], line["game_points"], line["played"],
             line["byes"]] for line in team_standings(tournament, event)]
    return to_csv(STANDINGS_HEADER, rows)


def games_csv(tournament: Tournament, event: TeamEvent) -> str:
    """One line per game of a team match (game points once confirmed); a bye on a line of its own."""
    table = game_table(event.settings)
    links = (MatchGame.objects.filter(match__round__tournament=tournament)
             .select_related("match__round", "match__first", "match__second", "game__player_a", "game__player_b"))
    rows: list[list[Any]] = []
    for link in links:
        match, game = link.match, link.game
        vp = game.victory_points or {}
        vp_a, vp_b = vp.get(str(game.player_a_id)), vp.get(str(game.player_b_id))
        gp = (scoring.game_points(table, int(vp_a or 0), int(vp_b or 0))
              if game.status == game.Status.CONFIRMED else (None, None))
        rows.append([match.round.number, match.number, match.first.name, match.second.name, game.table,
                     link.role or None, game.player_a.name, game.player_b.name, game.status, vp_a, vp_b, *gp])
    for match in TeamMatch.objects.filter(round__tournament=tournament, second=None).select_related("round", "first"):
        rows.append([match.round.number, match.number, match.first.name, None, None, "bye", None, None, None,
                     None, None, event.size * event.settings["bye"]["game_points_per_game"], None])
    rows.sort(key=lambda r: (r[0], r[1], r[4] or 0))
    return to_csv(GAMES_HEADER, rows)


# A team match as JSON, for pairing-matrix tools ----------------------------------------------

MATCH_FORMAT = "muster-team-match"


def _army_list(actor: Actor, player: Player, tournament: Tournament) -> dict[str, Any] | None:
    """The player's main list, if the reader may read it (events.services.lists.may_read)."""
    if not may_read(actor, player, tournament):
        return None
    head = next((pl for pl in player.lists.all() if pl.role == ""), None)
    if head is None:
        return None
    army = head.army_list
    return {"name": army.name, "chart": army.chart.slug, "points_limit": army.points_limit,
            "total_points": army.total_points, "valid": army.valid, "entries": army.entries}


def match_document(actor: Actor, pk: int) -> dict[str, Any]:
    """One team match: its teams with their players and lists (as the reader may read them), its
    tables and games, and its draft log as the reader may see it: sealed commits show their
    players only to their own team and staff (``drafts.draft_data``)."""
    match = get_match(pk, staff=actor.is_staff)
    tournament = match.round.tournament
    settings = tournament.team_event.settings
    draft = None
    if match.second_id is not None and settings["draft"] == "wtc":
        draft = drafts.read(actor, pk)
    members = (TeamMember.objects.filter(team_id__in=match.team_ids)
               .select_related("player").prefetch_related("player__lists__army_list__chart")
               .order_by("team_id", "position"))
    by_team: dict[int, list[dict[str, Any]]] = {}
    for m in members:
        by_team.setdefault(m.team_id, []).append({
            "id": m.player_id, "name": m.player.name, "faction": m.player.faction or None,
            "position": m.position, "list": _army_list(actor, m.player, tournament)})
    teams = [t for t in (match.first, match.second) if t is not None]
    return {
        "format": MATCH_FORMAT, "version": 1,
        "event": {"slug": tournament.slug, "name": tournament.name, "size": settings["size"],
                  "draft": settings["draft"]},
        "match": match_data(match, settings),
        "teams": [{"id": t.pk, "name": t.name, "captain": t.captain_id, "players": by_team.get(t.pk, [])}
                  for t in teams],
        "draft": draft,
    }
