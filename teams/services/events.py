"""A team event's settings: stored when the tournament is created, read back, and turned into
the engine's rules."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from events.audit import Actor, record
from events.errors import Conflict
from events.models import Tournament
from teams.engine import scoring
from teams.models import FORMAT, TeamEvent
from teams.serializers import stored_settings


def create_team_event(actor: Actor, tournament: Tournament, settings: dict) -> None:
    stored = stored_settings(settings)
    TeamEvent.objects.create(tournament=tournament, settings=stored)
    record(actor, "team_event_created", tournament, tournament, stored)


def settings_row(model: type, tournament: Tournament, name: str) -> Any | None:
    """The format's settings row (TeamEvent, DoublesEvent) of a tournament of format ``name``."""
    return model.objects.filter(tournament=tournament).first() if tournament.format == name else None


def read_settings(tournament: Tournament) -> dict | None:
    event = TeamEvent.objects.filter(tournament=tournament).first()
    return event.settings if event else None


def team_event(tournament: Tournament) -> TeamEvent:
    """The team event of ``tournament``, or a 409 for a tournament of another format."""
    event = settings_row(TeamEvent, tournament, FORMAT)
    if event is None:
        raise Conflict(_("This tournament is not a team event."), "not_team_event")
    return event


def game_table(settings: dict) -> tuple[scoring.Row, ...]:
    if settings.get("game_table"):
        return scoring.table_from(settings["game_table"])
    return scoring.PRESETS[settings.get("game_preset") or "gt-20"]()


def result_rules(settings: dict) -> scoring.ResultRules:
    points = settings["match_points"]
    return scoring.ResultRules(
        mode=settings["result_mode"], win_at=settings.get("win_at"), loss_at=settings.get("loss_at"),
        cap=settings.get("cap"), floor=settings.get("floor"),
        win_points=points["win"], draw_points=points["draw"], loss_points=points["loss"])
