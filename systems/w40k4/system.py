"""The w40k4 package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.w40k4.event_rules import W40k4Event
from systems.w40k4.list_rules import W40k4Rules

SYSTEM = GameSystem(
    slug="w40k4",
    list_rules=W40k4Rules(),
    event_rules=W40k4Event(),
)
