"""CSV imports (admin and API): results of events run elsewhere and starting ratings.

Results: one line per placing, columns ``event, date, rounds, players, player, place`` (and an
optional ``multiplier``); lines with the same event and date make one event. Ratings: columns
``player, rating`` and optional ``deviation, volatility``. Commas, semicolons or tabs; UTF-8
(a BOM is fine). Everything is checked before anything is stored; one recompute at the end."""
from __future__ import annotations

import csv
import io
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from circuits.models import Circuit
from circuits.services import circuits, compute
from config.refusals import Invalid
from events.audit import Actor, record

RESULT_COLUMNS = ("event", "date", "rounds", "players", "player", "place")
RATING_COLUMNS = ("player", "rating")


def unreadable(reason: str) -> Invalid:
    return Invalid(_("This file is not a CSV file Muster can read: %(reason)s") % {"reason": reason},
                   "circuit_csv_unreadable")


def rows_of(data: bytes | str, required: tuple[str, ...]) -> list[dict[str, str]]:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise unreadable(_("it is not UTF-8 text.")) from None
    data = data.lstrip("\ufeff")
    if "\x00" in data or not data.strip():
        raise unreadable(_("it is empty or not text."))
    first = data.splitlines()[0]
    delimiter = max(",;\t", key=first.count)
    try:
        reader = csv.DictReader(io.StringIO(data), delimiter=delimiter)
        header = [(h or "").strip().casefold() for h in (reader.fieldnames or [])]
        missing = [c for c in required if c not in header]
        if missing:
            raise unreadable(_("the columns %(columns)s are missing.") % {"columns": ", ".join(missing)})
        rows = []
        for line in reader:
            if None in line:  # more cells than the header has
                raise unreadable(_("line %(line)s has more cells than the header.") % {"line": reader.line_num})
            rows.append({(k or "").strip().casefold(): (v or "").strip() for k, v in line.items()})
    except csv.Error as error:
        raise unreadable(str(error)) from None
    return rows


def _number(text: str, line: int, column: str, *, integer: bool) -> Any:
    try:
        return int(text) if integer else float(text.replace(",", "."))
    except ValueError:
        raise Invalid(_("Line %(line)s: “%(value)s” is not a number (column %(column)s).")
                      % {"line": line, "value": text, "column": column}, "circuit_csv_value_invalid",
                      line=line, column=column) from None


def results_from_csv(data: bytes | str) -> list[dict]:
    events: dict[tuple[str, str], dict] = {}
    for line, row in enumerate(rows_of(data, RESULT_COLUMNS), start=2):
        key = (row["event"].casefold(), row["date"])
        body = events.setdefault(key, {
            "name": row["event"], "date": row["date"],
            "rounds": _number(row["rounds"], line, "rounds", integer=True),
            "players": _number(row["players"], line, "players", integer=True),
            "multiplier": _number(row["multiplier"], line, "multiplier", integer=False)
            if row.get("multiplier") else None,
            "placings": []})
        body["placings"].append({"player": row["player"],
                                 "place": _number(row["place"], line, "place", integer=True)})
    if not events:
        raise unreadable(_("it has no lines under its header."))
    return [circuits.parse_result(body) for body in events.values()]


def ratings_from_csv(data: bytes | str) -> list[dict]:
    ratings = []
    for line, row in enumerate(rows_of(data, RATING_COLUMNS), start=2):
        item: dict[str, Any] = {"player": row["player"],
                                "rating": _number(row["rating"], line, "rating", integer=False)}
        for column in ("deviation", "volatility"):
            if row.get(column):
                item[column] = _number(row[column], line, column, integer=False)
        ratings.append(item)
    return ratings


@transaction.atomic
def import_results(actor: Actor, circuit: Circuit, data: bytes | str) -> list[int]:
    circuits.require_staff(actor)
    parsed = results_from_csv(data)  # all checked first: a bad line stores nothing
    ids = [circuits.store_result(actor, circuit, result, refresh=False).pk for result in parsed]
    record(actor, "circuit_results_imported", None, circuit.slug, {"results": ids})
    compute.changed(circuit)
    return ids


def import_ratings(actor: Actor, circuit: Circuit, data: bytes | str) -> int:
    return circuits.import_ratings(actor, circuit, ratings_from_csv(data))
