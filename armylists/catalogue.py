"""Load the game-system reference data (slots, charts) from `armylists/data/*.json`."""
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
    system, _created = GameSystem.objects.update_or_create(
        slug=gs["slug"],
        defaults={"name_en": gs["name_en"], "name_fr": gs["name_fr"], "aliases": gs.get("aliases", [])},
    )
    slots = {}
    for row in data["slots"]:
        slots[row["code"]], _created = Slot.objects.update_or_create(
            game_system=system, code=row["code"],
            defaults={key: row[key] for key in ("name_en", "name_fr", "order", "aliases")},
        )
    for row in data["charts"]:
        chart, _created = Chart.objects.update_or_create(
            slug=row["slug"],
            defaults={
                "game_system": system, "name_en": row["name_en"], "name_fr": row["name_fr"],
                "points_min": row.get("points_min"), "points_max": row.get("points_max"),
            },
        )
        for cell in row["slots"]:
            ChartSlot.objects.update_or_create(
                chart=chart, slot=slots[cell["slot"]],
                defaults={"compulsory": cell["compulsory"], "optional": cell["optional"]},
            )
