"""The ``team`` event format, handed to ``events.formats`` from ``TeamsConfig.ready()``."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events import formats
from events.models import Tournament
from teams.models import DOUBLES, FORMAT


def event_page(tournament: Tournament) -> tuple[str, str]:
    """The event page's link to the team standings and matches."""
    return str(_("Teams, matches and drafts")), reverse("team_event", args=[tournament.slug])


def register() -> None:
    from teams.serializers import DoublesSettingsSerializer, TeamSettingsSerializer
    from teams.services import backup, blocks, doubles, rounds
    from teams.services import events as team_events

    formats.register(formats.EventFormat(
        FORMAT, _("team event"), TeamSettingsSerializer,
        create=team_events.create_team_event, read=team_events.read_settings,
        pair_round=rounds.pair_team_round, page=event_page,
        backup=backup.backup_part, restore=backup.restore_part,
        round_blocks=blocks.round_blocks))
    formats.register(formats.EventFormat(
        DOUBLES, _("doubles"), DoublesSettingsSerializer,
        create=doubles.create_doubles_event, read=doubles.read_settings,
        pairing_players=doubles.pairing_players, entrant_users=doubles.entrant_users,
        check_registration=doubles.check_registration,
        backup=backup.doubles_part, restore=backup.doubles_restore))
