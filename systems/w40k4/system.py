"""The w40k4 package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.w40k4 import rolls, sheet
from systems.w40k4.event_form import EVENT_FORM
from systems.w40k4.event_rules import W40k4Event
from systems.w40k4.list_rules import W40k4Rules

SYSTEM = GameSystem(
    slug="w40k4",
    list_rules=W40k4Rules(),
    event_rules=W40k4Event(),
    event_form=EVENT_FORM,
    demo_event="systems.w40k4.demo.DEMO_EVENT",
    api_urls="systems.w40k4.urls",
    sheet_boxes=sheet.BOXES,
    roll_kinds=rolls.ROLL_KINDS,
)
