"""Circuit writes (staff only): create and change, include Muster events, add results of
events run elsewhere, import starting ratings, merge two names of one person. Each write is
checked whole before anything is stored, logged, and brings the standings up to date."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from armylists.models import GameSystem
from circuits import engine
from circuits.messages import worded
from circuits.models import Circuit, CircuitEvent, ExternalResult, Person, StartingRating
from circuits.services import compute
from circuits.services.people import norm, people_for_keys
from config.refusals import CodedRefusal, Invalid, NotFound
from events.audit import Actor, record
from events.models import Tournament
from events.services.tournaments import free_slug, require_staff

SETTING_KEYS = {
    "placement": ("base_by_rounds", "size_cap", "curve", "best_n", "weights", "decay_days",
                  "decay_step", "min_events"),
    "elo": ("initial_rating", "k_factor", "min_games"),
    "glicko2": ("initial_rating", "initial_deviation", "initial_volatility", "tau", "min_games"),
}


def checked_settings(method: Any, raw: Mapping[str, Any], current: Mapping[str, Any] | None = None) -> dict:
    """The method's full settings as stored (defaults filled in), or a worded 400."""
    try:
        base = engine.settings_from(method, current) if current is not None else None
        return engine.settings_from(method, raw, base).as_json()
    except CodedRefusal as refused:
        raise worded(refused) from None


def _game_system(slug: Any) -> GameSystem | None:
    if slug in (None, ""):
        return None
    system = GameSystem.objects.filter(slug=str(slug)).first()
    if system is None:
        raise Invalid(_("Unknown game system “%(slug)s”.") % {"slug": slug}, "game_system_unknown",
                      slug=str(slug))
    return system


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid(_("A name is required."), "circuit_name_required")
    return value.strip()[:200]


def get_circuit(slug: str) -> Circuit:
    circuit = Circuit.objects.filter(slug=slug).select_related("game_system").first()
    if circuit is None:
        raise NotFound(_("No such circuit."), "circuit_not_found")
    return circuit


@transaction.atomic
def create(actor: Actor, body: Mapping[str, Any]) -> Circuit:
    require_staff(actor)
    raw = dict(body.get("settings") or {}) if isinstance(body.get("settings"), Mapping) else {}
    raw.update({k: v for k, v in body.items() if k not in ("name", "game_system", "method", "settings", "slug")})
    method = body.get("method")
    stored = checked_settings(method, raw)
    name = _name(body.get("name"))
    circuit = Circuit.objects.create(
        slug=free_slug(Circuit, slugify(name)[:70] or "circuit"), name=name,
        game_system=_game_system(body.get("game_system")), method=method, settings=stored)
    record(actor, "circuit_created", None, circuit.slug, {"method": method})
    compute.changed(circuit)
    circuit.refresh_from_db()
    return circuit


@transaction.atomic
def update(actor: Actor, circuit: Circuit, body: Mapping[str, Any]) -> Circuit:
    require_staff(actor)
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    method = body.get("method", circuit.method)
    raw = dict(body.get("settings") or {}) if isinstance(body.get("settings"), Mapping) else {}
    raw.update({k: v for k, v in body.items() if k not in ("name", "game_system", "method", "settings", "slug")})
    current = circuit.settings if method == circuit.method else None
    circuit.settings = checked_settings(method, raw, current)
    circuit.method = method
    if "name" in body:
        circuit.name = _name(body["name"])
    if "game_system" in body:
        circuit.game_system = _game_system(body["game_system"])
    circuit.save()
    record(actor, "circuit_changed", None, circuit.slug, {"fields": sorted(body)})
    compute.changed(circuit)
    circuit.refresh_from_db()
    return circuit


def _multiplier(value: Any) -> float:
    if value is None:
        return 1.0
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise Invalid(_("The multiplier must be a number, not negative."), "circuit_multiplier_invalid")
    return float(value)


@transaction.atomic
def add_event(actor: Actor, circuit: Circuit, slug: Any, multiplier: Any = None) -> CircuitEvent:
    require_staff(actor)
    factor = _multiplier(multiplier)
    tournament = Tournament.objects.filter(slug=str(slug)).first() if slug else None
    if tournament is None:
        raise Invalid(_("No such tournament."), "tournament_not_found")
    included, _created = CircuitEvent.objects.update_or_create(
        circuit=circuit, tournament=tournament, defaults={"multiplier": factor})
    record(actor, "circuit_event_added", tournament, circuit.slug, {"multiplier": factor})
    compute.changed(circuit)
    return included


@transaction.atomic
def remove_event(actor: Actor, circuit: Circuit, slug: str) -> None:
    require_staff(actor)
    deleted, _rows = CircuitEvent.objects.filter(circuit=circuit, tournament__slug=slug).delete()
    if not deleted:
        raise NotFound(_("This tournament is not in the circuit."), "circuit_event_not_found")
    record(actor, "circuit_event_removed", None, circuit.slug, {"tournament": slug})
    compute.changed(circuit)


def _int(value: Any, field: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        if isinstance(value, float) and value.is_integer() and value >= minimum:
            return int(value)
        raise Invalid(_("“%(field)s” must be a whole number of at least %(minimum)s.")
                      % {"field": field, "minimum": minimum}, "circuit_result_invalid", field=field)
    return value


def _key(value: Any) -> str:
    if not isinstance(value, str) or not norm(value):
        raise Invalid(_("Each player must be named by a key (a username or a name)."),
                      "circuit_player_invalid")
    return value


def _date(value: Any) -> date:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise Invalid(_("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": value},
                      "circuit_date_invalid") from None


def parse_result(body: Any) -> dict:
    """The result body checked (types, places, games, date) with keys as given; a 400 else."""
    if not isinstance(body, Mapping):
        raise Invalid(_("A result must be an object."), "circuit_result_invalid")
    placings_in = body.get("placings") or []
    games_in = body.get("games") or []
    if not isinstance(placings_in, list) or not isinstance(games_in, list):
        raise Invalid(_("Placings and games must be lists."), "circuit_result_invalid")
    placings = []
    for p in placings_in:
        if not isinstance(p, Mapping):
            raise Invalid(_("Each placing needs a player and a place."), "circuit_result_invalid")
        placings.append((_key(p.get("player")), _int(p.get("place"), "place", 1)))
    games = []
    for g in games_in:
        if not isinstance(g, Mapping) or not isinstance(g.get("players"), list) or \
                not 1 <= len(g["players"]) <= 2:
            raise Invalid(_("Each game needs one or two players."), "circuit_result_invalid")
        keys = [_key(k) for k in g["players"]]
        winner = g.get("winner")
        if winner is not None:
            winner = _key(winner)
        games.append((_int(g.get("round", 1), "round", 0), _int(g.get("table", 0) or 0, "table", 0),
                      keys, winner, bool(g.get("forfeit", False))))
    result = {"name": _name(body.get("name")), "date": _date(body.get("date")),
              "rounds": _int(body.get("rounds"), "rounds", 0),
              "players": _int(body.get("players"), "players", 1),
              "multiplier": _multiplier(body.get("multiplier")), "placings": placings, "games": games}
    _check(result)
    return result


def _check(result: dict) -> None:
    """The engine's checks on the keys as typed (case and spaces ignored), before any person exists."""
    n = {k: i for i, k in enumerate(sorted({norm(k) for k, _p in result["placings"]} | {
        norm(k) for g in result["games"] for k in [*g[2], g[3]] if k is not None}))}
    placings = tuple((n[norm(k)], place) for k, place in result["placings"])
    games = tuple((rnd, table, n[norm(keys[0])], n[norm(keys[1])] if len(keys) > 1 else None,
                   None if w is None else n[norm(w)], forfeit) for rnd, table, keys, w, forfeit in result["games"])
    event = engine.EventInput((result["date"],), result["name"], result["date"], result["rounds"],
                              result["players"], result["multiplier"], placings, games)
    try:
        engine.check_event(event, today=timezone.localdate())
    except CodedRefusal as refused:
        raise worded(refused) from None


@transaction.atomic
def add_result(actor: Actor, circuit: Circuit, body: Any) -> ExternalResult:
    require_staff(actor)
    return store_result(actor, circuit, parse_result(body))


def store_result(actor: Actor, circuit: Circuit, result: dict, *, refresh: bool = True) -> ExternalResult:
    keys = [k for k, _p in result["placings"]] + [k for g in result["games"] for k in g[2]]
    people = people_for_keys(circuit, keys)

    def pid(key: str | None) -> int | None:
        return None if key is None else people[norm(key)].pk

    placings = [[pid(k), place] for k, place in result["placings"]]
    games = [[rnd, table, pid(keys[0]), pid(keys[1]) if len(keys) > 1 else None, pid(w), forfeit]
             for rnd, table, keys, w, forfeit in result["games"]]
    stored = ExternalResult.objects.create(
        circuit=circuit, name=result["name"], date=result["date"], rounds=result["rounds"],
        players=result["players"], multiplier=result["multiplier"], placings=placings, games=games,
        size=len(placings) + len(games))
    record(actor, "circuit_result_added", None, circuit.slug, {"result": stored.pk})
    if refresh:
        compute.changed(circuit)
    return stored


def _positive(value: Any, field: str, *, optional: bool, strict: bool) -> float | None:
    if value is None and optional:
        return None
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (value <= 0 if strict else False):
        raise Invalid(_("“%(field)s” must be a number.") % {"field": field} if not ok else
                      _("“%(field)s” must be above zero.") % {"field": field},
                      "circuit_rating_invalid", field=field)
    return float(value)


def parse_ratings(body: Any) -> list[tuple[str, float, float | None, float | None]]:
    if isinstance(body, Mapping) and isinstance(body.get("ratings"), list):
        body = body["ratings"]
    if not isinstance(body, list):
        raise Invalid(_("Send a list of ratings."), "circuit_rating_invalid")
    rows = []
    for item in body:
        if not isinstance(item, Mapping):
            raise Invalid(_("Send a list of ratings."), "circuit_rating_invalid")
        rows.append((_key(item.get("player")),
                     _positive(item.get("rating"), "rating", optional=False, strict=False),
                     _positive(item.get("deviation"), "deviation", optional=True, strict=True),
                     _positive(item.get("volatility"), "volatility", optional=True, strict=True)))
    return rows


@transaction.atomic
def import_ratings(actor: Actor, circuit: Circuit, body: Any) -> int:
    require_staff(actor)
    rows = parse_ratings(body)
    store_ratings(circuit, rows)
    record(actor, "circuit_ratings_imported", None, circuit.slug, {"count": len(rows)})
    compute.changed(circuit)
    return len(rows)


def store_ratings(circuit: Circuit, rows: Sequence[tuple[str, float, float | None, float | None]]) -> None:
    people = people_for_keys(circuit, [key for key, *_rest in rows])
    for key, rating, deviation, volatility in rows:  # a later line for the same person wins
        StartingRating.objects.update_or_create(
            circuit=circuit, person=people[norm(key)],
            defaults={"rating": rating, "deviation": deviation, "volatility": volatility})


def person(circuit: Circuit, key: str) -> Person:
    """The person a key names (404 when unknown or merged into another)."""
    found = Person.objects.filter(circuit=circuit, norm=norm(key), merged_into__isnull=True).first()
    if found is None:
        raise NotFound(_("No such player in this circuit."), "circuit_player_not_found")
    return found


@transaction.atomic
def merge(actor: Actor, circuit: Circuit, keep: Any, merged: Any) -> Person:
    """Two names of one person: ``merged`` counts as ``keep`` from now on (its results, games and
    starting rating; ``keep``'s own starting rating wins)."""
    require_staff(actor)
    kept, gone = person(circuit, _key(keep)), person(circuit, _key(merged))
    if kept.pk == gone.pk:
        raise Invalid(_("A player cannot be merged with themself."), "circuit_merge_same")
    Person.objects.filter(pk=gone.pk).update(merged_into=kept)
    Person.objects.filter(merged_into=gone).update(merged_into=kept)
    if not StartingRating.objects.filter(circuit=circuit, person=kept).exists():
        StartingRating.objects.filter(circuit=circuit, person=gone).update(person=kept)
    else:
        StartingRating.objects.filter(circuit=circuit, person=gone).delete()
    if kept.user_id is None and gone.user_id is not None:  # the account's person is the one kept
        Person.objects.filter(pk=kept.pk).update(user_id=gone.user_id)
    record(actor, "circuit_people_merged", None, circuit.slug, {"keep": kept.key, "merge": gone.key})
    compute.changed(circuit)
    return kept
