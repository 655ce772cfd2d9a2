"""Bulk inserts through PostgreSQL's COPY, ``bulk_create`` on other databases.

Django renders every value of a ``bulk_create`` into the statement text on PostgreSQL
(client-side binding), escaping each one: for the megabyte of game JSON of a large round that
took a fifth of the pairing request (issue #15). COPY streams the same rows for a fraction of
the cost. The rows stored are the same either way.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connection, models

BATCH = 500  # bulk_create batches elsewhere (SQLite's parameter limit)
# Values the database adapter writes as they are: Django's preparation of a column would return
# them unchanged (a str subclass such as a TextChoices member is prepared as usual).
PLAIN = frozenset({int, str, bool, type(None)})


def _copies() -> bool:
    return connection.vendor == "postgresql"


def _json_dumper(field: models.Field) -> Callable[[Any], str | None] | None:
    """How a JSON field's value is written as text (None is SQL NULL, as Django stores it)."""
    if not isinstance(field, models.JSONField):
        return None
    encoder = field.encoder

    def dump(value: Any) -> str | None:
        if value is None:
            return None
        if not value and type(value) in (dict, list):  # most games' outcome, deviations...
            return "{}" if type(value) is dict else "[]"
        return json.dumps(value, cls=encoder)
    return dump


def _copy(model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    quote = connection.ops.quote_name
    statement = f"COPY {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor, connection.wrap_database_errors, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def insert_objects(model: type[models.Model], objects: Sequence[models.Model]) -> None:
    """Insert new model instances and set their primary keys, as ``bulk_create`` does.

    On PostgreSQL the keys are drawn from the table's sequence first, then the rows copied."""
    if not objects:
        return
    if not _copies():
        model.objects.bulk_create(objects, batch_size=BATCH)
        return
    meta = model._meta
    pk = meta.pk
    fields = [f for f in meta.concrete_fields if f is not pk]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [connection.ops.quote_name(meta.db_table), pk.column, len(objects)])
        keys = [key for (key,) in cursor.fetchall()]
    dumpers = [_json_dumper(f) for f in fields]
    rows = []
    for key, obj in zip(keys, objects, strict=True):
        # What bulk_create does per object: foreign keys from saved objects, auto_now fields.
        obj._prepare_related_fields_for_save(operation_name="bulk_create")
        row = [key]
        for field, dump in zip(fields, dumpers, strict=True):
            value = field.pre_save(obj, add=True)
            if dump is not None:
                value = dump(value)
            elif type(value) not in PLAIN:
                value = field.get_db_prep_save(value, connection)
            row.append(value)
        rows.append(row)
    _copy(model, [pk.column, *(f.column for f in fields)], rows)
    for key, obj in zip(keys, objects, strict=True):
        setattr(obj, pk.attname, key)
        obj._state.adding, obj._state.db = False, connection.alias
