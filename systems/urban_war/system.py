"""The urban_war package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.urban_war import report, rolls, sheet_boxes
from systems.urban_war.event_form import EVENT_FORM
from systems.urban_war.event_rules import UrbanWarEvent
from systems.urban_war.list_rules import UrbanWarRules

SYSTEM = GameSystem(
    slug="urban-war",
    list_rules=UrbanWarRules(),
    list_page="systems.urban_war.list_page.PAGE",
    event_rules=UrbanWarEvent(),
    event_form=EVENT_FORM,
    demo_event="systems.urban_war.demo.DEMO_EVENT",
    api_urls="systems.urban_war.urls",
    report_form=report.UrbanWarReportForm,
    result_words=report.WORDS,
    sheet_boxes=sheet_boxes.BOXES,
    roll_kinds=rolls.ROLL_KINDS,
)
