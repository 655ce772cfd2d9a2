"""Standings from the inputs: gather (finished Muster events, results typed in, starting
ratings), number people in key order, run the pure engine, store one row per person.

Recomputing is deterministic: events are ordered by (date, name, a content key), people by key,
so the same inputs give the same figures whatever order they arrived in. Large inputs are
computed in the worker (``circuits.recompute``); the standings say "computing" meanwhile."""
from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import Counter
from datetime import date
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Sum
from django.utils import timezone

from circuits import engine
from circuits.breakdown import Inputs, lines
from circuits.engine import EventInput, Outcome, StartRating
from circuits.models import Circuit, CircuitEvent, ExternalResult, Person, Standing, StartingRating
from circuits.services.people import norm, people_for_keys, roots
from config.gc_pause import gc_paused
from events.models import Game, Player, Round, Tournament
from events.services import standings as event_standings

logger = logging.getLogger(__name__)
TASK = "circuits.recompute"


def inline_limit() -> int:
    """Inputs (placings + games) above this are computed in the worker."""
    return int(getattr(settings, "CIRCUITS_INLINE_LIMIT", 20_000))


def circuit_settings(circuit: Circuit) -> engine.inputs.Settings:
    return engine.settings_from(circuit.method, circuit.settings or {})


def input_size(circuit: Circuit) -> int:
    typed = ExternalResult.objects.filter(circuit=circuit).aggregate(n=Sum("size"))["n"] or 0
    muster = Game.objects.filter(round__tournament__in=CircuitEvent.objects.filter(
        circuit=circuit).values("tournament")).count()
    return typed + muster


def _muster_event(included: CircuitEvent, person_of: dict[int, int]) -> EventInput:
    tournament = included.tournament
    ranking = event_standings.ranking(tournament)
    placings = tuple((person_of[entrant.pk], row.rank) for row, entrant in ranking.rows)
    rows = Game.objects.filter(round__tournament=tournament, status=Game.Status.CONFIRMED).exclude(
        round__status=Round.Status.DRAFT).values_list(
        "round__number", "table", "player_a_id", "player_b_id", "winner_id").order_by(
        "round__number", "table", "pk")
    games = tuple(
        (rnd, table or 0, person_of[a], None if b is None else person_of[b],
         None if winner is None else person_of[winner], False)
        for rnd, table, a, b, winner in rows
    )
    day = tournament.starts_on or timezone.localdate(tournament.created_at)
    return EventInput((day, tournament.name.casefold(), "m", tournament.slug), tournament.name, day,
                      tournament.rounds, len(person_of), included.multiplier, placings, games)


def _content_key(placings: Any, games: Any) -> str:
    return hashlib.sha1(json.dumps([placings, games], sort_keys=True).encode()).hexdigest()


def gather(circuit: Circuit) -> Inputs:
    """Everything the engine reads, people numbered in key order (merged people count as the
    person kept). Muster players get their person on the way (created when new)."""
    muster: list[tuple[CircuitEvent, dict[int, int]]] = []
    included = CircuitEvent.objects.filter(circuit=circuit, tournament__status=Tournament.Status.FINISHED
                                           ).select_related("tournament")
    for event in included:
        players = list(Player.objects.filter(tournament=event.tournament).values_list(
            "pk", "name", "user__username"))
        keys = {pk: username or name for pk, name, username in players}
        names = {norm(username or name): name for _pk, name, username in players}
        people = people_for_keys(circuit, keys.values(), names)
        muster.append((event, {pk: people[norm(key)].pk for pk, key in keys.items()}))
    to_root = roots(circuit)
    norms = dict(Person.objects.filter(circuit=circuit).values_list("pk", "norm"))
    meta = {pk: (key, n, name) for pk, key, n, name in Person.objects.filter(
        circuit=circuit, merged_into__isnull=True).values_list("pk", "key", "norm", "name")}
    order = sorted(meta, key=lambda pk: (meta[pk][1], pk))
    number = {pk: i for i, pk in enumerate(order)}
    n_of = {pk: number[root] for pk, root in to_root.items() if root in number}
    events = [_muster_event(event, {p: n_of[pid] for p, pid in person_of.items()})
              for event, person_of in muster]
    typed = list(ExternalResult.objects.filter(circuit=circuit).values_list(
        "name", "date", "rounds", "players", "multiplier", "placings", "games"))
    # Results of one day under one name are told apart by their content (keys, not ids).
    named = Counter((day, name.casefold()) for name, day, *_rest in typed)
    for row in typed:
        name, day, rounds, players, multiplier, placings, games = row
        best: dict[int, int] = {}
        for pid, place in placings:  # two merged names placed in one event: the better place
            person = n_of[pid]
            best[person] = min(place, best.get(person, place))
        played = tuple(
            (rnd, table, n_of[a], None if b is None else n_of[b],
             None if w is None else n_of[w], bool(forfeit))
            for rnd, table, a, b, w, forfeit in games
            if b is None or n_of[a] != n_of[b]
        )
        content = "" if named[(day, name.casefold())] == 1 else _content_key(
            [[norms[p], place] for p, place in placings],
            [[r, t, norms[a], b and norms[b], w and norms[w], f] for r, t, a, b, w, f in games])
        events.append(EventInput((day, name.casefold(), "r", content), name, day,
                                 rounds, players, multiplier, tuple(sorted(best.items())), played))
    start = {n_of[pid]: StartRating(r, d, v) for pid, r, d, v in StartingRating.objects.filter(
        circuit=circuit).values_list("person_id", "rating", "deviation", "volatility").order_by("pk")}
    return Inputs(tuple(events), start, {number[pk]: meta[pk] for pk in order},
                  {number[pk]: pk for pk in order})


def run(circuit: Circuit, as_of: date, inputs: Inputs | None = None) -> tuple[Inputs, Outcome]:
    # Millions of small tuples that all live until the end: the cyclic collector would walk
    # them again and again (the run grows worse than linearly with it on).
    with gc_paused():
        inputs = inputs or gather(circuit)
        outcome = engine.compute(circuit_settings(circuit), inputs.events, inputs.people, inputs.start,
                                 as_of=as_of)
    return inputs, outcome


@transaction.atomic
def compute_and_store(circuit_id: int, as_of: date | None = None) -> Circuit | None:
    """Computes the standings of the circuit's current inputs and stores them; the circuit row
    is locked meanwhile, so two computations of one circuit follow each other."""
    circuit = Circuit.objects.select_for_update().filter(pk=circuit_id).first()
    if circuit is None:
        return None
    started = time.perf_counter()
    as_of = as_of or timezone.localdate()
    version = circuit.input_version
    inputs, outcome = run(circuit, as_of)
    with gc_paused():
        rows = [
            (position, row.rank, inputs.people[row.person], inputs.numbers[row.person], row, breakdown)
            for position, (row, breakdown) in enumerate(lines(inputs, outcome), start=1)
        ]
        Standing.objects.filter(circuit=circuit).delete()
        store_rows(circuit, rows)
    circuit.computed_version = version
    circuit.computed_at = timezone.now()
    circuit.computed_as_of = as_of
    circuit.valid_until = outcome.valid_until
    circuit.compute_seconds = time.perf_counter() - started
    circuit.people_count = len(rows)
    circuit.save(update_fields=["computed_version", "computed_at", "computed_as_of", "valid_until",
                                "compute_seconds", "people_count"])
    return circuit


ANALYZE_FROM = 10_000
TRIGRAM_INDEX = "circuits_standing_search_trgm"  # migration 0002, when pg_trgm could be had
COLUMNS = ("circuit_id", "person_id", "position", "rank", "key", "norm", "name", "search", "value",
           "deviation", "volatility", "events_counted", "games", "provisional", "breakdown")


def store_rows(circuit: Circuit, rows: list[tuple]) -> None:
    """The standing rows, by COPY on PostgreSQL (a hundred thousand rows and their breakdowns
    without a model instance each), by ``bulk_create`` elsewhere."""
    def values(position, rank, person, pk, row, breakdown):
        key, n, name = person
        return (circuit.pk, pk, position, rank, key, n, name, f"{n}\n{norm(name)}", row.value,
                row.deviation, row.volatility, row.events_counted, row.games, row.provisional, breakdown)

    if connection.vendor != "postgresql":
        Standing.objects.bulk_create([Standing(**dict(zip(COLUMNS, values(*r), strict=True))) for r in rows],
                                     batch_size=500)
        return
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    statement = f"COPY circuits_standing ({', '.join(COLUMNS)}) FROM STDIN"
    with connection.cursor() as cursor:
        with cursor.copy(statement) as copy:
            for r in rows:
                line = values(*r)
                copy.write_row((*line[:-1], dumps(line[-1])))
        if len(rows) >= ANALYZE_FROM:
            # Fresh statistics (or the planner keeps the old row counts), and the new rows moved
            # from the trigram index's pending list into the index (searches scan that list).
            cursor.execute("ANALYZE circuits_standing")
            cursor.execute("SELECT gin_clean_pending_list(to_regclass(%s)) WHERE to_regclass(%s) IS NOT NULL",
                           [TRIGRAM_INDEX, TRIGRAM_INDEX])


def changed(circuit: Circuit) -> None:
    """A write changed the circuit's inputs (call inside the write's transaction): bump the
    version and bring the standings up to date, here for small inputs, in the worker else."""
    Circuit.objects.filter(pk=circuit.pk).update(input_version=F("input_version") + 1)
    circuit.refresh_from_db(fields=["input_version"])
    if input_size(circuit) <= inline_limit():
        compute_and_store(circuit.pk)
    else:
        transaction.on_commit(lambda: queue_recompute(circuit.pk))


def queue_recompute(circuit_id: int) -> None:
    from config.celery import queue

    try:
        queue(TASK, [circuit_id])
    except Exception:  # the broker is away: compute here rather than stay "computing" for ever
        logger.exception("circuit %s: could not queue the recompute; computing inline", circuit_id)
        recompute(circuit_id)


def recompute(circuit_id: int) -> None:
    """The task's body: compute until the stored version is the latest (writes may land while
    it runs)."""
    for _ in range(5):
        circuit = compute_and_store(circuit_id)
        if circuit is None:
            return
        latest = Circuit.objects.filter(pk=circuit_id).values_list("input_version", flat=True).first()
        if latest is None or latest <= circuit.computed_version:
            return
