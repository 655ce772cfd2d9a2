"""The list-rules registry: one plug-in per game system, found by the game system's slug.

`rules_for(slug)` gives the system's `ListRules` (armylists/systems/base.py): the request body it
reads, the check (a pure engine over the stored reference data) and how its problems read. A system
without a plug-in of its own (a new chart game) uses the count-based chart rules."""
from armylists.systems.base import ListRefused, ListRules
from armylists.systems.urban_war import UrbanWarRules
from armylists.systems.w40k4 import ChartRules
from armylists.systems.whfb import WhfbRules

DEFAULT = ChartRules()
REGISTRY: dict[str, ListRules] = {rules.slug: rules for rules in (DEFAULT, WhfbRules(), UrbanWarRules())}


def rules_for(game_system_slug: str) -> ListRules:
    return REGISTRY.get(game_system_slug, DEFAULT)


def foreign_fields(rules: ListRules) -> tuple[frozenset[str], frozenset[str]]:
    """Body fields, and item fields, that other systems read and this one does not."""
    others = [other for other in REGISTRY.values() if other is not rules]
    top = frozenset().union(*(o.top_fields() for o in others)) - rules.top_fields()
    item = frozenset().union(*(o.item_fields() for o in others)) - rules.item_fields()
    return top, item


__all__ = ["DEFAULT", "REGISTRY", "ListRefused", "ListRules", "foreign_fields", "rules_for"]
