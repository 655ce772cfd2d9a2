"""A round of a team event: team Swiss on the standings, one team match per pair of teams on
tables ``(k−1)·size + 1 … k·size``; without a draft the games are made at once."""
from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.gc_pause import gc_paused
from events import event_cache
from events.audit import Actor, record
from events.errors import Conflict
from events.models import Round, Tournament
from events.services.tournaments import advance, locked_tournament, require_staff
from teams import notice_letters as notices
from teams.engine import swiss
from teams.engine.standings import standings
from teams.models import Team, TeamMatch
from teams.services import matches as match_service
from teams.services import team_games
from teams.services.events import team_event

Status = Tournament.Status
PAIRABLE = (Status.REGISTRATION_OPEN, Status.LISTS_LOCKED, Status.RUNNING)


def _check(locked: Tournament, known: list[match_service.Outcome]) -> int:
    """The number of the round to pair, or a 409 (``known``: the event's matches' outcomes)."""
    if locked.status == Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    if locked.status not in PAIRABLE:
        raise Conflict(_("Open registration before pairing the first round."), "registration_not_open")
    last = locked.round_set.order_by("-number").first()
    if last is not None and any(o.match.round_id == last.pk and o.status not in (match_service.COMPLETE,
                                                                                 match_service.BYE)
                                for o in known):
        raise Conflict(_("Round %(number)s still has team matches to finish.") % {"number": last.number},
                       "round_unconfirmed")
    number = (last.number if last else 0) + 1
    if number > locked.rounds:
        raise Conflict(_("All %(rounds)s rounds have been paired.") % {"rounds": locked.rounds},
                       "rounds_exhausted")
    return number


def _order(locked: Tournament, teams: list[Team], number: int,
           known: list[match_service.Outcome], settings: dict) -> list[swiss.TeamState]:
    """The teams in standings order; teams level on everything in an order drawn from the
    tournament's seed (round 1: a random draw)."""
    played = match_service.played(locked, settings, known=known)
    lines = {line.team: line for line in standings([t.pk for t in teams], played)}
    rng = random.Random(f"{locked.seed}:teams:{number}")
    draw = {t.pk: rng.random() for t in teams}
    byes = {m.first for m in played if m.second is None}
    ordered = sorted(teams, key=lambda t: (lines[t.pk].rank, draw[t.pk]))
    return [swiss.TeamState(t.pk, frozenset(lines[t.pk].opponents), t.pk in byes) for t in ordered]


@gc_paused()  # a round's games and dice logs die together: no full collections (issue #15)
@transaction.atomic
def pair_team_round(actor: Actor, tournament: Tournament) -> dict:
    require_staff(actor)
    locked = locked_tournament(tournament)
    event = team_event(locked)
    # The event's matches and results, read once for the check and the standings.
    known = match_service.outcomes(locked, event.settings)
    number = _check(locked, known)
    teams = list(locked.teams.all())
    if len(teams) < 2:
        raise Conflict(_("At least two teams are needed to pair a round."), "not_enough_teams")
    if locked.status == Status.REGISTRATION_OPEN:
        advance(actor, locked, Status.LISTS_LOCKED)
    advance(actor, locked, Status.RUNNING)
    pairing = swiss.pair(_order(locked, teams, number, known, event.settings))
    size = event.size
    round_ = Round.objects.create(tournament=locked, number=number, status=Round.Status.PUBLISHED,
                                  published_at=timezone.now(),
                                  pairing={"method": "team_swiss", "rematches": pairing.rematches})
    made = [TeamMatch(round=round_, number=k, first_id=a, second_id=b, first_table=(k - 1) * size + 1)
            for k, (a, b) in enumerate(pairing.matches, start=1)]
    if pairing.bye is not None:
        made.append(TeamMatch(round=round_, number=len(made) + 1, first_id=pairing.bye))
    TeamMatch.objects.bulk_create(made)  # one insert; PostgreSQL and SQLite give the keys back
    played = [m for m in made if m.second_id is not None]
    if event.settings["draft"] == "none":
        team_games.games_in_order(actor, locked, round_, played)
    else:
        team_games.missions_before_draft(actor, locked, round_,
                                         [t for m in played for t in match_service.tables(m, size)])
    record(actor, "team_round_paired", locked, round_,
           {"round": number, "matches": len(pairing.matches), "bye": pairing.bye,
            "rematches": pairing.rematches})
    # Created published: what publishing a round does (events.services.rounds._publish).
    notices.queue_round_paired(round_)
    event_cache.warm_up(locked.pk)  # every phone reloads the event page now
    return {"number": number, "team_matches": [
        {"id": m.pk, "teams": m.team_ids, "tables": match_service.tables(m, size)} for m in made]}

