"""The game systems Muster serves: one `GameSystem` per slug, found through this registry.

Core code (events, lists, rounds, results, standings, printing, the admin and the site) asks
`game_system(slug)` and never names a system. The installed systems are the modules listed in
``settings.MUSTER_GAME_SYSTEMS``; each exposes ``SYSTEM``, a `GameSystem` that gathers
everything about that game. A test may `register` a system of its own (the sixth system)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class GameSystem:
    """Everything about one game: each part is read by the core through this object.

    ``list_rules`` (armylists/systems/base.ListRules; None: count-based chart rules),
    ``event_rules`` (events/systems/base.EventRules; None: the base rules of a chart game),
    ``parts`` for what a context adds as it grows (report form, roll kinds, result words,
    sheet blocks, demo events, tools API...), keyed by the part's name."""

    slug: str
    list_rules: Any = None
    event_rules: Any = None
    parts: dict[str, Any] = field(default_factory=dict)

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
