"""One event as a versioned JSON document that ``events.services.restore`` reads back.

The document holds every row that belongs to the event: the tournament and its dice stream,
players (with their account's username, never a password), every version of every list (raw
upload in base64), rounds, games (with each game's own ``game:<pk>`` dice stream), every report,
every die rolled and the event's audit log (table rolls included), and the day's rows: each
round's clock (its stored moments, so a restored clock reads the same time left), the players'
check-in codes and state, the self check-in window, and the awards and penalties with their
staff entries and votes; and, for the event of an Epic 40,000 campaign, the campaign's own rows
(``campaign``: ``campaigns.services.backup``). Reference data is named by
slug (chart, level, missions) and accounts by username, each listed once in ``accounts``
(``events.services.backup_accounts``: the username only). Rows of the event point at each other by
document-local numbers (``ref``), never by database id, and the ids inside JSON fields are
rewritten the same way (``events.event_refs``), so the document reads the same in any database.
Mission packs are not included: they are rebuilt from the round. Nor are the notices sent (a
log of e-mails, keyed by the old rows) and the players' notice settings (an account's, not the
event's); invitations are signed links, not rows.

A fixed number of queries whatever the size of the event."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from armylists.models import ArmyList, Chart
from campaigns.services.backup import CampaignRows, campaign_part
from events import event_refs, formats
from events.models import AuditEntry, Game, Player, PlayerList, Report, Tournament
from events.services import backup_accounts
from events.services.backup_rows import grouped, lookup, numbering, plain, row_data, username
from events.services.lists import MAX_VERSIONS
from events.services.standings import registration_numbers
from events.services.table_rolls import stream_key, table_seed
from missions.models import DiceRoll, DiceStream
from missions.services import logged_rolls
from venue.award_models import ScoreComponent, ScoreEntry, ScoreVote
from venue.checkin_models import VenueCheckIn
from venue.clock_models import RoundClock

FORMAT = "muster-event"
VERSION = 4
# Version 2 wrote a game's ``outcome`` (Cities of Death flags and holder) with the database's
# player ids; version 3 writes them as document references, like a report's outcome. Version 4
# lists the accounts the rows name, once each (``accounts``); an older document's are read
# from its rows, which name the same accounts.
READABLE_VERSIONS = (2, 3, 4)


def event_document(tournament: Tournament) -> dict[str, Any]:
    """The whole event (``exports.event_data`` adds the standings for the admin and the command)."""
    t = tournament  # its chart, level, dice and created_by are read: select them with it
    players = list(t.players.select_related("user", "checked_in_by").order_by("pk"))
    heads = list(PlayerList.objects.filter(player__tournament=t).order_by("player_id", "role"))
    versions = list_versions(t)
    rounds = list(t.round_set.select_related("mission").order_by("number"))
    number = {r.pk: r.number for r in rounds}
    games = sorted(Game.objects.filter(round__tournament=t).select_related("mission"),
                   key=lambda g: (number[g.round_id], g.table is None, g.table or 0, g.pk))
    reports = list(Report.objects.filter(game__round__tournament=t).select_related(
        "reporter", "confirmed_by").order_by("pk"))
    streams = {s.key: s for s in DiceStream.objects.filter(
        key__in=[t.dice.key, *(stream_key(g.pk) for g in games)])}
    rolls = logged_rolls(streams.values())  # rows and batches (a paired round's) alike
    audit = list(t.audit.select_related("actor").order_by("pk"))
    day = DayRows.of(t)
    campaign = CampaignRows.of(t)

    by_game = grouped(reports, "game_id")
    by_round = grouped(games, "round_id")
    rolls_of = grouped(rolls, "stream_id")
    lists_of = grouped(heads, "player_id")
    chains = _chains(heads, versions)
    # Refs number rows in the order the document lists them, so an imported event (whose rows
    # are created in that order) is numbered the same when exported again.
    refs = event_refs.Refs(
        player=lookup(registration_numbers(p.pk for p in players)),
        game=lookup(numbering(g.pk for g in games)),
        report=lookup(numbering(rep.pk for g in games for rep in by_game[g.pk])),
        army_list=lookup(numbering(v.pk for chain in chains.values() for v in chain)),
        user=lookup(_usernames(audit, [p.user for p in players])),
        component=lookup(numbering(c.pk for c in day.components)),
        **({kind: lookup(table) for kind, table in campaign.numbers().items()} if campaign else {}),
    )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **row_data(t), "game_system": t.game_system.slug, "chart": t.chart.slug,
            "level": t.level.slug if t.level else None,
            "created_by": username(t.created_by),
            "dice": _stream(t.dice, rolls_of[t.dice_id]),
            "check_in_window": _window(day.window),
        },
        "players": [
            {"ref": refs.player(p.pk), **row_data(p), "username": username(p.user),
             "checked_in_by": username(p.checked_in_by),
             "lists": [_player_list(head, chains[head.pk], refs) for head in lists_of[p.pk]]}
            for p in players
        ],
        "rounds": [
            {**row_data(r), "mission": r.mission.slug if r.mission else None,
             "clock": _clock(day.clocks.get(r.pk)),
             "games": [_game(g, by_game[g.pk], streams, rolls_of, t.seed, refs)
                       for g in by_round[r.pk]]}
            for r in rounds
        ],
        "awards": [_component(c, day, refs) for c in day.components],
        **({"campaign": campaign_part(campaign, refs)} if campaign else {}),
        **_format_part(t, refs),
        "audit": [
            {**row_data(e), "actor": username(e.actor),
             "data": event_refs.entry_data(refs, e.action, e.data or {})}
            for e in audit
        ],
    }
    return {**document, "accounts": backup_accounts.accounts_part(document)}


def _format_part(t: Tournament, refs: event_refs.Refs) -> dict[str, Any]:
    """The event format's own rows (a team event's teams and matches), if it keeps any."""
    event_format = formats.get(t.format)
    if event_format is None or event_format.backup is None:
        return {}
    return {"format_rows": event_format.backup(t, refs)}


def list_versions(t: Tournament) -> list[ArmyList]:
    """Every version of every list of the event, in one query: each comes with ``chain_head``
    (its PlayerList), ``chain_depth`` (0 = current), ``chart_slug`` and ``owner_name``."""
    lists_table, chain_table = ArmyList._meta.db_table, PlayerList._meta.db_table
    user_model = get_user_model()
    username_column = user_model._meta.get_field(user_model.USERNAME_FIELD).column
    sql = f"""
        WITH RECURSIVE chain(id, head, depth) AS (
            SELECT pl.army_list_id, pl.id, 0 FROM {chain_table} pl
            JOIN {Player._meta.db_table} p ON p.id = pl.player_id WHERE p.tournament_id = %s
            UNION ALL
            SELECT a.supersedes_id, chain.head, chain.depth + 1 FROM {lists_table} a
            JOIN chain ON a.id = chain.id
            WHERE a.supersedes_id IS NOT NULL AND chain.depth < {MAX_VERSIONS}
        )
        SELECT a.*, chain.head AS chain_head, chain.depth AS chain_depth,
               c.slug AS chart_slug, u.{username_column} AS owner_name
        FROM {lists_table} a JOIN chain ON a.id = chain.id
        JOIN {Chart._meta.db_table} c ON c.id = a.chart_id
        LEFT JOIN {user_model._meta.db_table} u ON u.id = a.owner_id
        ORDER BY chain.head, chain.depth DESC
    """  # noqa: S608 (table names come from the models, the id is a parameter)
    return list(ArmyList.objects.raw(sql, [t.pk]))


def _chains(heads: list[PlayerList], versions: list[ArmyList]) -> dict[int, list[ArmyList]]:
    """PlayerList id -> its versions, oldest first (a cycle is cut at its first repeat)."""
    chains: dict[int, list[ArmyList]] = {head.pk: [] for head in heads}
    seen: dict[int, set[int]] = defaultdict(set)
    for version in versions:
        if version.pk not in seen[version.chain_head]:
            seen[version.chain_head].add(version.pk)
            chains[version.chain_head].append(version)
    return chains


def _player_list(head: PlayerList, chain: list[ArmyList], refs: event_refs.Refs) -> dict[str, Any]:
    return {
        "role": head.role or None, "updated_at": plain(head.updated_at),
        "versions": [
            {"ref": refs.army_list(v.pk), **row_data(v), "chart": v.chart_slug,
             "owner": v.owner_name}
            for v in chain
        ],
    }


def _usernames(audit: list[AuditEntry], known: Iterable[Any]) -> dict[int, str]:
    """Account id -> username for the accounts the audit details name (``user``), with one
    query only for those not already loaded."""
    names = {u.pk: username(u) for u in known if u is not None}
    wanted = set()
    for entry in audit:
        for part in (entry.data or {}, *((entry.data or {}).get(k) or {} for k in ("before", "after"))):
            if isinstance(part, dict) and isinstance(part.get("user"), int):
                wanted.add(part["user"])
    missing = wanted - set(names)
    if missing:
        names.update((u.pk, username(u)) for u in get_user_model().objects.filter(pk__in=missing))
    return names


def _stream(stream: DiceStream, rolls: list[DiceRoll]) -> dict[str, Any]:
    return {
        "seed": stream.seed, "next_sequence": stream.next_sequence,
        "rolls": [{**row_data(r), "actor": username(r.actor)} for r in rolls],
    }


def _game(g: Game, reports: list[Report], streams: Mapping[str, DiceStream],
          rolls_of: Mapping[int, list[DiceRoll]], seed: int, refs: event_refs.Refs) -> dict[str, Any]:
    data = {
        "ref": refs.game(g.pk), **row_data(g), **event_refs.game_fields(refs, row_data(g)),
        "players": [refs.player(pk) for pk in g.player_ids],
        "mission": g.mission.slug if g.mission else None,
        "winner": refs.player(g.winner_id) if g.winner_id else None,
        "reports": [_report(rep, refs) for rep in reports],
        "dice": None,
    }
    if not g.is_bye:
        # Every table has its stream, rolled or not: its seed is fixed by the game's id here and
        # must not change with the new id an import gives the game.
        stream = streams.get(stream_key(g.pk)) or DiceStream(seed=table_seed(seed, g.pk))
        data["dice"] = _stream(stream, rolls_of[stream.pk] if stream.pk else [])
    return data


def _report(rep: Report, refs: event_refs.Refs) -> dict[str, Any]:
    return {
        "ref": refs.report(rep.pk), **row_data(rep), **event_refs.report_fields(refs, row_data(rep)),
        "by_player": refs.player(rep.by_player_id) if rep.by_player_id else None,
        "by_staff": rep.by_staff, "winner": refs.player(rep.winner_id) if rep.winner_id else None,
        "reporter": username(rep.reporter), "confirmed_by": username(rep.confirmed_by),
    }


# The organiser's day ---------------------------------------------------------------------------

class DayRows:
    """The event's clocks, self check-in window and awards, five queries whatever its size."""

    def __init__(self, clocks: dict[int, RoundClock], window: VenueCheckIn | None,
                 components: list[ScoreComponent], entries: list[ScoreEntry],
                 votes: list[ScoreVote]) -> None:
        self.clocks, self.window, self.components = clocks, window, components
        self.entries = grouped(entries, "component_id")
        self.votes = grouped(votes, "component_id")

    @classmethod
    def of(cls, t: Tournament) -> DayRows:
        return cls(
            {c.round_id: c for c in RoundClock.objects.filter(round__tournament=t)},
            VenueCheckIn.objects.filter(tournament=t).select_related("opened_by").first(),
            list(ScoreComponent.objects.filter(tournament=t).order_by("pk")),
            list(ScoreEntry.objects.filter(component__tournament=t).select_related("entered_by")
                 .order_by("component_id", "player_id")),
            list(ScoreVote.objects.filter(component__tournament=t).order_by("component_id", "pk")),
        )


def _clock(clock: RoundClock | None) -> dict[str, Any] | None:
    return None if clock is None else row_data(clock)


def _window(window: VenueCheckIn | None) -> dict[str, Any] | None:
    if window is None:
        return None
    return {**row_data(window), "opened_by": username(window.opened_by)}


def _component(c: ScoreComponent, day: DayRows, refs: event_refs.Refs) -> dict[str, Any]:
    return {
        "ref": refs.component(c.pk), **row_data(c),
        "entries": [{"player": refs.player(e.player_id), **row_data(e),
                     "entered_by": username(e.entered_by)} for e in day.entries[c.pk]],
        "votes": [{"voter": refs.player(v.voter_id), "voted_for": refs.player(v.voted_for_id),
                   **row_data(v)} for v in day.votes[c.pk]],
    }
