"""The league's e-mail notices: a week is open (its points limit, its deadline, the games the
player may still count). The report of a league game waiting for the opponent's confirmation
is the events' own notice (``result_reported``), sent as for any game.

Registered with the notices dispatcher by ``register`` (LeaguesConfig.ready)."""
from __future__ import annotations

from functools import partial

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from events.models import Player
from leagues.models import Week
from notices import letters as registry
from notices import texts
from notices.letters import Letter, absolute, profile_link, stamp_of
from notices.models import Notice
from notices.outbox import queue

WEEK_OPEN = Notice.Kind.LEAGUE_WEEK_OPEN  # a notices kind, labelled in the admin


def queue_week_open(week: Week) -> None:
    queue(WEEK_OPEN, week.pk, stamp_of(week.opens))


def week_open_letters(week_id: int, stamp: str) -> list[Letter]:
    week = Week.objects.select_related("league__tournament").filter(pk=week_id).first()
    if week is None or stamp_of(week.opens) != stamp:
        return []  # moved since: the new opening has its own notice
    event = week.league.tournament
    players = event.players.filter(dropped=False, user__isnull=False).select_related("user")
    key = f"{week.pk}@{stamp}"
    return [Letter(event, player.user, key, partial(_compose, week, player)) for player in players]


def _compose(week: Week, player: Player) -> texts.Letter:
    event = week.league.tournament
    limit = week.points_limit if week.points_limit is not None else event.points_limit
    closes = formats.date_format(timezone.localtime(week.closes), "DATETIME_FORMAT")
    title = _("Week %(number)s is open") % {"number": week.number}
    lines = [
        _("Week %(number)s of %(event)s is open until %(closes)s.")
        % {"number": week.number, "event": event.name, "closes": closes},
        _("Points limit this week: %(limit)s.") % {"limit": limit},
        _("Games counted this week: %(count)s.") % {"count": week.league.games_counted_per_week},
        "",
        _("The league: %(link)s") % {"link": absolute(reverse("league", args=[event.slug]))},
        "", texts.footer(profile_link()),
    ]
    return texts.subject(event.name, title), "\n".join(lines)


def register() -> None:
    registry.register(WEEK_OPEN, week_open_letters)
