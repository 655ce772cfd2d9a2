"""Warhammer Battle advanced rules (seed 003): the event's switches feed the list check; a report
names who captured the enemy baggage (+200 victory points, W-R6) and the units that left to loot."""
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events.systems.base import EventRules, Scored
from systems.whfb.list_serializers import AdvancedRulesSerializer
from systems.whfb.victory import BAGGAGE_BONUS

MAX_LOOTING = 100


class WhfbOutcomeSerializer(serializers.Serializer):
    baggage_captured_by = serializers.IntegerField(required=False, allow_null=True, default=None)
    looting_units = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=200), max_length=MAX_LOOTING),
        required=False, default=dict)


class WhfbEvent(EventRules):
    slug = "whfb"
    advanced_rules = AdvancedRulesSerializer
    outcome = WhfbOutcomeSerializer
    sheet_blocks = ("scenario", "mantlets", "stakes", "baggage", "vp_table", "result")

    def list_inputs(self, tournament: Any) -> dict[str, Any]:
        return {"advanced_rules": dict(tournament.advanced_rules or {})}

    def score(self, game: Any, winner: int | None, victory_points: Mapping[int, int],
              facts: Mapping[str, Any], lists: Mapping[int, Sequence[Mapping[str, Any]]]) -> Scored:
        """The reported points are before the baggage bonus: the captor adds 200 (WG8: the captor
        only); looting units are kept as reported (they were already left out of the points)."""
        from events.errors import Invalid

        ids = set(game.player_ids)
        captor = facts.get("baggage_captured_by")
        if captor is not None and captor not in ids:
            raise Invalid(_("The baggage captor must be one of the two players."), "player_not_in_game")
        looting: dict[str, list[str]] = {}
        for key, names in (facts.get("looting_units") or {}).items():
            if not str(key).isdigit() or int(key) not in ids:
                raise Invalid(_("Player %(id)s did not play in this game.") % {"id": key}, "player_not_in_game")
            looting[str(int(key))] = list(names)
        if captor is not None and not game.round.tournament.advanced_rules.get("baggage"):
            raise Invalid(_("This event does not use army baggage."), "baggage_disabled")
        points = {pid: int(victory_points.get(pid, 0)) for pid in ids}
        bonus = {pid: BAGGAGE_BONUS if pid == captor else 0 for pid in ids}
        total = {pid: points[pid] + bonus[pid] for pid in ids}
        return Scored(winner, total, {
            "baggage_captured_by": captor, "looting_units": looting,
            "reported_victory_points": {str(k): v for k, v in points.items()},
            "baggage_bonus": {str(k): v for k, v in bonus.items()},
        })
