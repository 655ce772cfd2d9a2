"""An event's system settings checked together: the chart belongs to the game system, the level
only where Cities of Death missions are rolled, the turn system, advanced rules, settings and
scoring the system reads. Used by the API's creation body and by the admin (Tournament.clean)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from config.refusals import CodedRefusal
from events import scoring
from events.systems import NOT_FOR_EVENTS, event_rules, normalised
from missions.systems_messages import table_reason

FIXED_ONCE_USED = ("game_system", "scoring", "turn_system")  # lists or rounds depend on them


class ConfigError(CodedRefusal):
    """Field -> messages, for a serializer's or a form's field errors."""

    def __init__(self, errors: Mapping[str, list[str]]):
        super().__init__("event_config_invalid", errors=dict(errors))
        self.errors = dict(errors)


def event_config(game_system: Any, chart: Any, values: Mapping[str, Any]) -> dict[str, Any]:
    """The system fields as stored, or ConfigError. ``values`` holds ``level``, ``on_six``,
    ``turn_system``, ``advanced_rules``, ``settings`` and ``scoring`` (absent: defaults)."""
    rules = event_rules(game_system.slug)
    errors: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    if game_system.kind in NOT_FOR_EVENTS:
        errors["game_system"] = [_("%(system)s is played as a campaign, not as a tournament.")
                                 % {"system": game_system.name}]
    if chart is not None and chart.game_system_id != game_system.pk:
        errors["chart"] = [_("The chart %(chart)s belongs to another game system.") % {"chart": chart.slug}]
    if rules.rolls_missions:
        if values.get("level") is None:
            errors["level"] = [_("This game system rolls Cities of Death missions: choose a level.")]
    else:
        out["level"] = None  # missions are not rolled: rounds carry the organisers' scenario
    turn_system = values.get("turn_system") or "standard"
    if turn_system not in rules.turn_systems:
        errors["turn_system"] = [_("This game system has no turn system “%(name)s”.") % {"name": turn_system}]
    out["turn_system"] = turn_system
    for field, serializer in (("advanced_rules", rules.advanced_rules), ("settings", rules.settings)):
        value = values.get(field)
        if serializer is None:
            if value:
                errors[field] = [_("This game system has no such settings.")]
            out[field] = {}
            continue
        try:
            out[field] = normalised(serializer, value)
        except serializers.ValidationError as exc:
            errors[field] = _flatten(exc.detail)
    try:
        out["scoring"] = scoring.scoring_config(values.get("scoring"))
    except scoring.TableError as exc:
        errors["scoring"] = [_("The scoring is not usable: %(reason)s")
                             % {"reason": table_reason(exc.reason, exc.params)}]
    if errors:
        raise ConfigError(errors)
    return out


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, Mapping):
        return [m for key, value in detail.items() for m in _flatten(value, f"{prefix}{key}: ")]
    if isinstance(detail, list):
        return [m for value in detail for m in _flatten(value, prefix)]
    return [f"{prefix}{detail}"]
