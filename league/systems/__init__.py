"""The event-rules registry: one plug-in per game system, found by its slug.

`event_rules(slug)` gives what the system changes in an event (league/systems/base.py): whether
rounds roll Cities of Death missions, which turn systems, advanced rules and settings it reads,
what its lists are checked with in the event, and what its reports carry. A chart system without
a plug-in of its own gets the base rules (scenario rounds, win/draw/loss or vp_table results)."""
from league.systems.base import EventRules, Scored, normalised
from league.systems.urban_war import UrbanWarEvent
from league.systems.w40k4 import DYNAMICS, W40k4Event
from league.systems.whfb import WhfbEvent


class ChartEvent(EventRules):
    slug = ""


DEFAULT = ChartEvent()
REGISTRY: dict[str, EventRules] = {r.slug: r for r in (W40k4Event(), WhfbEvent(), UrbanWarEvent())}
# Campaign systems (Epic 40,000) are run as campaigns, not as Swiss events.
NOT_FOR_EVENTS = ("campaign",)


def event_rules(game_system_slug: str) -> EventRules:
    return REGISTRY.get(game_system_slug, DEFAULT)


__all__ = ["DEFAULT", "DYNAMICS", "NOT_FOR_EVENTS", "REGISTRY", "EventRules", "Scored", "event_rules",
           "normalised"]
