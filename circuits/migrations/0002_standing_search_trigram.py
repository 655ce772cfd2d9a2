"""A trigram index for ?search= in large standings (PostgreSQL only).

``pg_trgm`` lets ``LIKE '%term%'`` use an index; a database user who may not create the
extension keeps the plain scan (the index is only an accelerator)."""
from django.db import migrations, transaction


def create(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            cursor.execute("CREATE INDEX IF NOT EXISTS circuits_standing_search_trgm "
                           "ON circuits_standing USING gin (search gin_trgm_ops)")
    except Exception:  # no right to create the extension: searches scan the circuit's rows
        pass


def drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS circuits_standing_search_trgm")


class Migration(migrations.Migration):
    dependencies = [("circuits", "0001_circuits")]
    operations = [migrations.RunPython(create, drop)]
