"""The round clock: staff start, pause, resume, extend and end it; every screen reads the time
left from the server's moments (venue/clock_models.py), so the projector, the players' phones
and the API agree. Writes hold the round's row lock and are audited."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Invalid, NotFound
from events.models import Round, Tournament
from events.services.tournaments import require_staff
from venue.clock_models import RoundClock

START, PAUSE, RESUME, EXTEND, END = "start", "pause", "resume", "extend", "end"
ACTIONS = (START, PAUSE, RESUME, EXTEND, END)
NOT_STARTED, RUNNING, PAUSED, ENDED = "not_started", "running", "paused", "ended"
# A round of a 1,500-point game at most events of the three systems: two and a half hours.
# Staff give another length when they start the clock.
DEFAULT_MINUTES = 150
MAX_MINUTES = 600


@dataclass(frozen=True)
class Reading:
    """The clock as every screen shows it at ``now``; ``remaining`` never goes below zero."""

    state: str
    duration: timedelta
    remaining: timedelta
    now: datetime
    started_at: datetime | None = None
    ended_at: datetime | None = None

    @property
    def remaining_seconds(self) -> int:
        # Rounded up: the display reaches 0:00 only when the time is really up.
        return max(0, math.ceil(self.remaining.total_seconds()))

    @property
    def expired(self) -> bool:
        """Started, not ended by staff, and no time left."""
        return self.state in (RUNNING, PAUSED) and self.remaining_seconds == 0

    @property
    def ends_at(self) -> datetime | None:
        return self.now + self.remaining if self.state == RUNNING else None

    @property
    def shown(self) -> bool:
        """Whether there is a clock to show at all (started at some point)."""
        return self.state != NOT_STARTED


def clock_of(round_: Round) -> RoundClock | None:
    """The round's clock row (None before its first start); no query when the caller selected
    ``clock`` with the round."""
    try:
        return round_.clock
    except RoundClock.DoesNotExist:
        return None


def run_time(clock: RoundClock, now: datetime) -> timedelta:
    """How long the clock has run in all, pauses left out."""
    current = now - clock.running_since if clock.running_since is not None else timedelta(0)
    return clock.elapsed + max(current, timedelta(0))


def state_of(clock: RoundClock | None) -> str:
    if clock is None or clock.started_at is None:
        return NOT_STARTED
    if clock.ended_at is not None:
        return ENDED
    return RUNNING if clock.running_since is not None else PAUSED


def read(round_: Round, now: datetime | None = None) -> Reading:
    """The round's clock at ``now``. A completed round's clock reads as ended: every result is
    in, whatever the clock still said."""
    now = now or timezone.now()
    clock = clock_of(round_)
    state = state_of(clock)
    if clock is None:
        default = timedelta(minutes=DEFAULT_MINUTES)
        return Reading(NOT_STARTED, default, default, now)
    if round_.status == Round.Status.COMPLETED and state != NOT_STARTED:
        state = ENDED
    remaining = clock.duration - run_time(clock, now)
    if state == ENDED and clock.ended_at is None:
        remaining = timedelta(0)
    return Reading(state, clock.duration, max(remaining, timedelta(0)), now, clock.started_at,
                   clock.ended_at)


def _minutes(value: Any, *, required: bool) -> int | None:
    if value is None and not required:
        return None
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= MAX_MINUTES:
        raise Invalid(_("Give a number of minutes between 1 and %(max)s.") % {"max": MAX_MINUTES},
                      "clock_minutes_invalid")
    return minutes


def _locked_round(tournament: Tournament, number: int) -> Round:
    round_ = Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise NotFound(_("No such round."), "round_not_found")
    return round_


def _check_playing(tournament: Tournament, round_: Round) -> None:
    """Only the round being played has a clock that moves."""
    if round_.status == Round.Status.DRAFT:
        raise Conflict(_("Publish the round before starting its clock."), "round_not_published")
    finished = (round_.status == Round.Status.COMPLETED
                or tournament.status == Tournament.Status.FINISHED
                or tournament.round_set.filter(number__gt=round_.number).exists())
    if finished:
        raise Conflict(_("Round %(number)s is over: its clock can no longer change.")
                       % {"number": round_.number}, "round_finished")


def _check_move(action: str, state: str) -> None:
    """Refuse a move the clock's state does not allow (a double click meets one of these)."""
    if state == ENDED:
        raise Conflict(_("The clock of this round has been ended."), "clock_ended")
    if action == START and state != NOT_STARTED:
        raise Conflict(_("The clock of this round has already been started."), "clock_started")
    if action != START and state == NOT_STARTED:
        raise Conflict(_("The clock of this round has not been started yet."), "clock_not_started")
    if action == PAUSE and state != RUNNING:
        raise Conflict(_("The clock is not running."), "clock_not_running")
    if action == RESUME and state != PAUSED:
        raise Conflict(_("The clock is not paused."), "clock_not_paused")


@transaction.atomic
def act(actor: Actor, tournament: Tournament, number: int, action: str,
        minutes: Any = None) -> Reading:
    """Move the clock of round ``number``: start (``minutes``, default DEFAULT_MINUTES), pause,
    resume, extend by ``minutes``, end. Returns the clock as it now reads."""
    require_staff(actor)
    if action not in ACTIONS:
        raise Invalid(_("Unknown clock action."), "clock_action_unknown")
    round_ = _locked_round(tournament, number)
    _check_playing(tournament, round_)
    clock = RoundClock.objects.filter(round=round_).first()
    _check_move(action, state_of(clock))
    now = timezone.now()
    if action == START:
        given = _minutes(minutes, required=False) or DEFAULT_MINUTES
        clock = clock or RoundClock(round=round_)
        clock.duration, clock.elapsed = timedelta(minutes=given), timedelta(0)
        clock.started_at = clock.running_since = now
        details: dict[str, Any] = {"minutes": given}
    elif action == EXTEND:
        given = _minutes(minutes, required=True)
        clock.duration += timedelta(minutes=given)
        details = {"minutes": given}
    else:
        if clock.running_since is not None:  # pause and end keep the time run so far
            clock.elapsed, clock.running_since = run_time(clock, now), None
        if action == RESUME:
            clock.running_since = now
        if action == END:
            clock.ended_at = now
        details = {}
    clock.save()
    round_.clock = clock
    reading = read(round_, now)
    record(actor, f"clock_{action}", tournament, round_,
           {"round": number, **details, "remaining_seconds": reading.remaining_seconds})
    return reading
