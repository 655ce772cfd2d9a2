"""Add the Warhammer 40,000 4th edition codex armies (armylists/data/w40k4.json ``factions``).

Idempotent: a faction already there (same system and slug) is left as staff may have edited it."""
from django.db import migrations


def load(apps, schema_editor):
    from armylists import catalogue

    GameSystem = apps.get_model("armylists", "GameSystem")
    Faction = apps.get_model("armylists", "Faction")
    system = GameSystem.objects.filter(slug="w40k4").first()
    if system is None:
        return
    for row in catalogue.read("w40k4.json").get("factions", []):
        Faction.objects.get_or_create(
            game_system=system, slug=row["slug"],
            defaults={key: row[key] for key in catalogue.FACTION_KEYS if key in row},
        )


class Migration(migrations.Migration):
    dependencies = [("armylists", "0004_load_systems")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
