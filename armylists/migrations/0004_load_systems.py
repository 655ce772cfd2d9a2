"""Load Warhammer Battle, Urban War and Epic 40,000 (game systems, slots, charts, factions, profile
cards) once; from then on staff edit them in the admin. w40k4 keeps the default kind, chart."""
from django.db import migrations

FILES = ("whfb.json", "urban_war.json", "epic40k.json")


def load(apps, schema_editor):
    from armylists import catalogue

    for name in FILES:
        catalogue.load(apps, catalogue.read(name))


class Migration(migrations.Migration):
    dependencies = [("armylists", "0003_game_systems")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
