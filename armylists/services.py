"""Army-list use cases: read a roster, validate against a chart, store a list with its verdict.

The count-based checks and their reports are in chart_reports.py."""
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from armylists.chart_reports import (
    chart_spec,
    problem_data,
    report_data,
    validate_entries,
)
from armylists.models import ArmyList, Chart, GameSystem
from armylists.roster import ParsedRoster, RosterUnreadable, parse_roster
from armylists.validation import ChartSpec, Entry, Problem, validate
from config.input_checks import contains_nul


def charts_with_rows():
    return Chart.objects.select_related("game_system").prefetch_related("rows__slot")


def slot_aliases(game_system: GameSystem) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for slot in game_system.slots.all():
        for alias in [slot.code, slot.name_en, slot.name_fr, *slot.aliases]:
            aliases[str(alias)] = slot.code
    return aliases


def read_roster(data: bytes | str, fmt: str, game_system: GameSystem) -> ParsedRoster:
    """Parse an upload into entries; raises RosterUnreadable with a reason a player can act on."""
    expected = [game_system.name_en, game_system.name_fr, *game_system.aliases]
    parsed = parse_roster(
        data, fmt, aliases=slot_aliases(game_system), expected_game_system_aliases=expected
    )
    if _holds_nul(parsed):  # PostgreSQL cannot store it, and no real export holds one
        raise RosterUnreadable("bad_input")
    return parsed


def _holds_nul(parsed: ParsedRoster) -> bool:
    return contains_nul([parsed.name, parsed.game_system,
                         [(entry.name, entry.slot) for entry in parsed.entries],
                         [dict(problem.params) for problem in parsed.warnings]])


def entries_data(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    return [asdict(e) for e in entries]


@transaction.atomic
def store_list(
    *, owner, chart: Chart, points_limit: int, entries: Sequence[Entry], name: str = "",
    source_format: str = "units", raw: bytes | None = None, raw_filename: str = "",
    import_warnings: Sequence[Problem] = (), supersedes: ArmyList | None = None,
) -> ArmyList:
    """Validate and store a new list; an earlier version is kept and linked, never overwritten."""
    report = validate_entries(chart, points_limit, entries)
    return ArmyList.objects.create(
        owner=owner, name=name, chart=chart, points_limit=points_limit,
        source_format=source_format, raw_upload=raw, raw_filename=raw_filename,
        entries=entries_data(entries),
        import_warnings=[problem_data(p) for p in import_warnings],
        report=report_data(report, import_warnings), valid=report.valid,
        total_points=report.total_points, supersedes=supersedes, validated_at=timezone.now(),
    )


def store_checked_list(
    *, owner, chart: Chart, points_limit: int, items: Sequence[Mapping[str, Any]],
    report: Mapping[str, Any], name: str = "", supersedes: ArmyList | None = None,
) -> ArmyList:
    """Store a list a game system's own rules checked (armylists/systems): its items as sent and
    the language-neutral answer; an earlier version is kept and linked."""
    return ArmyList.objects.create(
        owner=owner, name=name, chart=chart, points_limit=points_limit, source_format="units",
        entries=[dict(item) for item in items], report=dict(report), valid=bool(report["valid"]),
        total_points=max(0, int(report.get("total_points") or 0)), supersedes=supersedes,
        validated_at=timezone.now(),
    )


def stored_entries(army_list: ArmyList) -> list[Entry]:
    return [Entry(**e) for e in army_list.entries]


def revalidate_chart_lists(chart_id: int) -> int:
    """Re-check every stored list of a chart after a TO edits it; returns how many changed."""
    from armylists.systems import rules_for  # the registry imports this module

    chart = charts_with_rows().select_related("game_system").get(pk=chart_id)
    rules = rules_for(chart.game_system.slug)
    if not rules.shared_view:
        return sum(_recheck(army_list, chart, rules)
                   for army_list in ArmyList.objects.filter(chart=chart).iterator())
    spec = chart_spec(chart)
    changed = 0
    for army_list in ArmyList.objects.filter(chart=chart).iterator():
        changed += _revalidate(army_list, spec)
    return changed


def _recheck(army_list: ArmyList, chart: Chart, rules: Any) -> int:
    """A list of a system with its own rules, checked again by them (ListRules.recheck)."""
    with transaction.atomic():
        locked = ArmyList.objects.select_for_update().get(pk=army_list.pk)
        report = rules.recheck(chart, locked.points_limit, locked.entries, locked.report or {})
        if report is None or report == locked.report:
            return 0
        locked.report, locked.valid = report, bool(report["valid"])
        locked.total_points = max(0, int(report.get("total_points") or 0))
        locked.validated_at = timezone.now()
        locked.save(update_fields=["report", "valid", "total_points", "validated_at"])
        return 1


def _revalidate(army_list: ArmyList, spec: ChartSpec) -> int:
    with transaction.atomic():
        locked = ArmyList.objects.select_for_update().get(pk=army_list.pk)
        report = validate(stored_entries(locked), spec, locked.points_limit)
        warnings = [Problem(p["code"], p.get("slot"), p.get("params", {})) for p in locked.import_warnings]
        data = report_data(report, warnings)
        if data == locked.report:
            return 0
        locked.report, locked.valid, locked.total_points = data, report.valid, report.total_points
        locked.validated_at = timezone.now()
        locked.save(update_fields=["report", "valid", "total_points", "validated_at"])
        return 1

