"""The game systems Muster serves: one `GameSystem` per slug, found through this registry.

Core code (events, lists, rounds, results, standings, printing, the admin and the site) asks
`game_system(slug)` and never names a system. The installed systems are the modules listed in
``settings.MUSTER_GAME_SYSTEMS``; each exposes ``SYSTEM``, a `GameSystem` that gathers
everything about that game. A test may `register` a system of its own (the sixth system)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class EventForm:
    """What the admin's event form shows for a system's settings (events/admin/forms.py): the
    starting points limit it suggests, the fieldset titles by group (``advanced_rules``,
    ``settings``), and labels, help and choice labels by form field (``<group>_<key>``)."""

    suggested_points: int | None = None
    titles: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, str] = field(default_factory=dict)
    choices: Mapping[tuple[str, str], str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSystem:
    """Everything about one game: each part is read by the core through this object.

    ``list_rules`` (armylists/systems/base.ListRules; None: count-based chart rules),
    ``event_rules`` (events/systems/base.EventRules; None: the base rules of a chart game),
    ``event_form`` (the admin event form's wording of its settings). Parts of the pages and the
    site are named by dotted path, imported when used, so loading the registry stays light:
    ``list_page`` (an events/views/system_lists.SystemPage: the list page of a system with
    list rules of its own), ``demo_event`` (an events/demo_systems.DemoEvent: its event on a fresh demo site),
    ``api_urls`` (the URL module of its stateless tools, included under /api/v1/),
    ``list_refusals`` (sentences of its own list refusals and problems that the registry's
    messages render: armylists/systems/messages.py), ``campaign_chart`` (the chart its
    campaign armies are stored under: a system that has one is played as map campaigns),
    ``parts`` for what a context adds before it has a field of its own, keyed by its name."""

    slug: str
    list_rules: Any = None
    event_rules: Any = None
    event_form: EventForm = field(default_factory=EventForm)
    list_page: str = ""
    demo_event: str = ""
    api_urls: str = ""
    list_refusals: Mapping[str, str] = field(default_factory=dict)
    campaign_chart: str = ""
    parts: dict[str, Any] = field(default_factory=dict)
    # The game side (systems/reports.py): the report form every door posts (None: winner and
    # victory points), a report's facts in words, and the table-sheet boxes the system prints
    # (block name -> builder, read by printing/services/sheet_boxes).
    report_form: Any = None
    result_words: Any = None
    sheet_boxes: Mapping[str, Any] = field(default_factory=dict)
    # The table-roll kinds the system adds to the core's plain dice (systems/rolls.RollKind).
    roll_kinds: tuple[Any, ...] = ()

    def part(self, name: str, default: Any = None) -> Any:
        return self.parts.get(name, default)


_registry: dict[str, GameSystem] = {}
_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for path in settings.MUSTER_GAME_SYSTEMS:
        system = import_module(path).SYSTEM
        _registry.setdefault(system.slug, system)
    _loaded = True


def register(system: GameSystem) -> GameSystem:
    """Add (or replace) a system; the installed ones are loaded first."""
    _load()
    _registry[system.slug] = system
    return system


def unregister(slug: str) -> None:
    _load()
    _registry.pop(slug, None)


def game_system(slug: str) -> GameSystem | None:
    """The system registered under ``slug`` (None: a chart game with no package of its own)."""
    _load()
    return _registry.get(slug)


def game_systems() -> Iterator[GameSystem]:
    _load()
    yield from _registry.values()


def campaign_system() -> GameSystem:
    """The system whose lists are campaign armies (it has a ``campaign_chart``)."""
    for system in game_systems():
        if system.campaign_chart:
            return system
    raise LookupError("No installed game system is played as map campaigns.")
