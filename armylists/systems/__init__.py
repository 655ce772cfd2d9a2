"""The list rules of a game system, found by the game system's slug (systems/registry.py).

`rules_for(slug)` gives the system's `ListRules` (armylists/systems/base.py): the request body it
reads, the check (a pure engine over the stored reference data) and how its problems read. A system
without list rules of its own (a new chart game) uses the count-based chart rules."""
from armylists.systems.base import ListRefused, ListRules
from armylists.systems.chart import ChartRules
from systems.registry import game_system, game_systems

DEFAULT = ChartRules()


def rules_for(game_system_slug: str) -> ListRules:
    system = game_system(game_system_slug)
    return system.list_rules if system is not None and system.list_rules is not None else DEFAULT


def all_rules() -> list[ListRules]:
    """The list rules of every installed system, and the default chart rules."""
    return [DEFAULT, *(s.list_rules for s in game_systems() if s.list_rules is not None)]


def foreign_fields(rules: ListRules) -> tuple[frozenset[str], frozenset[str]]:
    """Body fields, and item fields, that other systems read and this one does not."""
    others = [other for other in all_rules() if type(other) is not type(rules)]
    top = frozenset().union(*(o.top_fields() for o in others)) - rules.top_fields()
    item = frozenset().union(*(o.item_fields() for o in others)) - rules.item_fields()
    return top, item


__all__ = ["DEFAULT", "ListRefused", "ListRules", "all_rules", "foreign_fields", "rules_for"]
