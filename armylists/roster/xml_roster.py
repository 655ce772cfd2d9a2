"""Reader for BattleScribe ``.ros`` XML (roster schema, namespace battlescribe.net/schema/rosterSchema).

Shape read (namespace ignored, so older and newer files both work)::

    roster[@name, @gameSystemName] / costs / cost[@name, @value]          declared total
      forces / force / selections / selection[@name, @type, @number]       top-level = entries
                                    / categories / category[@name, @primary]
                                    / categoryLinks / categoryLink[@targetId, @primary]
                                    / costs / cost[@name="pts", @value]
                                    / selections / selection ...           children
                     / forces / force ...                                   nested forces
                     / categories / category[@id, @entryId, @name]         the force's categories
                                  / selections / ...                       BattleScribe 1.x layout

Categories: BattleScribe 2.02+ writes each selection's ``categories`` with names and a
``primary`` flag. BattleScribe 2.01 writes ``categoryLinks`` instead, whose ``targetId`` points at
a category of the force (its ``entryId``, or its ``id``) and whose own name is a placeholder
("New CategoryLink"): the name is resolved through the categories of the force and of its
parents. Links to categories the roster does not list (faction keywords) are ignored. Links are
only read when a selection has no ``categories``.

Costs: in a roster file each selection's ``costs`` hold only that selection's own cost, already
multiplied by its ``number`` (a unit of 0 pts whose models carry the points is common), so a
unit's points are the sum over its whole subtree. Cost names are matched loosely
("pts", "Points"...). Models: the ``number`` of every ``type="model"`` selection in the subtree,
the top-level selection included; 1 when there is none (units modelled as upgrades).

Parsing goes through defusedxml with DTDs, entities and external references forbidden.
"""
from __future__ import annotations

from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

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


def parse_xml(data: bytes) -> Element:
    """Parse untrusted XML safely; the root element is returned."""
    try:
        return fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise RosterUnreadable("xml_entities_forbidden", {"detail": type(exc).__name__}) from None
    except (ParseError, ValueError, LookupError) as exc:
        raise RosterUnreadable("bad_xml", {"detail": str(exc)[:120]}) from None


def local_name(tag: object) -> str:
    """Tag without its ``{namespace}`` prefix (comments and PIs have non-string tags)."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def read_ros(data: bytes, limits: RosterLimits) -> RawRoster:
    """Read a .ros document into format-neutral units."""
    root = parse_xml(data)
    if local_name(root.tag) != "roster":
        raise RosterUnreadable("not_a_roster", {"root": local_name(root.tag)[:40]})
    budget = Budget(limits)
    units: list[RawUnit] = []
    for force in _children(root, "forces", "force"):
        _read_force(force, 1, budget, units, {})
    return RawRoster(
        units=tuple(units),
        game_system=_attr(root, "gameSystemName"),
        name=_attr(root, "name"),
        declared_points=_declared_points(root),
    )


def _read_force(
    force: Element, depth: int, budget: Budget, units: list[RawUnit], inherited: dict[str, str]
) -> None:
    budget.take(depth)
    names = {**inherited, **_category_names(force)}
    for selection in _children(force, "selections", "selection"):
        units.append(_read_unit(selection, depth + 1, budget, None, names))
    for category in _children(force, "categories", "category"):
        parent = _attr(category, "name")
        for selection in _children(category, "selections", "selection"):
            units.append(_read_unit(selection, depth + 1, budget, parent, names))
    for child in _children(force, "forces", "force"):
        _read_force(child, depth + 1, budget, units, names)


def _category_names(force: Element) -> dict[str, str]:
    """The force's categories by ``entryId`` and by ``id`` (the targets of 2.01 category links)."""
    names: dict[str, str] = {}
    for category in _children(force, "categories", "category"):
        name = _attr(category, "name")
        if not name:
            continue
        for key in (_attr(category, "id"), _attr(category, "entryId")):
            if key:
                names[key] = name
    return names


def _read_unit(
    selection: Element, depth: int, budget: Budget, parent: str | None, names: dict[str, str]
) -> RawUnit:
    budget.take_unit()
    points, models = _subtree(selection, depth, budget)
    return RawUnit(
        name=clean_name(_attr(selection, "name")),
        kind=(_attr(selection, "type") or "").strip().casefold(),
        categories=_unit_categories(selection, names),
        points=points,
        models=models,
        parent_category=parent,
    )


def _unit_categories(selection: Element, names: dict[str, str]) -> tuple[tuple[str, bool], ...]:
    """(name, primary) of a selection's categories, or of its resolved 2.01 category links."""
    categories = tuple(
        (clean_name(_attr(cat, "name")), _is_true(_attr(cat, "primary")))
        for cat in _children(selection, "categories", "category")
    )
    if categories:
        return categories
    return tuple(
        (clean_name(names[target]), _is_true(_attr(link, "primary")))
        for link in _children(selection, "categoryLinks", "categoryLink")
        if (target := _attr(link, "targetId")) and target in names
    )


def _is_true(value: str | None) -> bool:
    return (value or "").strip().casefold() == "true"


def _subtree(selection: Element, depth: int, budget: Budget) -> tuple[float, int]:
    """Points and model count of a selection and everything under it."""
    budget.take(depth)
    points = _own_points(selection)
    kind = (_attr(selection, "type") or "").strip().casefold()
    models = to_count(_attr(selection, "number")) if kind == "model" else 0
    for child in _children(selection, "selections", "selection"):
        child_points, child_models = _subtree(child, depth + 1, budget)
        points += child_points
        models += child_models
    return points, models


def _own_points(element: Element) -> float:
    total = 0.0
    for cost in _children(element, "costs", "cost"):
        if (_attr(cost, "name") or "").strip().casefold() in POINTS_COST_NAMES:
            total += to_float(_attr(cost, "value"))
    return total


def _declared_points(root: Element) -> float | None:
    costs = [
        cost for cost in _children(root, "costs", "cost")
        if (_attr(cost, "name") or "").strip().casefold() in POINTS_COST_NAMES
    ]
    return sum(to_float(_attr(cost, "value")) for cost in costs) if costs else None


def _children(element: Element, container: str, item: str) -> list[Element]:
    """Elements ``<container><item/>...</container>`` directly under ``element``."""
    found: list[Element] = []
    for box in element:
        if local_name(box.tag) == container:
            found.extend(child for child in box if local_name(child.tag) == item)
    return found


def _attr(element: Element, name: str) -> str | None:
    value = element.get(name)
    return value if isinstance(value, str) else None
