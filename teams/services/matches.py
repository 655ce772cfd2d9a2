"""Team matches as the API shows them: their games, game points from the confirmed games'
victory-point differences, match points once every game is confirmed; team standings."""
from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext as _

from events.errors import NotFound
from events.models import Game, Round, Tournament
from teams.engine import scoring
from teams.engine.standings import Played, standings
from teams.models import MatchGame, Team, TeamEvent, TeamMatch
from teams.services.events import game_table, result_rules

DRAFTING, PLAYING, COMPLETE, BYE = "drafting", "playing", "complete", "bye"


def visible(match: TeamMatch | None, *, staff: bool = False) -> TeamMatch:
    """``match`` if this reader may see it (players: a published round of a published event),
    else the refusal for a match that does not exist."""
    hidden = match is None or (not staff and (match.round.status == Round.Status.DRAFT
                                              or match.round.tournament.status == Tournament.Status.DRAFT))
    if hidden:
        raise NotFound(_("No such team match."), "team_match_not_found")
    return match


def get_match(pk: int, *, staff: bool = False) -> TeamMatch:
    return visible(TeamMatch.objects.select_related("round__tournament", "first", "second")
                   .filter(pk=pk).first(), staff=staff)


def tables(match: TeamMatch, size: int) -> list[int]:
    return [] if match.first_table is None else list(range(match.first_table, match.first_table + size))


def match_games(match: TeamMatch) -> list[MatchGame]:
    return sorted(match.match_games.select_related("game"), key=lambda mg: (mg.game.table or 0, mg.pk))


def _summed(settings: dict, games: list[Game]) -> tuple[int, int, int]:
    """Both teams' game points over the confirmed games, and how many games are confirmed."""
    table = game_table(settings)
    first = second = confirmed = 0
    for game in games:
        if game.status != Game.Status.CONFIRMED or game.player_b_id is None:
            continue
        vp = game.victory_points or {}
        a, b = scoring.game_points(table, int(vp.get(str(game.player_a_id), 0)),
                                   int(vp.get(str(game.player_b_id), 0)))
        first, second, confirmed = first + a, second + b, confirmed + 1
    return first, second, confirmed


def result(match: TeamMatch, settings: dict, games: list[Game]) -> tuple[str, dict, dict]:
    """The match's status, game points and match points (keyed by team id)."""
    size = settings["size"]
    if match.second_id is None:
        bye = settings["bye"]
        return BYE, {match.first_id: size * bye["game_points_per_game"]}, {match.first_id: bye["match_points"]}
    first, second, confirmed = _summed(settings, games)
    if confirmed < size:
        status = DRAFTING if len(games) < size else PLAYING
        return status, {match.first_id: first, match.second_id: second}, {match.first_id: 0, match.second_id: 0}
    outcome = scoring.match_result(first, second, result_rules(settings))
    ids = (match.first_id, match.second_id)
    return (COMPLETE, dict(zip(ids, outcome.game_points, strict=True)),
            dict(zip(ids, outcome.match_points, strict=True)))


def match_data(match: TeamMatch, settings: dict) -> dict:
    links = match_games(match)
    status, game_points, match_points = result(match, settings, [mg.game for mg in links])
    return {
        "id": match.pk, "round": match.round.number, "number": match.number,
        "teams": match.team_ids, "tables": tables(match, settings["size"]),
        "games": [{"id": mg.game_id, "table": mg.game.table, "players": list(mg.game.player_ids),
                   "role": mg.role or None, "status": mg.game.status} for mg in links],
        "game_points": {str(k): v for k, v in game_points.items()},
        "match_points": {str(k): v for k, v in match_points.items()},
        "status": status,
    }


class Outcome(NamedTuple):
    """A match and its ``result``."""

    match: TeamMatch
    status: str
    game_points: dict
    match_points: dict


# What ``result`` reads of a game: an event's earlier games are read without their rolls and
# other JSON (decoding them was most of pairing a round, issue #26).
RESULT_FIELDS = ("game", "game__status", "game__player_a", "game__player_b", "game__victory_points")


def outcomes(tournament: Tournament, settings: dict, up_to: int | None = None) -> list[Outcome]:
    """Every match of the event (of rounds up to ``up_to``) with its result, in two queries."""
    matches = TeamMatch.objects.filter(round__tournament=tournament)
    if up_to is not None:
        matches = matches.filter(round__number__lte=up_to)
    matches = list(matches.order_by("round__number", "number"))
    games: dict[int, list[Game]] = {}
    for link in (MatchGame.objects.filter(match__in=matches).select_related("game")
                 .only("match", *RESULT_FIELDS)):
        games.setdefault(link.match_id, []).append(link.game)
    return [Outcome(match, *result(match, settings, games.get(match.pk, []))) for match in matches]


def played(tournament: Tournament, settings: dict, up_to: int | None = None,
           known: list[Outcome] | None = None) -> list[Played]:
    """Every finished match and bye of the event (of rounds up to ``up_to``), as standings
    count them; from ``known`` outcomes when the caller has read them."""
    done = []
    for match, status, game_points, match_points in known if known is not None else outcomes(
            tournament, settings, up_to):
        if status in (COMPLETE, BYE):
            ids = match.team_ids
            done.append(Played(match.first_id, match.second_id,
                               tuple(game_points[i] for i in ids) + (0,) * (2 - len(ids)),
                               tuple(match_points[i] for i in ids) + (0,) * (2 - len(ids))))
    return done


def team_standings(tournament: Tournament, event: TeamEvent, up_to: int | None = None) -> list[dict]:
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament)}
    lines = standings(teams, played(tournament, event.settings, up_to))
    return [{"rank": line.rank, "team": {"id": line.team, "name": teams[line.team].name},
             "match_points": line.match_points, "game_points": line.game_points,
             "played": line.played, "byes": line.byes} for line in lines]
