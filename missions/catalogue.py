"""Load the Cities of Death catalogue from `missions/data/cities_of_death.json` into the models."""
import json
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).resolve().parent / "data" / "cities_of_death.json"

LEVEL_FIELDS = ("name_en", "name_fr", "order", "table_width_cm", "table_depth_cm",
                "ruins_min", "ruins_max", "stratagems_per_player")
RULE_FIELDS = ("name_en", "name_fr", "summary_en", "summary_fr", "params")
CATEGORY_FIELDS = ("name_en", "name_fr", "order", "summary_en", "summary_fr")
STRATAGEM_FIELDS = ("order", "name_en", "name_fr", "summary_en", "summary_fr", "placement",
                    "range_inches")
MISSION_FIELDS = ("kind", "d6", "order", "name_en", "name_fr", "objective_kind", "objective_en",
                  "objective_fr", "deployment_en", "deployment_fr", "game_turns", "uses_victory_points",
                  "roles", "role_charts", "first_turn", "special_rules_by_level", "victory_points",
                  "stratagem_exceptions", "outcome_fields", "diagram")
BAND_FIELDS = ("name_en", "name_fr", "min_fraction")


def read() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def _pick(row: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {key: row[key] for key in fields if key in row}


def _upsert(model, rows, fields) -> dict[str, Any]:
    return {
        row["slug"]: model.objects.update_or_create(slug=row["slug"], defaults=_pick(row, fields))[0]
        for row in rows
    }


def load(apps, data: dict[str, Any]) -> None:
    """Create or update every catalogue row; `apps` is a migration's app registry."""
    get = lambda name: apps.get_model("missions", name)  # noqa: E731
    _upsert(get("Level"), data["levels"], LEVEL_FIELDS)
    _upsert(get("SpecialRule"), data["special_rules"], RULE_FIELDS)
    categories = _upsert(get("StratagemCategory"), data["stratagem_categories"], CATEGORY_FIELDS)
    for row in data["stratagems"]:
        defaults = {**_pick(row, STRATAGEM_FIELDS), "category": categories[row["category"]],
                    "markers": row.get("markers") or ""}
        get("Stratagem").objects.update_or_create(slug=row["slug"], defaults=defaults)
    for row in data["missions"]:
        defaults = {**_pick(row, MISSION_FIELDS),
                    "game_turns_note_en": row.get("game_turns_note_en") or "",
                    "game_turns_note_fr": row.get("game_turns_note_fr") or "",
                    "notes": {"fr": row.get("notes_fr", []), "en": row.get("notes_en", [])}}
        get("Mission").objects.update_or_create(slug=row["slug"], defaults=defaults)
    _upsert(get("MarginBand"), data.get("margin_bands", []), BAND_FIELDS)
