"""Load the Cities of Death catalogue: levels, special rules, stratagems, missions, margin bands."""
from django.db import migrations


def load(apps, schema_editor):
    from missions import catalogue

    catalogue.load(apps, catalogue.read())


class Migration(migrations.Migration):
    dependencies = [("missions", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
