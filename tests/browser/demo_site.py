"""The demo site (`manage.py demo_data`) for the page tests, built once per worker.

demo_data goes through the services (audit entries, notices, list checks): some 5 s for ~420
rows. The first test of a worker runs it and keeps every row it left; a later test, which
starts from the emptied database like any transactional test, gets the same rows back in a few
upserts (the reference data's quicker restore, tests/serialized_rollback.py). A test then
changes its own copy only: the next one starts from the demo site again. (Tests in one
transaction, without a live server, share a run inside it instead: tests/site/demo_world.py.)
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

_rows: dict[str, str] = {}  # database name -> every row after demo_data, as JSON


def demo_site(settings: Any, tmp_path: Path) -> None:
    """The database as `manage.py demo_data` leaves it."""
    settings.DATA_DIR = tmp_path  # demo_data writes its passwords there
    name = connection.settings_dict["NAME"]
    if name in _rows:
        _restore(_rows[name])
        return
    call_command("demo_data", stdout=io.StringIO())
    _rows[name] = connection.creation.serialize_db_to_string()


def _restore(data: str) -> None:
    connection.creation.deserialize_db_from_string(data)
    # The rows keep their keys: the sequences move past them (a test may have reset them).
    models = [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
