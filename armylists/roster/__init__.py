"""Roster import: BattleScribe text, .ros, .rosz and NewRecruit JSON into list entries (pure)."""
from armylists.roster.parse import parse_roster
from armylists.roster.reference import (
    load_aliases,
    load_charts,
    load_game_system_aliases,
    load_ignored_categories,
)
from armylists.roster.results import (
    DEFAULT_LIMITS,
    FORMATS,
    ParsedRoster,
    RosterLimits,
    RosterUnreadable,
)

__all__ = [
    "DEFAULT_LIMITS",
    "FORMATS",
    "ParsedRoster",
    "RosterLimits",
    "RosterUnreadable",
    "load_aliases",
    "load_charts",
    "load_game_system_aliases",
    "load_ignored_categories",
    "parse_roster",
]
