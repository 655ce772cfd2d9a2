"""Row ids inside an event's JSON fields, rewritten through a mapping (pure, no Django).

Games, reports and the audit log name players (and games, reports, lists, accounts) by
database id inside their JSON: roles and victory points are keyed by player id, pre-game
decisions and objective outcomes hold player ids as values. An event backup replaces every such
id by a document-local reference on the way out and by the new row's id on the way in; the same
functions serve both directions, only the mapping differs.

A mapping returns None for an id it does not know. In games and reports that is an error (the
import refuses such a document); the audit log may name rows that are gone (a game paired again,
a pack), so there an unknown id becomes None.

A campaign's battles name the orders they come from, and its audit entries (``campaign_*``)
name orders, battles, ledger lines, players and games by id; detachments are named and
territories coded everywhere else, so the campaign's other JSON fields need no rewriting."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from config.refusals import CodedRefusal
from missions.objectives import OUTCOME_FIELDS
from missions.pregame import DynamicsPregameResult

Map = Callable[[Any], Any]

# Every pre-game decision names a player, except the night-fighting outcome.
PREGAME_PLAYERS = frozenset(f.name for f in fields(DynamicsPregameResult)) - {
    "players", "rolls", "dawn_dusk"}
# Outcome keys whose value is one player id (or None) and those keyed by player id.
OUTCOME_SIDE = frozenset(k for shape in OUTCOME_FIELDS.values() for k, v in shape.items()
                         if v == "side_or_none")
OUTCOME_BY_SIDE = frozenset(k for shape in OUTCOME_FIELDS.values() for k, v in shape.items()
                            if v.endswith("_by_side"))


def _nothing(value: Any) -> Any:
    return None


@dataclass(frozen=True)
class Refs:
    """How to rewrite each kind of id; ``user`` maps an account id to and from a username."""

    player: Map
    game: Map
    report: Map
    army_list: Map
    user: Map
    component: Map = _nothing  # an award or penalty (venue.award_models.ScoreComponent)
    # A campaign's order, battle and score line (campaigns.models).
    order: Map = _nothing
    battle: Map = _nothing
    score_entry: Map = _nothing


class UnknownRef(CodedRefusal, ValueError):
    """An id the mapping does not know: the document points at a row it does not hold."""

    def __init__(self, kind: str, value: Any) -> None:
        super().__init__("unknown_reference", kind=kind, value=value)
        self.kind, self.value = kind, value

    def __str__(self) -> str:
        return f"unknown {self.kind} reference {self.value!r}"


def _required(fn: Map, kind: str, value: Any) -> Any:
    """``value`` mapped; None stays None, an unknown id raises ``UnknownRef``."""
    if value is None:
        return None
    mapped = fn(value)
    if mapped is None:
        raise UnknownRef(kind, value)
    return mapped


def player_str(refs: Refs, value: Any) -> str | None:
    """A player id written as text (dictionary keys, pre-game decisions, rolls)."""
    mapped = _required(refs.player, "player", value)
    return None if mapped is None else str(mapped)


def keyed_by_player(refs: Refs, data: Mapping[str, Any] | None) -> dict[str, Any]:
    return {player_str(refs, k): v for k, v in (data or {}).items()}


def pregame(refs: Refs, data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: player_str(refs, v) if k in PREGAME_PLAYERS else v for k, v in data.items()}


def rolls(refs: Refs, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Logged rolls: a roll-off die carries the player who rolled it."""
    return [{**r, "player": player_str(refs, r.get("player"))} if "player" in r else dict(r)
            for r in data]


def list_problems(refs: Refs, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**p, "player": _required(refs.player, "player", p.get("player"))} for p in data]


def outcome(refs: Refs, data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in OUTCOME_BY_SIDE and isinstance(value, Mapping):
            out[key] = keyed_by_player(refs, value)
        elif key in OUTCOME_SIDE:
            out[key] = player_str(refs, value)
        else:
            out[key] = value
    return out


def game_fields(refs: Refs, game: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON fields of a game that hold player ids."""
    return {
        "roles": keyed_by_player(refs, game["roles"]),
        "pregame": pregame(refs, game["pregame"]),
        "rolls": rolls(refs, game["rolls"]),
        "list_problems": list_problems(refs, game["list_problems"]),
        "victory_points": keyed_by_player(refs, game["victory_points"]),
        "declarations": keyed_by_player(refs, game["declarations"]),
        "outcome": outcome(refs, game.get("outcome") or {}),
    }


def report_fields(refs: Refs, report: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "outcome": outcome(refs, report["outcome"]),
        "victory_points": keyed_by_player(refs, report["victory_points"]),
        "stratagems": keyed_by_player(refs, report["stratagems"]),
    }


def battle_fields(refs: Refs, battle: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON field of a campaign battle that holds ids: the attacks (orders) it comes from.
    Detachments are named, territories coded: those fields read the same in any database."""
    return {"attack_ids": [_required(refs.order, "order", v) for v in battle["attack_ids"]]}


# The keys of a turn's air entries and infiltration results that hold order ids: one each, or
# a list (campaigns/services/air.py, campaign_infiltrations.py).
ENTRY_ORDER_KEYS = ("order", "escort_of", "interceptor_order")
ENTRY_ORDER_LISTS = ("interceptors", "escorts")
ENTRY_LISTS = ("air", "infiltrations", "missions", "landings")


def order_entry(order: Map, entry: Mapping[str, Any]) -> dict[str, Any]:
    """One air roll or infiltration result with its order ids mapped by ``order``."""
    mapped = dict(entry)
    for key in ENTRY_ORDER_KEYS:
        if key in entry:
            mapped[key] = order(entry[key])
    for key in ENTRY_ORDER_LISTS:
        if isinstance(entry.get(key), list):
            mapped[key] = [order(v) for v in entry[key]]
    return mapped


def turn_fields(refs: Refs, turn: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON fields of a campaign turn that hold order ids: the infiltration results and the
    air phase's rolls (R14, R21, R25)."""
    def order(value: Any) -> Any:
        return _required(refs.order, "order", value)

    return {key: [order_entry(order, e) for e in turn.get(key) or []]
            for key in ("air", "infiltrations")}


# Audit details: which key holds which kind of id. A mission pack is not part of a backup (it
# is rebuilt from the round), so its id is dropped.
AUDIT_IDS = {"player": "player", "winner": "player", "game": "game", "report": "report",
             "list": "army_list", "component": "component", "voter": "player"}
AUDIT_NESTED = ("before", "after")


def audit_data(refs: Refs, data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # A vote's entry names the players voted for before and after (ids, not nested details).
    vote = "voter" in data
    for key, value in data.items():
        if key in AUDIT_IDS and isinstance(value, int | str) and not isinstance(value, bool):
            out[key] = getattr(refs, AUDIT_IDS[key])(value)
        elif vote and key in AUDIT_NESTED and isinstance(value, int) and not isinstance(value, bool):
            out[key] = refs.player(value)
        elif key == "entries" and isinstance(value, Mapping):  # a removed component's values
            out[key] = {str(refs.player(k)): v for k, v in value.items()}
        elif key == "user":
            out[key] = None if value is None else refs.user(value)
        elif key == "pack":
            out[key] = None
        elif key == "victory_points" and isinstance(value, Mapping):
            out[key] = {str(refs.player(k)): v for k, v in value.items()}
        elif key in AUDIT_NESTED and isinstance(value, Mapping):
            out[key] = audit_data(refs, value)
        else:
            out[key] = value
    return out


# A campaign's audit details (actions ``campaign_*``): a refused order is deleted, so its id and
# those of its reactions become None; ``winner`` there is a side, not a player.
CAMPAIGN_AUDIT_IDS = {"player": "player", "order": "order", "for_attack": "order",
                      "escort_of": "order", "battle": "battle", "entry": "score_entry"}
CAMPAIGN_PREFIX = "campaign_"


def _is_id(value: Any) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def campaign_audit_data(refs: Refs, data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in CAMPAIGN_AUDIT_IDS and _is_id(value):
            out[key] = getattr(refs, CAMPAIGN_AUDIT_IDS[key])(value)
        elif key == "user":
            out[key] = None if value is None else refs.user(value)
        elif key in ("reactions", "orders") and isinstance(value, list):
            out[key] = [refs.order(v) if _is_id(v) else None for v in value]
        elif key == "refused" and isinstance(value, list):  # a reveal's refusals (G11)
            out[key] = [{**r, "id": refs.order(r.get("id")) if _is_id(r.get("id")) else None}
                        if isinstance(r, Mapping) else r for r in value]
        elif key in ENTRY_LISTS and isinstance(value, list):
            out[key] = [order_entry(lambda v: refs.order(v) if _is_id(v) else None, e)
                        if isinstance(e, Mapping) else e for e in value]
        elif key == "battles" and isinstance(value, list):  # the battles a turn generated
            out[key] = [{**b, "id": refs.battle(b.get("id")),
                         "game": refs.game(b["game"]) if _is_id(b.get("game")) else None}
                        if isinstance(b, Mapping) else b for b in value]
        else:
            out[key] = value
    return out


def entry_data(refs: Refs, action: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """An audit entry's details with their ids rewritten, by the action that wrote them."""
    if action.startswith(CAMPAIGN_PREFIX):
        return campaign_audit_data(refs, data)
    return audit_data(refs, data)
