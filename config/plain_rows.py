"""Model rows read with plain SQL on a hot path (a team round's draft commits: every captain at
once), built into model instances with the fields' own converters, as the ORM builds them.

The ORM compiles a query anew on every call, which costs more than running it for a join of a
few tables; SQL written here is put together once per process. Only the named fields are
loaded: any other is deferred and fetched on first access, as with ``QuerySet.only()``.

On PostgreSQL these statements also run prepared (``cursor()``): Django binds parameters on the
client, so the server parsed and planned every statement anew, which cost it more than running
them (a draft read: about 0.4 ms to plan, 0.1 ms to run).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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


class _Shown:
    """A prepared statement as Django's query log reads it (``cursor._query.query``): psycopg
    keeps no text of it, so it is put together with its values only when a log asks."""

    def __init__(self, connection: Any, sql: str, params: Any) -> None:
        self.connection, self.sql, self.params = connection, sql, params

    @property
    def query(self) -> bytes:
        from psycopg import ClientCursor

        return ClientCursor(self.connection).mogrify(self.sql, self.params).encode()


@cache
def _prepared_cursor_class() -> type:
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparedCursor(ServerBindingCursor):
        """Parameters bound by the server and every statement prepared on its first run, then
        kept by psycopg for the connection's life (a rollback or DDL drops them all)."""

        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None,
                    binary: bool | None = None) -> Any:
            result = super().execute(query, params, prepare=True, binary=binary)
            self._query = _Shown(self.connection, query, params)
            return result

    return PreparedCursor


@contextmanager
def cursor(using: str = "default") -> Iterator[Any]:
    """A cursor for this module's fixed statements: on PostgreSQL each is prepared once per
    connection and then only bound and run (its plan kept); elsewhere Django's own cursor.
    Wrapped as Django wraps its cursors, so query logs, counts and execute wrappers see them."""
    connection = connections[using]
    prepare = connection.vendor == "postgresql" and connection.settings_dict["OPTIONS"].get(
        "prepare_threshold") is not None  # psycopg prepares nothing without a threshold
    if not prepare:
        with connection.cursor() as plain:
            yield plain
        return
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # Django's own wrapping of a new cursor (debug log, execute wrappers, thread check).
        wrapped = connection._prepare_cursor(_prepared_cursor_class()(connection.connection))
    with wrapped:
        yield wrapped


@cache
def _columns(model: type[Model], using: str) -> tuple[str, str, tuple[Any, ...]]:
    """A new row's INSERT into ``model``'s table without its VALUES (quoted table and column
    names), its primary key's column, and its fields in order."""
    quote = connections[using].ops.quote_name
    fields = tuple(f for f in model._meta.concrete_fields if f is not model._meta.pk)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
    return head, quote(model._meta.pk.column), fields


@cache
def _insert_sql(models: tuple[type[Model], ...], using: str) -> tuple[str, bool]:
    """One statement inserting a row of each model and returning their primary keys when the
    database can (several rows: PostgreSQL's data-modifying WITH queries, one round trip), and
    whether it returns them."""
    connection = connections[using]
    returning = connection.features.can_return_columns_from_insert
    parts, keys = [], []
    for n, model in enumerate(models):
        head, pk, fields = _columns(model, using)
        values = f"VALUES ({', '.join(['%s'] * len(fields))})"
        parts.append(f"{head} {values}" + (f" RETURNING {pk}" if returning else ""))
        keys.append(f"(SELECT {pk} FROM i{n})")
    if len(parts) == 1:
        return parts[0], returning
    named = ", ".join(f"i{n} AS ({part})" for n, part in enumerate(parts))
    return f"WITH {named} SELECT {', '.join(keys)}", returning


def _values(instance: Model, using: str) -> list[Any]:
    connection = connections[using]
    instance._prepare_related_fields_for_save(operation_name="save")
    return [f.get_db_prep_save(f.pre_save(instance, add=True), connection)
            for f in _columns(type(instance), using)[2]]


def _saved(instance: Model, key: Any, using: str) -> None:
    setattr(instance, type(instance)._meta.pk.attname, key)
    instance._state.adding, instance._state.db = False, using


def insert(*instances: Model, using: str = "default") -> Model:
    """Save new instances in plain INSERTs, their primary keys read back (on PostgreSQL all in
    one statement): what ``save()`` stores (defaults, ``auto_now_add``, foreign keys of saved
    objects, the fields' own preparation), with no ``pre_save``/``post_save`` signal: for models
    nobody listens to. Returns the first instance."""
    connection = connections[using]
    together = connection.vendor == "postgresql" and len(instances) > 1
    batches = [instances] if together else [(one,) for one in instances]
    for batch in batches:
        sql, returning = _insert_sql(tuple(type(one) for one in batch), using)
        values = [value for one in batch for value in _values(one, using)]
        with cursor(using) as plain:
            plain.execute(sql, values)
            keys = plain.fetchone() if returning else (plain.lastrowid,)
        for one, key in zip(batch, keys, strict=True):
            _saved(one, key, using)
    return instances[0]
