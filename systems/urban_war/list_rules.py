"""Urban War commandos (seed 002): armylists/urban_war.validate_commando over the profile cards
stored for the chart's game system, with the chart's size rules (the body may narrow them)."""
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from armylists.models import ProfileCard
from armylists.systems import messages
from armylists.systems.base import ListRefused, ListRules, render_problems
from systems.urban_war import commando as engine
from systems.urban_war.list_messages import render_urban_war_problem
from systems.urban_war.list_serializers import CommandoListSerializer, CommandoModelSerializer

logger = logging.getLogger(__name__)
RULE_KEYS = ("size_min", "size_max", "max_copies")


def card_spec(row: ProfileCard) -> engine.ProfileCard | None:
    """A stored card as the engine's card; None (logged) when staff left it unreadable."""
    try:
        return engine.card_from_dict({
            "card": row.card, "faction": row.faction.slug, "name_en": row.name_en, "name_fr": row.name_fr,
            "stats": row.stats, "cal_options": row.cal_options, "options": row.options,
            "options_cost_modifier": row.options_cost_modifier,
        })
    except (KeyError, TypeError, ValueError, AttributeError):
        logger.warning("profile card %s (pk %s) cannot be read", row.card, row.pk)
        return None


def card_specs(rows: Iterable[ProfileCard]) -> dict[str, engine.ProfileCard]:
    cards = (card_spec(row) for row in rows)
    return {card.card: card for card in cards if card is not None}


class UrbanWarRules(ListRules):
    slug = "urban-war"
    serializer = CommandoListSerializer
    item_key = "models"
    item_serializer = CommandoModelSerializer

    def check(self, chart: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        rules = self._rules(chart, data)
        models = [engine.CommandoModel(m["profile"], m["cal"], tuple(m["options"]), m["commander"], m["label"])
                  for m in data["models"]]
        rows = ProfileCard.objects.filter(
            game_system_id=chart.game_system_id, card__in={m.profile for m in models},
        ).select_related("faction")
        return engine.validate_commando(models, card_specs(rows), data["points_limit"], rules).to_dict()

    def render(self, chart: Any, answer: Mapping[str, Any]) -> dict[str, Any]:
        def one(problem) -> str:
            return messages.render(problem.code, problem.params) or render_urban_war_problem(
                problem.code, problem.params)

        return {**answer, "errors": render_problems(answer["errors"], one),
                "warnings": render_problems(answer["warnings"], one)}

    def stored_items(self, data: Mapping[str, Any], answer: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Each model as sent, with its label, points, FS and FU as priced (results read them)."""
        sent, priced = data["models"], answer["entries"]
        if len(sent) != len(priced):
            return [dict(entry) for entry in priced]
        return [{**dict(model), **entry} for model, entry in zip(sent, priced, strict=True)]

    def rules_problem(self, rules: Mapping[str, Any]) -> str | None:
        try:
            engine.CommandoRules(**{key: rules[key] for key in RULE_KEYS if key in rules})
        except (TypeError, ValueError):
            return str(_('Write commando rules as {"size_min": 6, "size_max": 20, "max_copies": null}: '
                         'whole numbers, size_min not above size_max, max_copies at least 1 or null.'))
        return None

    @staticmethod
    def _rules(chart: Any, data: Mapping[str, Any]) -> engine.CommandoRules:
        stored = dict(chart.rules or {})
        values = {key: stored[key] for key in RULE_KEYS if key in stored}
        values.update({key: data[key] for key in ("size_min", "size_max") if key in data})
        try:
            return engine.CommandoRules(**values)
        except ValueError:
            size_min, size_max = values.get("size_min"), values.get("size_max")
            if isinstance(size_min, int) and isinstance(size_max, int) and size_min > size_max:
                raise ListRefused("size_bounds_invalid", min=size_min, max=size_max) from None
            raise ListRefused("chart_rules_invalid", chart=chart.slug) from None
        except TypeError:
            raise ListRefused("chart_rules_invalid", chart=chart.slug) from None
