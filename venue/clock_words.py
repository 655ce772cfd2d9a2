"""The round clock in words, digits and JSON, the same on the projector, a game page, the admin
and the API."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from events.serializers import InstantField
from venue.services import clock

NOT_STARTED_TEXT = "--:--"


def clock_text(seconds: int) -> str:
    """1:05:09 or 05:09, as static/projector.js writes it."""
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def shown_time(reading: clock.Reading) -> str:
    """The digits on screen; dashes until staff start the clock (they give its length then)."""
    if reading.state == clock.NOT_STARTED:
        return NOT_STARTED_TEXT
    return clock_text(reading.remaining_seconds)


def clock_label(reading: clock.Reading) -> str:
    if reading.expired:
        return _("Time is up")
    return {clock.NOT_STARTED: _("Not started yet"), clock.RUNNING: _("Time left"),
            clock.PAUSED: _("Paused"), clock.ENDED: _("Round over")}[reading.state]


def clock_data(reading: clock.Reading) -> dict[str, Any]:
    """The clock as the API and the projector's JSON give it. ``remaining_seconds`` is as of the
    answer; ``ends_at`` (while running) is the moment the time is up, on the server's clock."""
    return {
        "state": reading.state,
        "duration_seconds": int(reading.duration.total_seconds()),
        "remaining_seconds": reading.remaining_seconds,
        "expired": reading.expired,
        "started_at": _instant(reading.started_at),
        "ends_at": _instant(reading.ends_at),
        "ended_at": _instant(reading.ended_at),
    }


def _instant(value: datetime | None) -> str | None:
    return InstantField().to_representation(value)
