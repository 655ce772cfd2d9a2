"""The list a player brings to each week: checked against that week's points limit and, in an
escalation league, against their list of the week before (every unit kept)."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from armylists import services as armylists
from armylists.models import ArmyList
from armylists.validation import Entry, Problem
from events.audit import Actor, record
from events.errors import Conflict, Forbidden
from events.models import Player, Tournament
from events.services import lists
from leagues.engine.escalation import removed_units
from leagues.models import Week, WeekList
from leagues.services.setup import get_week, points_limit, require_league


def unit_names(army_list: ArmyList) -> list[str]:
    return [str(entry.get("name", "")) for entry in army_list.entries or ()]


def earlier_list(week: Week, player: Player) -> WeekList | None:
    """The player's list of the latest week before ``week`` (week n−1 when they sent one)."""
    return (WeekList.objects.select_related("army_list", "week")
            .filter(player=player, week__league_id=week.league_id, week__number__lt=week.number)
            .order_by("-week__number").first())


@transaction.atomic
def submit_week_list(actor: Actor, tournament: Tournament, player: Player, number: int, *,
                     entries: Sequence[Entry], source_format: str = "units", raw: bytes | None = None,
                     raw_filename: str = "", import_warnings: Sequence[Problem] = ()) -> WeekList:
    """A new version of the player's list for week ``number`` (every version kept); a player
    may send it until the week closes, staff at any time."""
    league = require_league(tournament)
    if not lists.may_edit(actor, player):
        raise Forbidden(_("Only this player or an organiser can change this list."), "not_your_list")
    locked = Player.objects.select_for_update().get(pk=player.pk)  # one version at a time
    week = get_week(league, number)
    if not actor.is_staff and timezone.now() >= week.closes:
        raise Conflict(_("Week %(number)s is closed: ask an organiser to change this list.")
                       % {"number": number}, "league_week_closed")
    current = WeekList.objects.select_for_update().filter(week=week, player=locked).first()
    army_list = armylists.store_list(
        owner=locked.user, chart=tournament.chart, points_limit=points_limit(week, tournament),
        entries=entries, name=f"{locked.name} — {tournament.name} — {number}"[:200],
        source_format=source_format, raw=raw, raw_filename=raw_filename,
        import_warnings=import_warnings, supersedes=current.army_list if current else None)
    if league.escalation:
        _check_escalation(army_list, earlier_list(week, locked))
    if current is None:
        current = WeekList.objects.create(week=week, player=locked, army_list=army_list)
    else:
        current.army_list = army_list
        current.save(update_fields=["army_list", "updated_at"])
    record(actor, "league_list_submitted", tournament, locked,
           {"player": locked.pk, "week": number, "list": army_list.pk, "valid": army_list.valid})
    return current


def _check_escalation(army_list: ArmyList, earlier: WeekList | None) -> None:
    """Add ``escalation_unit_removed`` errors to the stored report (the list is then invalid)."""
    if earlier is None:
        return
    problems = removed_units(unit_names(earlier.army_list), unit_names(army_list), earlier.week.number)
    if not problems:
        return
    report = dict(army_list.report)
    report["errors"] = [*report.get("errors", []), *(
        {"code": p.code, "slot": None, "params": {"unit": p.unit, "week": p.week}} for p in problems)]
    report["valid"] = False
    army_list.report, army_list.valid = report, False
    army_list.save(update_fields=["report", "valid"])


def week_list(player: Player, week: Week) -> WeekList | None:
    return (WeekList.objects.select_related("army_list__chart__game_system")
            .filter(week=week, player=player).first())
