"""A team round as blocks of tables (``events.table_blocks``): one block per team match, with
its teams and their members, its tables and its score so far, and the team standings. The
projector, the results grid, the wall sheets and the mission pack show them; texts in the
active language."""
from __future__ import annotations

from django.utils.translation import gettext as _

from events.models import Game, Round
from events.table_blocks import BlockPlayer, BlockStanding, RoundBlocks, TableBlock
from teams.models import MatchGame, TeamMatch, TeamMember
from teams.services.events import team_event
from teams.services.matches import BYE, COMPLETE, DRAFTING, result, tables, team_standings


def _score(match: TeamMatch, status: str, game_points: dict, match_points: dict,
           confirmed: int, size: int) -> str:
    if status == BYE:
        return _("bye: %(mp)s match points, %(gp)s game points") % {
            "mp": match_points[match.first_id], "gp": game_points[match.first_id]}
    ids = (match.first_id, match.second_id)
    gp = "–".join(str(game_points[i]) for i in ids)
    if status == COMPLETE:
        return _("match points %(mp)s · game points %(gp)s") % {
            "mp": "–".join(str(match_points[i]) for i in ids), "gp": gp}
    if status == DRAFTING and not confirmed:
        return _("draft under way")
    return _("game points %(gp)s so far (%(done)s of %(size)s games)") % {
        "gp": gp, "done": confirmed, "size": size}


def _place(number: int, tables: list[int]) -> str:
    """Where a match's players go before the draft gives each a table; empty: a bye."""
    if not tables:
        return ""
    if len(tables) == 1:
        return _("match %(number)s, table %(table)s") % {"number": number, "table": tables[0]}
    return _("match %(number)s, tables %(first)s–%(last)s") % {
        "number": number, "first": tables[0], "last": tables[-1]}


def _members(matches: list[TeamMatch]) -> dict[int, list[tuple[int, str]]]:
    """Each team's members (player pk, name) in their order, in one query."""
    teams = {team for match in matches for team in match.team_ids}
    members: dict[int, list[tuple[int, str]]] = {}
    for team, player, name in (TeamMember.objects.filter(team_id__in=teams)
                               .order_by("team_id", "position")
                               .values_list("team_id", "player_id", "player__name")):
        members.setdefault(team, []).append((player, name))
    return members


def _block(match: TeamMatch, games: list[Game], settings: dict,
           members: dict[int, list[tuple[int, str]]]) -> TableBlock:
    status, game_points, match_points = result(match, settings, games)
    size = settings["size"]
    confirmed = sum(1 for g in games if g.status == Game.Status.CONFIRMED)
    sides = (match.first.name,) + ((match.second.name,) if match.second_id else ())
    names = {"first": sides[0], "second": sides[-1], "number": match.number}
    if match.second_id is None:
        title = _("Match %(number)s: %(first)s (bye)") % names
        label = _("%(first)s, match %(number)s (bye)") % names
    else:
        title = _("Match %(number)s: %(first)s vs %(second)s") % names
        label = _("%(first)s vs %(second)s, match %(number)s") % names
    seats = tables(match, size)
    players = tuple(BlockPlayer(pk, name, side) for side, team in enumerate(match.team_ids)
                    for pk, name in members.get(team, ()))
    return TableBlock(
        number=match.number, title=title, sides=sides, tables=tuple(seats),
        score=_score(match, status, game_points, match_points, confirmed, size),
        sheet_label=label, place=_place(match.number, seats), players=players)


def round_blocks(round_: Round) -> RoundBlocks:
    """A fixed number of queries whatever the number of matches; the team standings as they
    stood after this round (a wall sheet reprinted later says what it said then)."""
    tournament = round_.tournament
    event = team_event(tournament)
    matches = list(TeamMatch.objects.filter(round=round_).select_related("first", "second")
                   .order_by("number"))
    games: dict[int, list[Game]] = {}
    for link in MatchGame.objects.filter(match__round=round_).select_related("game"):
        games.setdefault(link.match_id, []).append(link.game)
    members = _members(matches)
    blocks = tuple(_block(m, games.get(m.pk, []), event.settings, members) for m in matches)
    lines = tuple(BlockStanding(row["rank"], row["team"]["name"], row["match_points"],
                                _("%(gp)s game points") % {"gp": row["game_points"]})
                  for row in team_standings(tournament, event, round_.number))
    return RoundBlocks(blocks=blocks, standings_title=_("Team standings"),
                       points_label=_("MP"), standings=lines)
