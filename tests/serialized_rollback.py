"""A quicker restore of the reference data before each transactional test, and again right
after its flush.

Django's ``serialized_rollback`` parses the JSON it took after the migrations and saves its
~460 rows one by one before each transactional test (an UPDATE, then an INSERT: some 900
queries, the bulk of such a test's setup). Here the rows are parsed once per process and
written a model at a time, as upserts on the primary key: the same rows, fields and raw values
as ``save_base(raw=True)`` writes, in a few queries. Models someone listens to (pre_save,
post_save) and many-to-many values still go through Django's own path.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core import serializers
from django.db import connections, models
from django.db.backends.base.creation import BaseDatabaseCreation
from django.db.models import signals
from django.db.models.constants import OnConflict
from django.db.transaction import atomic
from django.test import TransactionTestCase

_parsed: dict[tuple[str, str], list[Any]] = {}


def _deserialized(alias: str, data: str) -> list[Any]:
    """The DeserializedObjects of ``data``, parsed once: the string never changes in a run."""
    key = (alias, data)
    if key not in _parsed:
        _parsed[key] = list(serializers.deserialize("json", data, using=alias))
    return _parsed[key]


def _by_model(objects: list[Any]) -> Iterator[tuple[type[models.Model], list[models.Model]]]:
    """Consecutive runs of one model (the serialized data lists models one after another)."""
    run: list[models.Model] = []
    for obj in objects:
        if run and type(obj.object) is not type(run[0]):
            yield type(run[0]), run
            run = []
        run.append(obj.object)
    if run:
        yield type(run[0]), run


def _has_listeners(model: type[models.Model]) -> bool:
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def _upsert(alias: str, model: type[models.Model], rows: list[models.Model]) -> None:
    """INSERT ... ON CONFLICT (pk) DO UPDATE: a flushed table gets the rows, one still holding
    them (the first transactional test of a worker) gets their values again, as save() would."""
    meta = model._meta
    fields = [f for f in meta.local_concrete_fields if not f.generated]
    others = [f for f in fields if not f.primary_key]
    connection = connections[alias]
    batch = max(connection.ops.bulk_batch_size(fields, rows), 1)
    manager = model._base_manager.using(alias)
    for start in range(0, len(rows), batch):
        manager._insert(rows[start:start + batch], fields=fields, raw=True, using=alias,
                        on_conflict=OnConflict.UPDATE if others else OnConflict.IGNORE,
                        update_fields=others or None,
                        unique_fields=[meta.pk] if others else None)


def deserialize_db_from_string(self: BaseDatabaseCreation, data: str) -> None:
    """Django's method (same transaction, same constraint check), with the rows upserted."""
    alias = self.connection.alias
    objects = _deserialized(alias, data)
    with atomic(using=alias):
        with self.connection.constraint_checks_disabled():
            for model, rows in _by_model(objects):
                if _has_listeners(model):
                    for row in rows:
                        models.Model.save_base(row, using=alias, raw=True)
                else:
                    _upsert(alias, model, rows)
            for obj in objects:
                for accessor, values in (obj.m2m_data or {}).items():
                    getattr(obj.object, accessor).set(values)
        self.connection.check_constraints(
            table_names={type(obj.object)._meta.db_table for obj in objects})


_flush = TransactionTestCase._fixture_teardown


def _fixture_teardown(self: TransactionTestCase) -> None:
    """Django's flush, then the reference rows written back at once. Django restores them only
    when the next transactional test starts, and relies on plain tests running before every
    transactional one; pytest-xdist's --dist loadgroup hands a worker its larger groups first,
    so a plain test may follow a group of browser tests on the same worker."""
    _flush(self)
    if not self.serialized_rollback:
        return
    for alias in self._databases_names(include_mirrors=False):
        contents = getattr(connections[alias], "_test_serialized_contents", None)
        if contents:
            connections[alias].creation.deserialize_db_from_string(contents)


def install() -> None:
    BaseDatabaseCreation.deserialize_db_from_string = deserialize_db_from_string
    TransactionTestCase._fixture_teardown = _fixture_teardown
