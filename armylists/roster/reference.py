"""Readers for the game-system reference file ``armylists/data/w40k4.json`` (no database needed).

Django code passes aliases read from the database; these readers serve tests, benchmarks and as
the fallback for what the database does not model (the ignored categories).
"""
from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from armylists.validation import ChartSpec, chart_from_rows

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "w40k4.json"


def load_reference(path: str | Path | None = None) -> dict[str, Any]:
    """The whole reference file as a dict (a copy: the cached original stays untouched)."""
    return copy.deepcopy(_load(str(path or DEFAULT_PATH)))


@cache
def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def load_aliases(path: str | Path | None = None) -> dict[str, str]:
    """Alias -> slot code, for every slot; the slot's code and names count as aliases too."""
    aliases: dict[str, str] = {}
    for slot in load_reference(path)["slots"]:
        code = slot["code"]
        for name in (code, slot["name_en"], slot["name_fr"], *slot.get("aliases", [])):
            aliases.setdefault(name.casefold(), code)
    return aliases


def load_ignored_categories(path: str | Path | None = None) -> dict[str, str]:
    """Category name -> kind ("configuration": skipped when free; "no_slot": kept, no slot)."""
    ignored: dict[str, str] = {}
    for group in load_reference(path).get("ignored_categories", []):
        for name in group.get("aliases", []):
            ignored.setdefault(name.casefold(), group["kind"])
    return ignored


def load_game_system_aliases(path: str | Path | None = None) -> tuple[str, ...]:
    """Names a roster may give the game system (its English and French names included)."""
    system = load_reference(path)["game_system"]
    return (system["name_en"], system["name_fr"], system["slug"], *system.get("aliases", []))


def load_slot_codes(path: str | Path | None = None) -> tuple[str, ...]:
    """Slot codes in display order."""
    slots = sorted(load_reference(path)["slots"], key=lambda slot: slot["order"])
    return tuple(slot["code"] for slot in slots)


def load_charts(path: str | Path | None = None) -> dict[str, ChartSpec]:
    """Every chart of the file, by slug, rows in slot display order."""
    order = {code: index for index, code in enumerate(load_slot_codes(path))}
    charts: dict[str, ChartSpec] = {}
    for chart in load_reference(path)["charts"]:
        rows = sorted(chart["slots"], key=lambda row: order.get(row["slot"], len(order)))
        charts[chart["slug"]] = chart_from_rows(
            chart["slug"],
            [(row["slot"], row["compulsory"], row["optional"]) for row in rows],
            points_min=chart.get("points_min"),
            points_max=chart.get("points_max"),
        )
    return charts
