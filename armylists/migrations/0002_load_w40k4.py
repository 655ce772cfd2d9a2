"""Load Warhammer 40,000 4th edition: slots and the standard and Strike and Withdraw charts."""
from django.db import migrations


def load(apps, schema_editor):
    from armylists import catalogue

    catalogue.load(apps, catalogue.read("w40k4.json"))


class Migration(migrations.Migration):
    dependencies = [("armylists", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
