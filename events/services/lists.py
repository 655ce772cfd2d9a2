"""Players' army lists in a tournament: submit (every version kept), lock, unlock, read rights."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armylists import services as lists
from armylists.models import ArmyList, Chart
from armylists.systems import ListRules
from armylists.validation import Entry, Problem
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Player, PlayerList, Tournament
from events.services.tournaments import is_self, require_staff
from missions.models import Mission

OPEN_STATUSES = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION_OPEN)
ROLES = ("attacker", "defender")
MAX_VERSIONS = 1000  # far above any real resubmission count; stops a cycle


def role_charts(tournament: Tournament) -> dict[str, str]:
    """Role -> chart slug for the asymmetric charts a mission this event can roll may impose.

    Special missions (Assassinat uses Strike and Withdraw) only come up when a 6 on the
    mission die leads to them, so role lists are taken only from such events."""
    charts: dict[str, str] = {}
    if not tournament.rules.rolls_missions:
        return charts
    missions = Mission.objects.exclude(role_charts={})
    if tournament.on_six != Tournament.OnSix.SPECIAL:
        missions = missions.filter(kind="standard")
    for mission in missions.only("role_charts"):
        charts.update(mission.role_charts)
    return charts


def chart_for(tournament: Tournament, role: str) -> Chart:
    if not role:
        return tournament.chart
    if role not in ROLES:
        raise Invalid(_("The role must be attacker or defender."), "role_unknown")
    slug = role_charts(tournament).get(role)
    if slug is None:
        raise Invalid(_("No mission of this event uses a separate list for this role."), "role_unused")
    return lists.charts_with_rows().get(slug=slug)


def lists_locked(tournament: Tournament, now=None) -> bool:
    """Lists lock when the organiser locks them or at the deadline, whichever comes first."""
    if tournament.status not in OPEN_STATUSES:
        return True
    return tournament.list_deadline is not None and (now or timezone.now()) >= tournament.list_deadline


def may_edit(actor: Actor, player: Player) -> bool:
    return actor.is_staff or is_self(actor, player)


def may_read(actor: Actor, player: Player, tournament: Tournament) -> bool:
    return may_edit(actor, player) or tournament.lists_published


def submit_list(actor: Actor, player: Player, *, role: str, entries: Sequence[Entry],
                source_format: str = "units", raw: bytes | None = None, raw_filename: str = "",
                import_warnings: Sequence[Problem] = ()) -> PlayerList:
    """Validate and store a new version of a count-based chart list; the previous one stays,
    linked by ``supersedes``."""
    def store(owner, chart: Chart, tournament: Tournament, name: str, supersedes) -> ArmyList:
        return lists.store_list(
            owner=owner, chart=chart, points_limit=tournament.points_limit, entries=entries, name=name,
            source_format=source_format, raw=raw, raw_filename=raw_filename,
            import_warnings=import_warnings, supersedes=supersedes)

    return _submit(actor, player, role, store)


def submit_checked_list(actor: Actor, player: Player, *, role: str,
                        check: Callable[[Chart, Tournament], tuple[list[dict], dict]]) -> PlayerList:
    """Store a new version of a list that its game system's rules check (armylists/systems):
    ``check(chart, tournament)`` returns the items to keep and the language-neutral answer; it
    runs under the same locks, so it sees the chart and settings the version is stored with."""
    def store(owner, chart: Chart, tournament: Tournament, name: str, supersedes) -> ArmyList:
        items, report = check(chart, tournament)
        return lists.store_checked_list(owner=owner, chart=chart, points_limit=tournament.points_limit,
                                        items=items, report=report, name=name, supersedes=supersedes)

    return _submit(actor, player, role, store)


def system_list_data(tournament: Tournament, chart: Chart, rules: ListRules,
                     sent: Mapping[str, Any]) -> dict[str, Any]:
    """A list body of a system with its own rules, checked by the system's serializer: the
    event gives ``chart``, ``points_limit`` and the settings the system reads (advanced rules,
    commando size), whatever the body says. A malformed body raises DRF's ValidationError."""
    body = {**sent, "chart": chart.slug, "points_limit": tournament.points_limit,
            **tournament.rules.list_inputs(tournament)}
    checked = rules.serializer(data=body)
    checked.is_valid(raise_exception=True)
    return checked.validated_data


def submit_system_list(actor: Actor, player: Player, *, role: str, rules: ListRules,
                       data: Mapping[str, Any]) -> PlayerList:
    """Check ``data`` (from ``system_list_data``) with the system's rules and store it;
    ``ListRefused`` for an unknown faction or option."""
    def check(chart: Chart, tournament: Tournament) -> tuple[list[dict], dict]:
        answer = rules.check(chart, data)
        return rules.stored_items(data, answer), rules.stored_report(data, answer)

    return submit_checked_list(actor, player, role=role, check=check)


@transaction.atomic
def _submit(actor: Actor, player: Player, role: str, store: Callable[..., ArmyList]) -> PlayerList:
    if not may_edit(actor, player):
        raise Forbidden(_("Only this player or an organiser can change this list."), "not_your_list")
    # The player's and the tournament's rows only (the latter orders this submission against a
    # status change), not the chart and game system every event shares.
    locked_player = Player.objects.select_for_update(
        of=("self", "tournament"), no_key=True).select_related(
        "tournament__chart__game_system", "tournament__game_system").get(pk=player.pk)
    tournament = locked_player.tournament
    chart = chart_for(tournament, role)
    if lists_locked(tournament) and not locked_player.list_unlocked:
        raise Conflict(_("Lists are locked for this tournament. Ask an organiser to unlock yours."),
                       "list_locked")
    current = PlayerList.objects.select_for_update().filter(player=locked_player, role=role).first()
    army_list = store(locked_player.user, chart, tournament, f"{locked_player.name} — {tournament.name}"[:200],
                      current.army_list if current else None)
    if current is None:
        current = PlayerList.objects.create(player=locked_player, role=role, army_list=army_list)
    else:
        current.army_list = army_list
        current.save(update_fields=["army_list", "updated_at"])
    if locked_player.list_unlocked and lists_locked(tournament):
        # One resubmission per unlock: the list is locked again at once.
        locked_player.list_unlocked = False
        locked_player.save(update_fields=["list_unlocked"])
    record(actor, "list_submitted", tournament, locked_player,
           {"player": locked_player.pk, "role": role, "list": army_list.pk, "valid": army_list.valid})
    return current


@transaction.atomic
def unlock_list(actor: Actor, player: Player, reason: str) -> Player:
    require_staff(actor)
    if not reason.strip():
        raise Invalid(_("Say why the list is unlocked."), "reason_required")
    locked_player = Player.objects.select_for_update().get(pk=player.pk)
    if not lists_locked(locked_player.tournament):
        # An unlock given early would silently carry over past the lock.
        raise Conflict(_("Lists are not locked yet: this player can still change their list."),
                       "list_not_locked")
    locked_player.list_unlocked = True
    locked_player.save(update_fields=["list_unlocked"])
    record(actor, "list_unlocked", locked_player.tournament, locked_player,
           {"player": locked_player.pk, "reason": reason.strip()})
    return locked_player


def current_list(player: Player, role: str = "") -> ArmyList | None:
    row = PlayerList.objects.select_related("army_list__chart__game_system").filter(
        player=player, role=role).first()
    return row.army_list if row else None


def versions(army_list: ArmyList) -> list[int]:
    """Ids of the earlier versions, newest first."""
    return [earlier.pk for earlier in history(army_list)[1:]]


def history(army_list: ArmyList) -> list[ArmyList]:
    """``army_list`` and every version it supersedes, newest first, in one query.

    The versions form a chain through ``supersedes``; a recursive CTE (SQLite and PostgreSQL)
    walks it in the database instead of one query per version. ``depth`` caps a corrupt cycle.
    """
    table = ArmyList._meta.db_table
    sql = f"""
        WITH RECURSIVE chain(id, depth) AS (
            SELECT id, 0 FROM {table} WHERE id = %s
            UNION ALL
            SELECT a.supersedes_id, chain.depth + 1 FROM {table} a JOIN chain ON a.id = chain.id
            WHERE a.supersedes_id IS NOT NULL AND chain.depth < {MAX_VERSIONS}
        )
        SELECT {table}.* FROM {table} JOIN chain ON {table}.id = chain.id ORDER BY chain.depth
    """  # noqa: S608 (the table name comes from the model, the id is a parameter)
    seen: set[int] = set()
    chain = []
    for version in ArmyList.objects.raw(sql, [army_list.pk]):
        if version.pk in seen:
            break
        seen.add(version.pk)
        if version.chart_id == army_list.chart_id and ArmyList.chart.is_cached(army_list):
            version.chart = army_list.chart  # the versions share it: no query per version
        chain.append(version)
    return chain
