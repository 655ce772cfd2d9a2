"""Count-based chart checks and their stored reports: a list's units against a chart's rows,
the language-neutral report kept with the list, and its messages added when it is read.

What the default chart rules (armylists/systems/chart.py) check with; it asks no registry, so
the registry's modules may import it."""
import json
from collections.abc import Mapping, Sequence
from typing import Any

from armylists.messages import render_problem
from armylists.models import Chart, GameSystem
from armylists.roster.warnings import merge_warnings
from armylists.validation import ChartSpec, Entry, Problem, Report, chart_from_rows, validate
from config.i18n import localized


def chart_spec(chart: Chart) -> ChartSpec:
    rows = [(row.slot.code, row.compulsory, row.optional) for row in chart.rows.all()]
    return chart_from_rows(chart.slug, rows, chart.points_min, chart.points_max)


def slot_names(game_system: GameSystem, language: str | None = None) -> dict[str, str]:
    return {slot.code: localized(slot, "name", language) for slot in game_system.slots.all()}


def entries_from_units(units: Sequence[Mapping[str, Any]]) -> list[Entry]:
    return [
        Entry(name=u["name"], slot=u.get("slot"), points=u["points"], models=u.get("models", 1))
        for u in units
    ]


def validate_entries(chart: Chart, points_limit: int, entries: Sequence[Entry]) -> Report:
    return validate(entries, chart_spec(chart), points_limit)


def problem_data(problem: Problem) -> dict[str, Any]:
    return {"code": problem.code, "slot": problem.slot, "params": dict(problem.params)}


def report_data(report: Report, extra_warnings: Sequence[Problem] = ()) -> dict[str, Any]:
    """The language-neutral report that is stored; messages are added when it is read."""
    return _as_stored({
        "valid": report.valid,
        "total_points": report.total_points,
        "slots": {
            slot: {"count": c.count, "min": c.min, "max": c.max} for slot, c in report.slots.items()
        },
        "errors": [problem_data(p) for p in report.errors],
        "warnings": [problem_data(p) for p in merge_warnings(extra_warnings, report.warnings)],
    })


def _as_stored(data: dict[str, Any]) -> dict[str, Any]:
    """The JSON round trip (tuples become lists), so fresh and stored reports compare equal."""
    return json.loads(json.dumps(data))


def render_report(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """Add a `message` in the active language to every problem of a stored report."""
    def render(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for p in problems:
            item = {"code": p["code"], "message": render_problem(p["code"], p.get("slot"), p.get("params", {}), names)}
            if p.get("slot"):
                item["slot"] = p["slot"]
            item["params"] = p.get("params", {})
            out.append(item)
        return out

    return {**data, "errors": render(data["errors"]), "warnings": render(data["warnings"])}
