"""Count-based force-organisation charts: the list rules of any chart system without rules of
its own: armylists/validation.py, rendered by armylists/messages.py."""
from collections.abc import Mapping
from typing import Any

from armylists import chart_reports as services
from armylists.serializers import UnitSerializer, ValidateSerializer
from armylists.systems.base import ListRules


class ChartRules(ListRules):
    slug = ""
    serializer = ValidateSerializer
    item_serializer = UnitSerializer
    # Units and rosters (BattleScribe, NewRecruit) are read by the generic list view.
    shared_view = True

    def check(self, chart: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        entries = services.entries_from_units(data["units"])
        return services.report_data(services.validate_entries(chart, data["points_limit"], entries))

    def render(self, chart: Any, answer: Mapping[str, Any]) -> dict[str, Any]:
        return services.render_report(answer, services.slot_names(chart.game_system))
