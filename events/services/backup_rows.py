"""One row of a backup document, both ways: a model row as JSON columns on the way out
(``events.services.backup``, ``campaign_backup``), a checked model row from those columns and
bulk inserts that keep the document's timestamps on the way in (``restore``, ``campaign_restore``)."""
from __future__ import annotations

import base64
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import models
from django.utils.duration import duration_string
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid


def plain(value: Any) -> Any:
    """A column's value as JSON: dates in ISO 8601, durations as Django writes them, binary in
    base64."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return duration_string(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal):
        return str(value)
    return value


# Secrets that stay with this database (none now: a restored player keeps their check-in code,
# so the QR code of their registration e-mail still works, unless this database already has it).
LOCAL_COLUMNS: frozenset[str] = frozenset()


def columns(model: type[models.Model]) -> list[models.Field]:
    """The columns of ``model`` a document holds as they are: all but the id, the relations
    (written by hand, as references) and the local secrets."""
    return [f for f in model._meta.concrete_fields
            if not (f.primary_key or f.is_relation or f.name in LOCAL_COLUMNS)]


def row_data(obj: models.Model) -> dict[str, Any]:
    return {f.name: plain(getattr(obj, f.attname)) for f in columns(type(obj))}


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def numbering(ids: Iterable[int]) -> dict[int, int]:
    """Database id -> document ref (1, 2, ...) in the order given."""
    return {pk: ref for ref, pk in enumerate(ids, start=1)}


def grouped(rows: Iterable[Any], attribute: str) -> defaultdict[int, list[Any]]:
    """Rows by the value of ``attribute`` (a foreign key id), in their order."""
    groups: defaultdict[int, list[Any]] = defaultdict(list)
    for row in rows:
        groups[getattr(row, attribute)].append(row)
    return groups


def lookup(table: Mapping[int, Any]):
    def find(value: Any) -> Any:
        try:
            return table.get(int(value))
        except (TypeError, ValueError):
            return None
    return find


# On the way in -----------------------------------------------------------------------------------

def build(model: type[models.Model], data: Mapping[str, Any], **relations: Any) -> models.Model:
    """A row of ``model`` from its document columns (absent ones take their default), checked."""
    values = {}
    for f in columns(model):
        if f.name in data:
            raw = data[f.name]
            values[f.attname] = None if raw is None else f.to_python(raw)
    obj = model(**values, **relations)
    # JSON columns are taken as they are (an empty list is a value, not a blank field).
    obj.clean_fields(exclude=[f.name for f in model._meta.concrete_fields
                              if f.is_relation or isinstance(f, models.JSONField) or f.primary_key])
    return obj


def create_all(model: type[models.Model], objs: list[models.Model]) -> None:
    """Insert ``objs`` (their ids are set), keeping the document's timestamps: saving stamps
    ``auto_now``/``auto_now_add`` columns with the current time, so they are written again."""
    stamped = [f for f in model._meta.concrete_fields
               if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    kept = [[getattr(obj, f.attname) for f in stamped] for obj in objs]
    model.objects.bulk_create(objs, batch_size=500)
    for obj, values in zip(objs, kept, strict=True):
        for f, value in zip(stamped, values, strict=True):
            if value is not None:
                setattr(obj, f.attname, value)
    if stamped and objs:
        model.objects.bulk_update(objs, [f.name for f in stamped], batch_size=500)


def distinct_refs(rows: Iterable[Mapping[str, Any]]) -> None:
    """``Invalid`` when two rows of one kind share a ``ref``."""
    seen: set[Any] = set()
    for row in rows:
        if row["ref"] in seen:
            raise Invalid(_("The export is damaged: two rows share the reference %(ref)s.")
                          % {"ref": row["ref"]}, "backup_damaged")
        seen.add(row["ref"])
