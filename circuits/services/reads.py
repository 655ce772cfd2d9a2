"""Reading the standings and a breakdown, as of a day: the stored rows when they hold for that
day, else computed on the spot (a past or future day) or refreshed (today's, once stale)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone

from circuits.breakdown import expand
from circuits.models import Circuit, Person, Standing
from circuits.services import compute
from circuits.services.people import norm

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


@dataclass(frozen=True)
class Page:
    number: int
    size: int
    search: str


def stored_holds(circuit: Circuit, as_of: date) -> bool:
    return (not circuit.computing and circuit.computed_as_of is not None
            and circuit.computed_as_of <= as_of
            and (circuit.valid_until is None or as_of < circuit.valid_until))


def row_json(circuit: Circuit, rank, key: str, name: str, value: float, deviation, volatility,
             events_counted: int, games: int, provisional: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"rank": rank, "player": {"key": key, "name": name}}
    if circuit.method == Circuit.Method.PLACEMENT:
        row["points"] = value
    else:
        row["rating"] = value
        if circuit.method == Circuit.Method.GLICKO2:
            row["deviation"] = deviation
            row["volatility"] = volatility
    row.update(events_counted=events_counted, games=games, provisional=provisional)
    return row


FIELDS = ("rank", "key", "name", "value", "deviation", "volatility", "events_counted", "games",
          "provisional")


def _fresh(circuit: Circuit, as_of: date) -> tuple[Circuit, str]:
    """The circuit with standings that hold for ``as_of`` when they can be stored (today's),
    and the status to show."""
    if stored_holds(circuit, as_of):
        return circuit, "current"
    if circuit.computing:
        return circuit, "computing"
    if as_of == timezone.localdate():
        if compute.input_size(circuit) <= compute.inline_limit():
            return compute.compute_and_store(circuit.pk, as_of) or circuit, "current"
        Circuit.objects.filter(pk=circuit.pk).update(input_version=circuit.input_version + 1)
        compute.queue_recompute(circuit.pk)
        circuit.refresh_from_db()
        return circuit, "computing" if circuit.computing else "current"
    return circuit, "elsewhen"


def standings(circuit: Circuit, as_of: date | None = None, page: Page | None = None) -> dict[str, Any]:
    as_of = as_of or timezone.localdate()
    circuit, status = _fresh(circuit, as_of)
    if status == "elsewhen":
        inputs, outcome = compute.run(circuit, as_of)
        rows = [
            row_json(circuit, row.rank, inputs.people[row.person][0], inputs.people[row.person][2],
                     row.value, row.deviation, row.volatility, row.events_counted, row.games,
                     row.provisional)
            for row in outcome.rows
        ]
        if page and page.search:
            rows = [r for r in rows if page.search in norm(r["player"]["key"]) or
                    page.search in norm(r["player"]["name"])]
        count = len(rows)
        if page:
            rows = rows[(page.number - 1) * page.size: page.number * page.size]
        status = "current"
    else:
        qs = Standing.objects.filter(circuit=circuit)
        count = None
        if page and page.search:
            qs = qs.filter(search__contains=page.search)
            count = qs.count()
            qs = qs[(page.number - 1) * page.size: page.number * page.size]
        elif page:  # positions are 1..people_count: a range on the index, no count, no offset
            count = circuit.people_count
            qs = qs.filter(position__gt=(page.number - 1) * page.size,
                           position__lte=page.number * page.size)
        rows = [row_json(circuit, *values) for values in qs.values_list(*FIELDS)]
    answer: dict[str, Any] = {"status": status, "as_of": as_of.isoformat(), "results": rows}
    if page:
        answer.update(count=count if count is not None else len(rows), page=page.number,
                      page_size=page.size, pages=max(1, -(-(count or 0) // page.size)))
    if circuit.computed_at:
        answer["computed_at"] = circuit.computed_at.isoformat()
    return answer


def breakdown(circuit: Circuit, key: str, as_of: date | None = None) -> dict[str, Any]:
    from circuits.services.circuits import person as person_of

    found: Person = person_of(circuit, key)
    as_of = as_of or timezone.localdate()
    circuit, status = _fresh(circuit, as_of)
    answer: dict[str, Any] = {"player": {"key": found.key, "name": found.name}, "status": status,
                              "as_of": as_of.isoformat()}
    if status == "elsewhen":
        inputs, outcome = compute.run(circuit, as_of)
        number = {pk: n for n, pk in inputs.numbers.items()}.get(found.pk)
        answer["status"] = "current"
        for row, lines in compute.lines(inputs, outcome):
            if row.person == number:
                answer["standing"] = row_json(circuit, row.rank, found.key, found.name, row.value,
                                              row.deviation, row.volatility, row.events_counted,
                                              row.games, row.provisional)
                answer.update(expand(lines))
                return answer
        return {**answer, "standing": None, "results": [], "games": []}
    # By person alone: a person belongs to one circuit (its index finds the row at once).
    stored = Standing.objects.filter(person=found).values_list(
        *FIELDS, "breakdown").first()
    if stored is None:
        return {**answer, "standing": None, "results": [], "games": []}
    *fields, lines = stored
    answer["standing"] = row_json(circuit, *fields)
    answer.update(expand(lines))
    return answer


def profile_circuits(user) -> list[dict[str, Any]]:
    """The circuits ranking this account, with its rank in each (for the profile page)."""
    rows = Standing.objects.filter(person__user=user, person__merged_into__isnull=True).select_related(
        "circuit").order_by("circuit__name")
    return [{"circuit": row.circuit, "rank": row.rank, "value": row.value,
             "provisional": row.provisional, "key": row.key} for row in rows]
