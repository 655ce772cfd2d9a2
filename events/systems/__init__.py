"""What a game system changes in an event, found by the game system's slug (systems/registry.py).

`event_rules(slug)` gives the system's `EventRules` (events/systems/base.py): whether rounds roll
Cities of Death missions, which turn systems, advanced rules and settings it reads, what its lists
are checked with in the event, and what its reports carry. A chart system without rules of its own
gets the base rules (scenario rounds, win/draw/loss or vp_table results)."""
from events.systems.base import STANDARD, EventRules, Scored, normalised
from systems.registry import game_system, game_systems


class ChartEvent(EventRules):
    slug = ""


DEFAULT = ChartEvent()
# Campaign systems (Epic 40,000) are run as campaigns, not as Swiss events.
NOT_FOR_EVENTS = ("campaign",)


def event_rules(game_system_slug: str) -> EventRules:
    system = game_system(game_system_slug)
    return system.event_rules if system is not None and system.event_rules is not None else DEFAULT


def all_event_rules() -> dict[str, EventRules]:
    """The event rules of every installed system, by slug."""
    return {s.slug: s.event_rules for s in game_systems() if s.event_rules is not None}


__all__ = ["DEFAULT", "NOT_FOR_EVENTS", "STANDARD", "EventRules", "Scored", "all_event_rules",
           "event_rules", "normalised"]
