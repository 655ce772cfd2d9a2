"""Load the game-system reference data (slots, charts, factions, profile cards) from
`armylists/data/*.json`.

Keys added after 0002 (`kind`, a chart's `rules`, `factions`, `profile_cards`) are written only when
the file has them, so the 0002 migration (whose models lack those fields) still runs this code."""
import json
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"


def read(name: str = "w40k4.json") -> dict[str, Any]:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def load(apps, data: dict[str, Any]) -> None:
    """Create or update the rows of one data file; `apps` is a migration's app registry."""
    GameSystem = apps.get_model("armylists", "GameSystem")
    Slot = apps.get_model("armylists", "Slot")
    Chart = apps.get_model("armylists", "Chart")
    ChartSlot = apps.get_model("armylists", "ChartSlot")
    gs = data["game_system"]
    defaults = {"name_en": gs["name_en"], "name_fr": gs["name_fr"], "aliases": gs.get("aliases", [])}
    if "kind" in gs:
        defaults["kind"] = gs["kind"]
    system, _created = GameSystem.objects.update_or_create(slug=gs["slug"], defaults=defaults)
    slots = {}
    for row in data.get("slots", []):
        slots[row["code"]], _created = Slot.objects.update_or_create(
            game_system=system, code=row["code"],
            defaults={key: row[key] for key in ("name_en", "name_fr", "order", "aliases")},
        )
    for row in data.get("charts", []):
        chart_defaults = {
            "game_system": system, "name_en": row["name_en"], "name_fr": row["name_fr"],
            "points_min": row.get("points_min"), "points_max": row.get("points_max"),
        }
        if "rules" in row:
            chart_defaults["rules"] = row["rules"]
        chart, _created = Chart.objects.update_or_create(slug=row["slug"], defaults=chart_defaults)
        for cell in row["slots"]:
            ChartSlot.objects.update_or_create(
                chart=chart, slot=slots[cell["slot"]],
                defaults={"compulsory": cell["compulsory"], "optional": cell["optional"]},
            )
    factions = _load_factions(apps, system, data.get("factions", []))
    _load_cards(apps, system, factions, data.get("profile_cards", []))


FACTION_KEYS = ("name_en", "name_fr", "tags")
CARD_KEYS = ("name_en", "name_fr", "stats", "cal_options", "options", "options_cost_modifier",
             "equipment_en", "equipment_fr", "weapons", "special_rules")


def _load_factions(apps, system, rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {}
    try:
        Faction = apps.get_model("armylists", "Faction")
    except LookupError:  # 0002 loads w40k4.json before factions exist; 0005 adds its factions
        return {}
    return {
        row["slug"]: Faction.objects.update_or_create(
            game_system=system, slug=row["slug"],
            defaults={key: row[key] for key in FACTION_KEYS if key in row},
        )[0]
        for row in rows
    }


def _load_cards(apps, system, factions: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    ProfileCard = apps.get_model("armylists", "ProfileCard")
    for row in rows:
        defaults = {key: row[key] for key in CARD_KEYS if key in row}
        ProfileCard.objects.update_or_create(
            game_system=system, card=str(row["card"]),
            defaults={**defaults, "faction": factions[row["faction"]]},
        )
