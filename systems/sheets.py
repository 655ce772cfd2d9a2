"""The table-sheet boxes a game system prints (printing/services/sheet_boxes reads them).

A system registers its boxes on its `GameSystem` (``sheet_boxes``: block name -> `SheetBlock`)
and names them in its ``EventRules.sheet_blocks`` / ``back_blocks``; the box is printed by
``templates/packs/boxes/<name>.html``. A builder gives None where the event does not use the box."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SheetBlock:
    """One box a system prints. ``build(kit)`` for a box every table prints alike (built once per
    pack), ``build(kit, game, players)`` for a per-table box (``per_table``). ``gather(tournament,
    player_ids)``, when set, reads what the box needs once for the whole round (one query, never
    one per table); the box finds it in ``kit.gathered[name]``."""

    build: Callable[..., Any]
    per_table: bool = False
    gather: Callable[[Any, Iterable[int]], Any] | None = None
