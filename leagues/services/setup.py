"""A league's settings and weeks: stored when its tournament is created, read back, looked up."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import NotFound
from events.models import Tournament
from leagues.models import League, Week

SMALL_POINTS = range(0, 32768)  # what the event's own win/draw/loss columns hold


def create_league(actor: Actor, tournament: Tournament, settings: dict) -> None:
    """The ``league`` format's ``create`` (events/formats.py), inside the creation's transaction.

    The tournament's rounds become the weeks (week n is round n); in weekly Swiss the event's
    win/draw/loss points follow the league's, so the Swiss pairing groups by league points."""
    points = settings.get("points") or {}
    league = League.objects.create(
        tournament=tournament, mode=settings["mode"], win_points=points.get("win", 3),
        draw_points=points.get("draw", 1), loss_points=points.get("loss", 0),
        games_counted_per_week=settings["games_counted_per_week"],
        drop_worst_weeks=settings["drop_worst_weeks"], byes_allowed=settings["byes_allowed"],
        rematch=settings["rematch"], escalation=settings["escalation"])
    Week.objects.bulk_create([
        Week(league=league, number=n, opens=w["opens"], closes=w["closes"],
             points_limit=w.get("points_limit"))
        for n, w in enumerate(settings["weeks"], start=1)])
    tournament.rounds = len(settings["weeks"])
    changed = ["rounds"]
    if all(p in SMALL_POINTS for p in (league.win_points, league.draw_points, league.loss_points)):
        tournament.win_points, tournament.draw_points, tournament.loss_points = (
            league.win_points, league.draw_points, league.loss_points)
        changed += ["win_points", "draw_points", "loss_points"]
    tournament.save(update_fields=changed)
    record(actor, "league_created", tournament, tournament,
           {"mode": league.mode, "weeks": len(settings["weeks"])})


def league_settings(tournament: Tournament) -> dict | None:
    """The ``league`` format's ``read``: the settings as the creation body gives them."""
    league = league_of(tournament)
    if league is None:
        return None
    return {
        "mode": league.mode, "points": points_of(league),
        "games_counted_per_week": league.games_counted_per_week,
        "drop_worst_weeks": league.drop_worst_weeks, "byes_allowed": league.byes_allowed,
        "rematch": league.rematch, "escalation": league.escalation,
        "weeks": [week_data(w, tournament) for w in weeks_of(league)],
    }


def points_of(league: League) -> dict[str, int]:
    return {"win": league.win_points, "draw": league.draw_points, "loss": league.loss_points}


def league_of(tournament: Tournament) -> League | None:
    return League.objects.filter(tournament=tournament).first()


def require_league(tournament: Tournament) -> League:
    league = league_of(tournament)
    if league is None:
        raise NotFound(_("This tournament is not a league."), "not_a_league")
    return league


def weeks_of(league: League) -> list[Week]:
    return list(league.weeks.order_by("number"))


def get_week(league: League, number: int) -> Week:
    week = league.weeks.filter(number=number).first()
    if week is None:
        raise NotFound(_("This league has no week %(number)s.") % {"number": number}, "week_not_found")
    return week


def points_limit(week: Week, tournament: Tournament) -> int:
    return week.points_limit if week.points_limit is not None else tournament.points_limit


def week_data(week: Week, tournament: Tournament, now=None) -> dict:
    from events.serializers import InstantField

    instant = InstantField()
    return {"number": week.number, "opens": instant.to_representation(week.opens),
            "closes": instant.to_representation(week.closes),
            "points_limit": points_limit(week, tournament),
            "open": week.is_open(now or timezone.now())}
