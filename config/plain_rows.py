"""Model rows read with plain SQL on a hot path (a team round's draft commits: every captain at
once), built into model instances with the fields' own converters, as the ORM builds them.

The ORM compiles a query anew on every call, which costs more than running it for a join of a
few tables; SQL written here is put together once per process. Only the named fields are
loaded: any other is deferred and fetched on first access, as with ``QuerySet.only()``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections
from django.db.models import Model

Converter = Callable[[Any, Any, Any], Any]


@cache
def _field_converters(model: type[Model], attname: str, connection: Any) -> tuple[Any, tuple[Converter, ...]]:
    """The column expression of a field and what turns its raw database value into the
    field's Python value (the backend's own, then the field's ``from_db_value``), as the SQL
    compiler finds them; per connection object (each thread has its own)."""
    field = next(f for f in model._meta.concrete_fields if f.attname == attname)
    column = field.get_col(model._meta.db_table)
    found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
    return column, tuple(found)


@cache
def _in_model_order(model: type[Model], fields: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The positions of ``fields`` sorted into the model's own field order (``from_db`` takes a
    partial row in that order), and the fields so sorted."""
    position = {f.attname: i for i, f in enumerate(model._meta.concrete_fields)}
    order = tuple(sorted(range(len(fields)), key=lambda i: position[fields[i]]))
    return order, tuple(fields[i] for i in order)


@dataclass(frozen=True)
class Part:
    """The fields (attnames) of one model read under a table alias of a plain query."""

    model: type[Model]
    alias: str
    fields: tuple[str, ...]

    def columns(self, using: str = "default") -> list[str]:
        quote = connections[using].ops.quote_name
        by_attname = {f.attname: f.column for f in self.model._meta.concrete_fields}
        return [f"{self.alias}.{quote(by_attname[name])}" for name in self.fields]

    def table(self, using: str = "default") -> str:
        return f"{connections[using].ops.quote_name(self.model._meta.db_table)} {self.alias}"

    def build(self, values: Sequence[Any], using: str = "default") -> Model | None:
        """The instance these values make (None: a LEFT JOIN found no row)."""
        if values[0] is None:  # the first field is the primary key
            return None
        connection = connections[using]
        converted = []
        for name, value in zip(self.fields, values, strict=True):
            column, converters = _field_converters(self.model, name, connection)
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        order, names = _in_model_order(self.model, self.fields)
        return self.model.from_db(using, names, [converted[i] for i in order])


def select(parts: Sequence[Part], using: str = "default") -> str:
    """``SELECT`` with every part's columns, in order."""
    return "SELECT " + ", ".join(column for part in parts for column in part.columns(using))


def split(parts: Sequence[Part], row: Sequence[Any], using: str = "default") -> list[Model | None]:
    """A row of ``select(parts)`` as one instance per part."""
    out, start = [], 0
    for part in parts:
        out.append(part.build(row[start:start + len(part.fields)], using))
        start += len(part.fields)
    return out


@cache
def _insert_sql(model: type[Model], using: str) -> tuple[str, tuple[Any, ...], bool]:
    """The INSERT of a new row of ``model`` on database ``using``, its fields, and whether the
    statement returns the primary key."""
    connection = connections[using]
    quote = connection.ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if f is not model._meta.pk)
    returning = connection.features.can_return_columns_from_insert
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
           f" VALUES ({', '.join(['%s'] * len(fields))})")
    if returning:
        sql += f" RETURNING {quote(model._meta.pk.column)}"
    return sql, fields, returning


def insert(instance: Model, using: str = "default") -> Model:
    """Save a new instance in one plain INSERT, its primary key read back: what ``save()``
    stores (defaults, ``auto_now_add``, foreign keys of saved objects, the fields' own
    preparation), with no ``pre_save``/``post_save`` signal: for models nobody listens to."""
    connection = connections[using]
    sql, fields, returning = _insert_sql(type(instance), using)
    instance._prepare_related_fields_for_save(operation_name="save")
    values = [f.get_db_prep_save(f.pre_save(instance, add=True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        key = cursor.fetchone()[0] if returning else cursor.lastrowid
    setattr(instance, type(instance)._meta.pk.attname, key)
    instance._state.adding, instance._state.db = False, using
    return instance
