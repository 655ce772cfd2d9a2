"""Reader for NewRecruit's JSON export, a JSON mirror of the BattleScribe roster schema.

Shape read (every key optional; wrong types are ignored rather than trusted)::

    {"roster": {"name", "gameSystemName", "costs": [{"name": "pts", "value": 1500}],
                "forces": [{"selections": [...], "forces": [...], "categories": [...]}]}}
    selection: {"name", "type", "number", "categories": [{"name", "primary": true}],
                "costs": [{"name": "pts", "value": 90}], "selections": [...]}

A bare roster object (no ``"roster"`` wrapper) is accepted too, and so are the XML-to-JSON
converters' ``{"forces": {"force": [...]}}`` containers. The game system is the roster's
``gameSystemName``, else the wrapper's (some exports put it next to ``"roster"``). Selections
without ``categories`` may carry BattleScribe 2.01 ``categoryLinks``, resolved as in ``xml_roster``. Costs and models follow the .ros rules
(see ``xml_roster``): own costs summed over the subtree, models = model-type ``number`` sums.
Nesting beyond ``max_depth`` -> ``too_deep`` (``json`` itself fails on extreme nesting with a
RecursionError, reported the same way).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from armylists.roster.results import RosterLimits, RosterUnreadable
from armylists.roster.selections import (
    POINTS_COST_NAMES,
    Budget,
    RawRoster,
    RawUnit,
    clean_name,
    to_count,
    to_float,
)


def load_json(data: bytes) -> Any:
    """Decode untrusted JSON; nesting bombs and bad syntax become RosterUnreadable."""
    try:
        return json.loads(data)
    except RecursionError:
        raise RosterUnreadable("too_deep", {"detail": "json"}) from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, oversized integer literals
        raise RosterUnreadable("bad_json", {"detail": str(exc)[:120]}) from None


def read_json_roster(data: bytes, limits: RosterLimits) -> RawRoster:
    """Read a NewRecruit JSON document into format-neutral units."""
    document = load_json(data)
    roster = document.get("roster", document) if isinstance(document, dict) else None
    if not isinstance(roster, dict) or not ("forces" in roster or "selections" in roster):
        raise RosterUnreadable("not_a_roster", {"detail": "no roster object with forces"})
    budget = Budget(limits)
    units: list[RawUnit] = []
    for force in _items(roster.get("forces"), "force"):
        _read_force(force, 1, budget, units, {})
    if "forces" not in roster:
        _read_force(roster, 1, budget, units, {})
    return RawRoster(
        units=tuple(units),
        game_system=_text(roster.get("gameSystemName")) or _text(document.get("gameSystemName")),
        name=_text(roster.get("name")),
        declared_points=_declared_points(roster),
    )


def _read_force(
    force: Mapping[str, Any], depth: int, budget: Budget, units: list[RawUnit],
    inherited: dict[str, str],
) -> None:
    budget.take(depth)
    names = {**inherited, **_category_names(force)}
    for selection in _items(force.get("selections"), "selection"):
        units.append(_read_unit(selection, depth + 1, budget, None, names))
    for category in _items(force.get("categories"), "category"):
        parent = _text(category.get("name"))
        for selection in _items(category.get("selections"), "selection"):
            units.append(_read_unit(selection, depth + 1, budget, parent, names))
    for child in _items(force.get("forces"), "force"):
        _read_force(child, depth + 1, budget, units, names)


def _category_names(force: Mapping[str, Any]) -> dict[str, str]:
    names: dict[str, str] = {}
    for category in _items(force.get("categories"), "category"):
        name = _text(category.get("name"))
        for key in (_text(category.get("id")), _text(category.get("entryId"))):
            if name and key:
                names[key] = name
    return names


def _read_unit(
    selection: Mapping[str, Any], depth: int, budget: Budget, parent: str | None,
    names: dict[str, str],
) -> RawUnit:
    budget.take_unit()
    points, models = _subtree(selection, depth, budget)
    return RawUnit(
        name=clean_name(selection.get("name")),
        kind=(_text(selection.get("type")) or "").strip().casefold(),
        categories=_unit_categories(selection, names),
        points=points,
        models=models,
        parent_category=parent,
    )


def _unit_categories(
    selection: Mapping[str, Any], names: dict[str, str]
) -> tuple[tuple[str, bool], ...]:
    categories = tuple(
        (clean_name(category.get("name")), _is_true(category.get("primary")))
        for category in _items(selection.get("categories"), "category")
    )
    if categories:
        return categories
    return tuple(
        (clean_name(names[target]), _is_true(link.get("primary")))
        for link in _items(selection.get("categoryLinks"), "categoryLink")
        if (target := _text(link.get("targetId"))) and target in names
    )


def _subtree(selection: Mapping[str, Any], depth: int, budget: Budget) -> tuple[float, int]:
    budget.take(depth)
    points = _own_points(selection)
    kind = (_text(selection.get("type")) or "").strip().casefold()
    models = to_count(selection.get("number")) if kind == "model" else 0
    for child in _items(selection.get("selections"), "selection"):
        child_points, child_models = _subtree(child, depth + 1, budget)
        points += child_points
        models += child_models
    return points, models


def _own_points(element: Mapping[str, Any]) -> float:
    return sum(to_float(cost.get("value")) for cost in _points_costs(element))


def _declared_points(roster: Mapping[str, Any]) -> float | None:
    costs = _points_costs(roster)
    return sum(to_float(cost.get("value")) for cost in costs) if costs else None


def _points_costs(element: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [
        cost for cost in _items(element.get("costs"), "cost")
        if ((_text(cost.get("name")) or "").strip().casefold() in POINTS_COST_NAMES
            or _text(cost.get("typeId")) == "points")
    ]


def _items(value: object, item_key: str) -> list[Mapping[str, Any]]:
    """The dict items of a list, or of an XML-to-JSON ``{"item": [...]}`` container."""
    if isinstance(value, dict) and item_key in value:
        value = value[item_key]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _is_true(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.strip().casefold() == "true")
