"""Register a list of players from a CSV file, all or nothing.

The file has a header line; columns ``name`` (required), ``club``, ``faction`` and ``username``
(an existing account), in any order, others ignored. Comma or semicolon separated (French
spreadsheets write semicolons), UTF-8 with or without a byte-order mark."""
from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import ServiceError
from events.models import Player, Tournament
from events.services.tournaments import register_player

MAX_BYTES = 1024 * 1024
MAX_ROWS = 2000
COLUMNS = ("name", "club", "faction", "username")
# Header spellings a French organiser may use, folded to the column they mean.
ALIASES = {"nom": "name", "joueur": "name", "player": "name", "armée": "faction",
           "armee": "faction", "army": "faction", "compte": "username", "account": "username",
           "user": "username"}
MAX_LENGTHS = {"name": 120, "club": 120, "faction": 120, "username": 150}


@dataclass(frozen=True)
class PlayerRow:
    line: int
    name: str
    club: str = ""
    faction: str = ""
    username: str = ""


@dataclass(frozen=True)
class RowError:
    """What is wrong with the file; ``line`` 0 is the file as a whole."""

    line: int
    message: str


@dataclass
class Parsed:
    rows: list[PlayerRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    players: list[Player] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)


class _Rejected(Exception):
    """Raised inside the import transaction to undo every registration."""

    def __init__(self, errors: list[RowError]):
        super().__init__("import rejected")
        self.errors = errors


def decode(data: bytes) -> str | RowError:
    """The text of an upload, or why it cannot be read."""
    if len(data) > MAX_BYTES:
        return RowError(0, _("The file is larger than %(size)s KiB.") % {"size": MAX_BYTES // 1024})
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return RowError(0, _("The file is not UTF-8 text. In your spreadsheet, save it as "
                             "“CSV UTF-8”."))


def delimiter_of(header_line: str) -> str:
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _column(title: str | None) -> str:
    key = (title or "").strip().casefold()
    return ALIASES.get(key, key)


def parse_players_csv(text: str) -> Parsed:
    """The rows read correctly, and every problem found with its line number (import nothing
    when there is any: see ``import_players``)."""
    first_line = text.split("\n", 1)[0]
    if not first_line.strip():
        return Parsed(errors=[RowError(1, _("The first line must name the columns, e.g. "
                                            "name,club,faction,username."))])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(first_line))
    try:
        header = [_column(title) for title in next(reader)]
    except csv.Error as exc:
        return Parsed(errors=[RowError(1, _("This line cannot be read (%(error)s).") % {"error": exc})])
    parsed = Parsed(ignored_columns=[h for h in header if h and h not in COLUMNS])
    if "name" not in header:
        parsed.errors.append(RowError(1, _("No “name” column in the first line.")))
        return parsed
    duplicates = sorted({h for h in header if h in COLUMNS and header.count(h) > 1})
    if duplicates:
        parsed.errors.append(RowError(1, _("Column “%(column)s” appears twice.") % {"column": duplicates[0]}))
        return parsed
    try:
        _read_rows(reader, header, parsed)
    except csv.Error as exc:  # e.g. a cell over the csv module's size limit
        parsed.rows = []
        parsed.errors.append(RowError(reader.line_num, _("This line cannot be read (%(error)s).")
                                      % {"error": exc}))
    return parsed


def _read_rows(reader, header: list[str], parsed: Parsed) -> None:
    seen_users: dict[str, int] = {}
    line = reader.line_num
    for cells in reader:
        first, line = line + 1, reader.line_num  # a quoted cell may span several lines
        if not any(cell.strip() for cell in cells):
            continue
        if len(parsed.rows) + len(parsed.errors) >= MAX_ROWS:
            # Too big to be worth checking each registration: report the file as a whole.
            parsed.rows, parsed.errors = [], [
                RowError(first, _("More than %(max)s players in one file.") % {"max": MAX_ROWS})]
            return
        row, error = _row(first, header, cells)
        if error is None and row.username:
            earlier = seen_users.setdefault(row.username.casefold(), first)
            if earlier != first:
                error = RowError(first, _("Account “%(username)s” is already on line %(line)s.")
                                 % {"username": row.username, "line": earlier})
        if error is not None:
            parsed.errors.append(error)
        else:
            parsed.rows.append(row)


def _row(line: int, header: list[str], cells: list[str]) -> tuple[PlayerRow | None, RowError | None]:
    if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
        return None, RowError(line, _("More cells than columns: is a separator inside a name? "
                                      "Put such values in quotes."))
    values = {h: c.strip() for h, c in zip(header, cells, strict=False) if h in COLUMNS}
    if any("\n" in v or "\r" in v for v in values.values()):
        return None, RowError(line, _("A value runs over several lines."))
    if not values.get("name"):
        return None, RowError(line, _("The name is empty."))
    for column, limit in MAX_LENGTHS.items():
        if len(values.get(column, "")) > limit:
            return None, RowError(line, _("The %(column)s is longer than %(max)s characters.")
                                  % {"column": column, "max": limit})
    return PlayerRow(line=line, **values), None


def import_players(actor: Actor, tournament: Tournament, rows: Sequence[PlayerRow],
                   known_errors: Sequence[RowError] = ()) -> ImportResult:
    """Register every row through ``register_player`` in one transaction: one refusal (or any
    of ``known_errors``, found while reading the file) and nobody is registered; the answer then
    lists every refused row, so one correction round is enough."""
    try:
        with transaction.atomic():
            players, errors = [], list(known_errors)
            for row in rows:
                try:
                    players.append(register_player(
                        actor, tournament, name=row.name, club=row.club, faction=row.faction,
                        username=row.username or None))
                except ServiceError as exc:
                    errors.append(RowError(row.line, str(exc)))
            if errors:
                raise _Rejected(sorted(errors, key=lambda e: e.line))
            record(actor, "players_imported", tournament, tournament, {"count": len(players)})
    except _Rejected as rejected:
        return ImportResult(errors=rejected.errors)
    return ImportResult(players=players)


def import_players_csv(actor: Actor, tournament: Tournament, data: bytes) -> ImportResult:
    """Decode, parse and import an uploaded file."""
    text = decode(data)
    if isinstance(text, RowError):
        return ImportResult(errors=[text])
    parsed = parse_players_csv(text)
    if parsed.errors and not parsed.rows:
        return ImportResult(errors=parsed.errors, ignored_columns=parsed.ignored_columns)
    if not parsed.rows:
        return ImportResult(errors=[RowError(0, _("The file lists no player."))])
    # The rows read correctly are still tried, so the refusals of the service are reported too.
    result = import_players(actor, tournament, parsed.rows, parsed.errors)
    result.ignored_columns = parsed.ignored_columns
    return result
