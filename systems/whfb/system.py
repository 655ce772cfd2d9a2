"""The whfb package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.whfb.event_rules import WhfbEvent
from systems.whfb.list_rules import WhfbRules

SYSTEM = GameSystem(
    slug="whfb",
    list_rules=WhfbRules(),
    event_rules=WhfbEvent(),
)
