"""The renderers of the pack kinds, registered by the context that owns each kind.

A pack kind (``MissionPack.Kind``) is printed by the renderer its owner registers from its
``AppConfig.ready()``: ``register(kind, renderer, check=None)``. ``renderer(pack, chunk,
progress)`` gathers the pack's data (in the worker) and returns what writes its PDF into a
file and returns the page count; ``check(round_)``, when given, refuses a round that has no
such pack (it raises the service error the organisers see). The pack builder
(printing/services/packs.py) asks this registry, so printing imports none of the contexts
whose packs it builds (the campaign turn pack is registered by campaigns).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from config.refusals import Refusal

Progress = Callable[[int, int], None]
Writer = Callable[[BinaryIO], int]
Renderer = Callable[[Any, int, Progress], Writer]
Check = Callable[[Any], None]


class PackError(Refusal):
    """The round's data cannot be printed; the message is for the organisers."""

    def __init__(self, message: object, code: str = "pack_not_printable") -> None:
        super().__init__(message, code)


@dataclass(frozen=True)
class Registered:
    renderer: Renderer
    check: Check | None = None


_KINDS: dict[str, Registered] = {}


def register(kind: str, renderer: Renderer, check: Check | None = None) -> None:
    """``renderer`` prints the packs of ``kind``; ``check`` refuses rounds without one."""
    _KINDS[str(kind)] = Registered(renderer, check)


def renderer_of(kind: str) -> Registered:
    """The registration of ``kind``; a kind nobody registered cannot be printed."""
    found = _KINDS.get(str(kind))
    if found is None:
        raise PackError(f"no renderer registered for the pack kind {kind!r}")
    return found


def check(kind: str, round_: Any) -> None:
    """Refuse ``round_`` when the kind's owner says it has no such pack."""
    found = _KINDS.get(str(kind))
    if found is not None and found.check is not None:
        found.check(round_)
