"""The urban_war package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.urban_war.event_rules import UrbanWarEvent
from systems.urban_war.list_rules import UrbanWarRules

SYSTEM = GameSystem(
    slug="urban-war",
    list_rules=UrbanWarRules(),
    event_rules=UrbanWarEvent(),
)
