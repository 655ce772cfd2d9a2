"""Warhammer 40,000 4th edition (Cities of Death missions, or the W40K Dynamics turn system)."""
from rest_framework import serializers

from events.systems.base import PLAIN_ROLLS, STANDARD, EventRules
from systems.w40k4 import dynamics

DYNAMICS = "dynamics"
# Cities of Death rolls (§7.3–§7.5); the game's mission and level decide which are offered.
CITIES_OF_DEATH_ROLLS = ("game_length", "reserves", "night_fighting")


class W40k4SettingsSerializer(serializers.Serializer):
    """Settings read by the Dynamics turn system (seed 004's [Gap]s DG1 and DG9)."""

    token_rounding = serializers.ChoiceField(choices=dynamics.ROUNDINGS, default="ceil")
    morale_rule = serializers.ChoiceField(choices=dynamics.MORALE_RULES, default="at_least")


class W40k4Event(EventRules):
    slug = "w40k4"
    rolls_missions = True
    turn_systems = (STANDARD, DYNAMICS)
    settings = W40k4SettingsSerializer
    sheet_blocks = ("mission", "rolls", "dynamics", "stratagems", "result")
    roll_kinds = {STANDARD: (*CITIES_OF_DEATH_ROLLS, *PLAIN_ROLLS),
                  DYNAMICS: (*CITIES_OF_DEATH_ROLLS, *PLAIN_ROLLS, "dynamics_advantage")}
