"""The whfb package's `GameSystem`: what the registry (systems/registry.py) gives the core."""
from systems.registry import GameSystem
from systems.whfb import report, sheet
from systems.whfb.event_form import EVENT_FORM
from systems.whfb.event_rules import WhfbEvent
from systems.whfb.list_messages import LIST_REFUSALS
from systems.whfb.list_rules import WhfbRules

SYSTEM = GameSystem(
    slug="whfb",
    list_rules=WhfbRules(),
    list_page="systems.whfb.list_page.PAGE",
    event_rules=WhfbEvent(),
    event_form=EVENT_FORM,
    demo_event="systems.whfb.demo.DEMO_EVENT",
    api_urls="systems.whfb.urls",
    list_refusals=LIST_REFUSALS,
    report_form=report.WhfbReportForm,
    result_words=report.WORDS,
    sheet_boxes=sheet.BOXES,
)
