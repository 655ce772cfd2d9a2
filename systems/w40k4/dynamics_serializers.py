"""Request shapes of the W40K Dynamics tools (api-v1-systems "W40K Dynamics")."""
from rest_framework import serializers

from missions.serializers import DiceField, SeedField
from systems.w40k4.dynamics import MORALE_RULES, ROUNDINGS, VEHICLE_TYPES

# Wide bounds: a value outside 1–10 is clamped with a warning, not refused (DG6).
INITIATIVE = {"min_value": -100, "max_value": 100}
MAX_UNITS = 500


class TokensSerializer(serializers.Serializer):
    # No min_value: points below 1 get the contract's own code, points_not_positive.
    points = serializers.IntegerField(max_value=1_000_000)
    rounding = serializers.ChoiceField(choices=ROUNDINGS, default="ceil")


class VehicleSerializer(serializers.Serializer):
    driver_initiative = serializers.IntegerField(**INITIATIVE)
    types = serializers.ListField(child=serializers.ChoiceField(choices=VEHICLE_TYPES),
                                  max_length=len(VEHICLE_TYPES) * 2, default=list)
    carried_initiative = serializers.IntegerField(required=False, allow_null=True, **INITIATIVE)


class PassUnitSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    initiative = serializers.IntegerField(required=False, allow_null=True, **INITIATIVE)
    models_initiative = serializers.ListField(child=serializers.IntegerField(**INITIATIVE),
                                              max_length=1000, default=list)
    vehicle = VehicleSerializer(required=False, allow_null=True)


class PassesSerializer(serializers.Serializer):
    units = PassUnitSerializer(many=True, max_length=MAX_UNITS)


class AdvantageSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(max_length=100), min_length=2, max_length=2)
    bonus_now = serializers.CharField(max_length=100, required=False, allow_null=True)
    permanent = serializers.CharField(max_length=100, required=False, allow_null=True)
    seed = SeedField()
    dice = DiceField()


class MoraleSerializer(serializers.Serializer):
    # Range checks in the view, so they answer with the contract's {"detail", "code"}.
    models_at_start = serializers.IntegerField(max_value=100_000)
    pending_from_shooting = serializers.IntegerField(max_value=100_000)
    rule = serializers.ChoiceField(choices=MORALE_RULES, default="at_least")
