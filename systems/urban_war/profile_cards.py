"""Profile cards as staff type them: checks with stable codes, the compact cell syntax of the admin
form, and the CSV import. Pure: no Django (messages: systems/urban_war/card_messages.py).

Cell syntax (the same in the admin form and in CSV files):
- calibres: ``cal:fs:cost`` separated by spaces, ``-`` for no First Strike and ``N/A`` for no cost,
  e.g. ``0:0:20 1:1:26 2:2:33 3:-:N/A`` (card 43101);
- options: ``code:cost:name_en:name_fr`` separated by ``|`` (names optional, ``N/A`` cost allowed),
  e.g. ``grenades:5:Grenades:Grenades|scope:N/A``.

Problem codes and params: ``stats_keys`` (expected), ``stat_out_of_range`` (stat, value, min),
``stat_above_max`` (stat, value, max), ``cal_negative`` (cal), ``cal_repeated`` (cal),
``cal_without_fs`` (cal), ``cost_negative`` (what), ``option_repeated`` (option),
``option_code_missing``, ``cal_cell_invalid`` (value), ``option_cell_invalid`` (value),
``not_a_number`` (column, value), ``value_missing`` (column), ``columns_missing`` (columns),
``value_too_long`` (column, max), ``card_repeated`` (card), ``too_many_rows`` (max), ``not_text``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from config.refusals import CodedRefusal
from systems.urban_war.commando import STATS, STATS_ONE_TO_TEN

NA = "n/a"
MAX_ROWS = 1000
REQUIRED_COLUMNS: tuple[str, ...] = ("card", "faction", "name_en", "name_fr", *STATS, "cal_options")
OPTIONAL_COLUMNS: tuple[str, ...] = ("options", "options_cost_modifier", "equipment_en", "equipment_fr")
# The model's column widths, so a long cell is a row error and not a database error.
MAX_LENGTHS: Mapping[str, int] = {"card": 20, "faction": 50, "name_en": 120, "name_fr": 120,
                                  "options_cost_modifier": 120, "equipment_en": 2000, "equipment_fr": 2000}


@dataclass(frozen=True)
class CardProblem:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class RowError:
    """A problem of one CSV line (1 is the header)."""

    line: int
    problem: CardProblem


@dataclass(frozen=True)
class ParsedCards:
    rows: tuple[dict[str, Any], ...]
    errors: tuple[RowError, ...]


class CellError(CodedRefusal, ValueError):
    """A profile-card cell that does not read; ``problem`` says where and why."""

    def __init__(self, problem: CardProblem):
        super().__init__(problem.code)
        self.problem = problem

    def __str__(self) -> str:
        return self.code


def card_fields(card: Any) -> dict[str, Any]:
    """A card-like object (a model row) as the data-file form the checks read."""
    return {"card": card.card, "stats": card.stats or {}, "cal_options": card.cal_options or [],
            "options": card.options or []}


def card_problem(row: Mapping[str, Any]) -> CardProblem | None:
    """The first thing wrong with a card's stats, calibres or options; None when it is sound."""
    stats = row.get("stats") or {}
    if not isinstance(stats, Mapping) or set(stats) != set(STATS):
        return CardProblem("stats_keys", {"expected": " ".join(STATS)})
    for name in STATS:
        problem = _stat_problem(name, stats[name])
        if problem is not None:
            return problem
    return _cal_problem(row.get("cal_options") or []) or _option_problem(row.get("options") or [])


def _stat_problem(name: str, value: object) -> CardProblem | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return CardProblem("not_a_number", {"column": name, "value": str(value)})
    if value < 1:
        return CardProblem("stat_out_of_range", {"stat": name, "value": value, "min": 1})
    if name in STATS_ONE_TO_TEN and value > 10:  # U-R6 « varie de 1 à 10 »
        return CardProblem("stat_above_max", {"stat": name, "value": value, "max": 10})
    return None


def _cal_problem(rows: Sequence[Mapping[str, Any]]) -> CardProblem | None:
    seen: set[int] = set()
    for row in rows:
        cal, fs, cost = row.get("cal"), row.get("fs"), row.get("cost")
        if not isinstance(cal, int) or cal < 0:
            return CardProblem("cal_negative", {"cal": str(cal)})
        if cal in seen:
            return CardProblem("cal_repeated", {"cal": cal})
        seen.add(cal)
        if cost is not None and fs is None:
            return CardProblem("cal_without_fs", {"cal": cal})
        if cost is not None and (not isinstance(cost, int) or cost < 0):
            return CardProblem("cost_negative", {"what": f"CAL{cal}"})
    return None


def _option_problem(rows: Sequence[Mapping[str, Any]]) -> CardProblem | None:
    seen: set[str] = set()
    for row in rows:
        code, cost = str(row.get("code") or "").strip(), row.get("cost")
        if not code:
            return CardProblem("option_code_missing")
        if code in seen:
            return CardProblem("option_repeated", {"option": code})
        seen.add(code)
        if cost is not None and (not isinstance(cost, int) or cost < 0):
            return CardProblem("cost_negative", {"what": code})
    return None


def _number(text: str, *, na: bool = False) -> int | None:
    text = text.strip()
    if na and text.lower() in (NA, "-", ""):
        return None
    return int(text)


def parse_cals(cell: str) -> list[dict[str, int | None]]:
    """``0:0:20 1:1:26 3:-:N/A`` -> ``[{"cal", "fs", "cost"}, ...]``; raises CellError."""
    rows = []
    for item in cell.split():
        parts = item.split(":")
        try:
            if len(parts) != 3:
                raise ValueError(item)
            rows.append({"cal": int(parts[0]), "fs": _number(parts[1], na=True),
                         "cost": _number(parts[2], na=True)})
        except ValueError:
            raise CellError(CardProblem("cal_cell_invalid", {"value": item})) from None
    return rows


def parse_options(cell: str) -> list[dict[str, Any]]:
    """``code:cost:name_en:name_fr|...`` -> ``[{"code", "name_en", "name_fr", "cost"}]``."""
    rows = []
    for item in (part.strip() for part in cell.split("|")):
        if not item:
            continue
        parts = [part.strip() for part in item.split(":")]
        try:
            if len(parts) < 2 or len(parts) > 4 or not parts[0]:
                raise ValueError(item)
            cost = _number(parts[1], na=True)
        except ValueError:
            raise CellError(CardProblem("option_cell_invalid", {"value": item})) from None
        name_en = parts[2] if len(parts) > 2 and parts[2] else parts[0]
        name_fr = parts[3] if len(parts) > 3 and parts[3] else name_en
        rows.append({"code": parts[0], "name_en": name_en, "name_fr": name_fr, "cost": cost})
    return rows


def cals_cell(rows: Sequence[Mapping[str, Any]]) -> str:
    """The inverse of :func:`parse_cals`, for the admin form's initial value."""
    def show(value: object) -> str:
        return "-" if value is None else str(value)
    return " ".join(f"{r['cal']}:{show(r.get('fs'))}:{'N/A' if r.get('cost') is None else r['cost']}"
                    for r in rows)


def options_cell(rows: Sequence[Mapping[str, Any]]) -> str:
    """The inverse of :func:`parse_options`."""
    def one(r: Mapping[str, Any]) -> str:
        cost = "N/A" if r.get("cost") is None else str(r["cost"])
        return ":".join([str(r["code"]), cost, str(r.get("name_en", r["code"])),
                         str(r.get("name_fr", r.get("name_en", r["code"])))])
    return "|".join(one(r) for r in rows)


def parse_csv(data: bytes, max_rows: int = MAX_ROWS) -> ParsedCards:
    """Read a CSV of cards (``,`` or ``;`` separated, UTF-8); every row's problems at once."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ParsedCards((), (RowError(1, CardProblem("not_text")),))
    if "\x00" in text:
        return ParsedCards((), (RowError(1, CardProblem("not_text")),))
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = [name.strip() for name in reader.fieldnames or ()]
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        return ParsedCards((), (RowError(1, CardProblem("columns_missing", {"columns": ", ".join(missing)})),))
    reader.fieldnames = header
    rows: list[dict[str, Any]] = []
    errors: list[RowError] = []
    lines: dict[str, int] = {}
    for index, raw in enumerate(reader):
        line = reader.line_num
        if index >= max_rows:
            errors.append(RowError(line, CardProblem("too_many_rows", {"max": max_rows})))
            break
        cells = {key: (value or "").strip() for key, value in raw.items() if isinstance(key, str)}
        try:
            row = _row(cells)
        except CellError as exc:
            errors.append(RowError(line, exc.problem))
            continue
        problem = card_problem(row)
        if problem is None and row["card"] in lines:
            problem = CardProblem("card_repeated", {"card": row["card"]})
        if problem is not None:
            errors.append(RowError(line, problem))
            continue
        lines[row["card"]] = line
        rows.append({**row, "line": line})
    return ParsedCards(tuple(rows), tuple(errors))


def _row(cells: Mapping[str, str]) -> dict[str, Any]:
    for column in ("card", "faction", "name_en"):
        if not cells.get(column):
            raise CellError(CardProblem("value_missing", {"column": column}))
    for column, limit in MAX_LENGTHS.items():
        if len(cells.get(column, "")) > limit:
            raise CellError(CardProblem("value_too_long", {"column": column, "max": limit}))
    stats = {}
    for name in STATS:
        try:
            stats[name] = int(cells.get(name, ""))
        except ValueError:
            raise CellError(CardProblem("not_a_number", {"column": name, "value": cells.get(name, "")})) from None
    return {
        "card": cells["card"], "faction": cells["faction"], "name_en": cells["name_en"],
        "name_fr": cells.get("name_fr") or cells["name_en"], "stats": stats,
        "cal_options": parse_cals(cells.get("cal_options", "")),
        "options": parse_options(cells.get("options", "")),
        "options_cost_modifier": cells.get("options_cost_modifier", ""),
        "equipment_en": cells.get("equipment_en", ""), "equipment_fr": cells.get("equipment_fr", ""),
    }
