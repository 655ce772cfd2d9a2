"""What the engine reads: each method's settings (checked from a JSON body), an event, a
starting rating. Settings are refused with ``CodedRefusal`` codes the services word."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from config.refusals import CodedRefusal

METHODS = ("placement", "elo", "glicko2")
CURVES = ("linear", "t3")

# A game: (round, table, a, b, winner, forfeit); b None for a bye, winner a, b or None (a draw).
Game = tuple[int, int, int, "int | None", "int | None", bool]


@dataclass(frozen=True)
class PlacementSettings:
    base_by_rounds: tuple[tuple[int, float], ...] = ((3, 55.0), (4, 60.0), (5, 70.0))
    size_cap: int = 30
    curve: str = "linear"
    best_n: int = 3
    weights: tuple[float, ...] = ()
    decay_days: int | None = None
    decay_step: float = 0.25
    min_events: int = 1

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["base_by_rounds"] = {str(r): v for r, v in self.base_by_rounds}
        data["weights"] = list(self.weights)
        return data


@dataclass(frozen=True)
class EloSettings:
    initial_rating: float = 1500.0
    k_factor: float = 32.0
    min_games: int = 0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Glicko2Settings:
    initial_rating: float = 1500.0
    initial_deviation: float = 350.0
    initial_volatility: float = 0.06
    tau: float = 0.5
    min_games: int = 0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


Settings = PlacementSettings | EloSettings | Glicko2Settings
_CLASSES: dict[str, type] = {"placement": PlacementSettings, "elo": EloSettings,
                             "glicko2": Glicko2Settings}


@dataclass(frozen=True)
class StartRating:
    """A starting point brought from another ranking (None: the method's initial value)."""

    rating: float
    deviation: float | None = None
    volatility: float | None = None


@dataclass(frozen=True)
class EventInput:
    """One event of the circuit. ``order`` sorts events (date first, then a content key) so the
    order they were given in never matters; ``placings`` are (person, place); ``games`` tuples."""

    order: tuple[Any, ...]
    name: str
    day: date
    rounds: int
    players: int
    multiplier: float = 1.0
    placings: tuple[tuple[int, int], ...] = ()
    games: tuple[Game, ...] = ()


def method_of(settings: Settings) -> str:
    return {PlacementSettings: "placement", EloSettings: "elo", Glicko2Settings: "glicko2"}[type(settings)]


def _number(name: str, value: Any, *, minimum: float = 0.0, strict: bool = False,
            integer: bool = False) -> Any:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and integer:
        ok = float(value).is_integer()
    if ok:
        ok = value > minimum if strict else value >= minimum
    if not ok:
        raise CodedRefusal("circuit_setting_invalid", setting=name)
    return int(value) if integer else float(value)


def _weights(value: Any) -> tuple[float, ...]:
    if not isinstance(value, list | tuple):
        raise CodedRefusal("circuit_weights_invalid")
    for w in value:
        if isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w) or w < 0:
            raise CodedRefusal("circuit_weights_invalid")
    return tuple(float(w) for w in value)


def _base(value: Any) -> tuple[tuple[int, float], ...]:
    if not isinstance(value, Mapping) or not value:
        raise CodedRefusal("circuit_setting_invalid", setting="base_by_rounds")
    pairs = []
    for key, points in value.items():
        try:
            rounds = int(str(key).strip())
        except ValueError:
            raise CodedRefusal("circuit_setting_invalid", setting="base_by_rounds") from None
        if rounds < 0:
            raise CodedRefusal("circuit_setting_invalid", setting="base_by_rounds")
        pairs.append((rounds, _number("base_by_rounds", points)))
    return tuple(sorted(pairs))


def settings_from(method: Any, raw: Mapping[str, Any], base: Settings | None = None) -> Settings:
    """``method``'s settings from a JSON body (missing keys: ``base``'s, else the defaults);
    keys of other methods are ignored. Refuses an unknown method or curve, bad numbers."""
    if method not in _CLASSES:
        raise CodedRefusal("circuit_method_unknown", method=str(method))
    cls = _CLASSES[method]
    current = base if isinstance(base, cls) else cls()
    values = dict(vars(current))
    for key in values:
        if key not in raw:
            continue
        value = raw[key]
        if key == "base_by_rounds":
            values[key] = _base(value)
        elif key == "weights":
            values[key] = _weights(value)
        elif key == "curve":
            if value not in CURVES:
                raise CodedRefusal("circuit_curve_unknown", curve=str(value))
            values[key] = value
        elif key == "decay_days":
            values[key] = None if value is None else _number(key, value, strict=True, integer=True)
        elif key in ("size_cap", "min_events", "min_games"):
            values[key] = _number(key, value, integer=True)
        elif key == "best_n":
            values[key] = _number(key, value, strict=True, integer=True)
        elif key == "decay_step":
            values[key] = _number(key, value)
            if values[key] > 1:
                raise CodedRefusal("circuit_setting_invalid", setting=key)
        elif key == "initial_rating":
            values[key] = _number(key, value, minimum=-math.inf)
        else:  # k_factor, initial_deviation, initial_volatility, tau
            values[key] = _number(key, value, strict=True)
    return cls(**values)


def check_event(event: EventInput, today: date | None = None) -> None:
    """Refuses an event the engine cannot rank: a place beyond the player count, one person
    placed twice, a game naming a player twice or a winner who did not play, a future date."""
    if today is not None and event.day > today:
        raise CodedRefusal("circuit_result_in_future", date=event.day.isoformat())
    if event.rounds < 0 or event.players < 1:
        raise CodedRefusal("circuit_result_invalid")
    placed = set()
    for person, place in event.placings:
        if place < 1 or place > event.players:
            raise CodedRefusal("circuit_place_beyond_players", place=place, players=event.players)
        if person in placed:
            raise CodedRefusal("circuit_player_placed_twice")
        placed.add(person)
    if len(placed) > event.players:
        raise CodedRefusal("circuit_place_beyond_players", place=len(placed), players=event.players)
    for _round, _table, a, b, winner, _forfeit in event.games:
        if a == b:
            raise CodedRefusal("circuit_game_player_twice")
        if winner is not None and winner != a and winner != b:
            raise CodedRefusal("circuit_game_winner_unknown")
