"""Event formats: how a tournament is played beyond one-against-one Swiss rounds.

``event`` (the default: players paired round by round) is built in. Another format (a league
over weeks, a team event, doubles) is registered by the app that owns it, from its
``AppConfig.ready()``: its name (the API's ``"format"``), the serializer of its settings (the
creation body's object named after the format, e.g. ``"team": {...}``), the service that stores
them when the tournament is created (in the same transaction) and how they read back.

Core code asks this registry and never names a format's app.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# The model module imports this one (the field's validator): types named, never imported.
Actor = Tournament = Serializer = Any
DEFAULT = "event"


@dataclass(frozen=True)
class EventFormat:
    name: str
    label: Any  # a lazy translation
    settings: type | None = None  # the body's ``{name: {...}}``; None: no settings
    create: Callable[[Actor, Tournament, dict], None] | None = None  # stores the valid settings
    read: Callable[[Tournament], dict | None] | None = None  # the settings as the API shows them
    # Who is paired in round n (events/services/rounds.pair_next): the active players, less
    # those the format leaves out that round; may refuse (a Refusal) a format that pairs none.
    pairing_players: Callable[[Tournament, int, list], list] | None = None
    # GET/PUT .../players/{id}/list/ (events/api/players.py PlayerListView): the format's own answer
    # (e.g. ``?week=n``), or None to let the event's list view answer.
    player_list: Callable[[Any, Tournament, Any], Any] | None = None
    # POST .../rounds/ (events/api/rounds.py RoundsView): a format that pairs something other than
    # players (team matches) pairs the round itself and gives the 201 answer's body.
    pair_round: Callable[[Actor, Tournament], dict] | None = None
    # A player's result report (events/services/results.report, not staff's): the format may
    # refuse it (a Refusal), e.g. a league's week that is closed.
    check_report: Callable[[Any], None] | None = None
    # The format's own page, linked from the event page: (link text, address).
    page: Callable[[Tournament], tuple[str, str]] | None = None
    # An event backup (events/services/backup.event_document): the format's own rows as JSON,
    # ids written as the document's refs (``refs``: events.event_refs.Refs), kept under
    # ``"format_rows"``; its ``"accounts"`` (usernames) are listed with the document's.
    backup: Callable[[Tournament, Any], dict] | None = None
    # ... and read back (events/services/restore_rows.EventRestore.run) after the games and
    # reports: (the restore, with ``player``/``game``/``account``/``round_of``; the new
    # tournament; that part) -> the rows it made, counted by kind.
    restore: Callable[[Any, Tournament, dict], dict[str, int]] | None = None
    # Who else acts for an entrant in its games (events/services/results.side_of: report,
    # confirm, dispute): the ids of the other accounts of that ``Player`` (doubles: the partner).
    entrant_users: Callable[[Any], set[int]] | None = None
    # A registration (events/services/tournaments.register_player, under the tournament's lock):
    # the format may refuse the account (a Refusal), e.g. doubles: already a pair's partner.
    check_registration: Callable[[Tournament, Any], None] | None = None
    # A round's tables in blocks (team matches) and the format's standings, for the projector,
    # the results grid, the wall sheets and the pack: ``events.table_blocks.RoundBlocks``, asked
    # only through ``events.table_blocks.of_round``.
    round_blocks: Callable[[Any], Any] | None = None
    # Who counts as having had a bye when round n is paired (events/services/rounds.pair_next),
    # beyond the pairing byes of earlier rounds: the ids of players (a league's declared byes).
    had_byes: Callable[[Tournament, int], set[int]] | None = None
    # What round n is called where a sentence names it (the players' e-mails): "Week 3" for a
    # league; None: "Round 3". Called in the reader's language.
    round_name: Callable[[Tournament, int], str] | None = None


_FORMATS: dict[str, EventFormat] = {DEFAULT: EventFormat(DEFAULT, _("event"))}


def register(event_format: EventFormat) -> None:
    _FORMATS[event_format.name] = event_format


def unregister(name: str) -> None:
    """For the tests that register a format of their own."""
    if name != DEFAULT:
        _FORMATS.pop(name, None)


def get(name: str) -> EventFormat | None:
    return _FORMATS.get(name)


def names() -> list[str]:
    return list(_FORMATS)


def known_format(name: str) -> None:
    """The model field's validator: a format some app registered."""
    if name not in _FORMATS:
        raise ValidationError(_("Unknown format %(format)s."), code="unknown_format",
                              params={"format": name})


def round_name(tournament: Tournament, number: int) -> str:
    """Round ``number`` of ``tournament`` in words, as its format calls it ("Round 3", "Week 3")."""
    event_format = get(tournament.format)
    if event_format is not None and event_format.round_name is not None:
        return event_format.round_name(tournament, number)
    return gettext("Round %(number)s") % {"number": number}


def with_settings() -> list[EventFormat]:
    return [event_format for event_format in _FORMATS.values() if event_format.settings]
