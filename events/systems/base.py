"""What a game system changes in an event: settings it reads, how its lists are checked in the
event, and what its result reports carry. Found by the game system's slug (events/systems)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rest_framework import serializers

STANDARD = "standard"
# Plain dice every chart game may roll at the table (events/services/table_rolls).
PLAIN_ROLLS: tuple[str, ...] = ("d6", "2d6", "d3")


@dataclass(frozen=True)
class Scored:
    """A report's result once the system has read its facts: the winner (None: a draw), the
    victory points by player id, and the facts to keep (``Game.outcome``)."""

    winner: int | None
    victory_points: Mapping[int, int]
    outcome: Mapping[str, Any] = field(default_factory=dict)


class EventRules:
    """An event system's plug-in. The defaults fit a chart game without missions of its own:
    staff-written scenarios, no settings, no report facts."""

    slug: ClassVar[str]
    # Cities of Death: rounds roll missions at the event's level (``level``/``on_six`` required).
    rolls_missions: ClassVar[bool] = False
    turn_systems: ClassVar[tuple[str, ...]] = (STANDARD,)
    # Serializers of the event's ``advanced_rules`` and ``settings`` (None: the system has none).
    advanced_rules: ClassVar[type[serializers.Serializer] | None] = None
    settings: ClassVar[type[serializers.Serializer] | None] = None
    # Whether ``score`` derives the victory points itself (players need not send them).
    derives_victory_points: ClassVar[bool] = False
    # The report's top-level ``outcome`` (None: the system reads none).
    outcome: ClassVar[type[serializers.Serializer] | None] = None
    # What a table sheet of the mission pack prints, in order: printing/data.CORE_BLOCKS
    # or a box of printing/services/sheet_boxes.BUILDERS (left out where the event does not use it).
    sheet_blocks: ClassVar[tuple[str, ...]] = ("scenario", "vp_table", "result")
    # Blocks printed on the back of each table sheet, a second page (none: one page per table).
    back_blocks: ClassVar[tuple[str, ...]] = ()
    # Table rolls a game of this system offers, by turn system (events/services/table_rolls);
    # a turn system not listed rolls as the standard one.
    roll_kinds: ClassVar[Mapping[str, tuple[str, ...]]] = {STANDARD: PLAIN_ROLLS}

    def table_roll_kinds(self, turn_system: str) -> tuple[str, ...]:
        return self.roll_kinds.get(turn_system) or self.roll_kinds[STANDARD]

    def list_inputs(self, tournament: Any) -> dict[str, Any]:
        """Event settings the system's list check reads beside the player's body."""
        return {}

    def score(self, game: Any, winner: int | None, victory_points: Mapping[int, int],
              facts: Mapping[str, Any], lists: Mapping[int, Sequence[Mapping[str, Any]]]) -> Scored:
        """The result a report records; ``lists`` are both players' current entries."""
        return Scored(winner, victory_points, {})

    def needs_lists(self) -> bool:
        """Whether ``score`` reads the players' lists (saves a query when it does not)."""
        return False


def normalised(serializer: type[serializers.Serializer] | None, value: Any) -> dict[str, Any]:
    """The full settings dict (defaults filled in), or a DRF ValidationError."""
    if serializer is None:
        return {}
    checked = serializer(data=value if value is not None else {})
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)
