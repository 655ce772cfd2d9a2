"""API shapes for charts and army lists."""
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armylists.models import ArmyList, Chart
from armylists.roster import FORMATS

MAX_UNITS = 500
MAX_ROSTER_CHARS = 3 * 1024 * 1024  # a 2 MiB file, base64-encoded


class ChartSlotSerializer(serializers.Serializer):
    slot = serializers.CharField(source="slot.code")
    min = serializers.IntegerField(source="minimum")
    max = serializers.IntegerField(source="maximum", allow_null=True)


class ChartSerializer(serializers.ModelSerializer):
    name = serializers.CharField()
    game_system = serializers.CharField(source="game_system.slug")
    slots = ChartSlotSerializer(source="rows", many=True)

    class Meta:
        model = Chart
        fields = ["slug", "name", "game_system", "points_min", "points_max", "slots"]


class UnitSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slot = serializers.CharField(max_length=40, allow_null=True, required=False, default=None)
    points = serializers.IntegerField(min_value=0, max_value=100_000)
    models = serializers.IntegerField(min_value=1, max_value=10_000, default=1)


class ListBodySerializer(serializers.Serializer):
    """A list as units, or as a roster (pasted text, base64 file, or a multipart file)."""

    units = UnitSerializer(many=True, required=False, max_length=MAX_UNITS)
    roster = serializers.CharField(
        required=False, trim_whitespace=False, max_length=MAX_ROSTER_CHARS
    )
    roster_file = serializers.FileField(required=False, max_length=255)
    roster_format = serializers.ChoiceField(choices=["auto", *FORMATS], default="auto")

    def validate(self, attrs: dict) -> dict:
        given = [key for key in ("units", "roster", "roster_file") if key in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                {"units": [_("Send exactly one of: units, roster, roster_file.")]}
            )
        # The chart is in the body (lists/validate) or given by the caller (a tournament's).
        chart = attrs.get("chart") or self.context.get("chart")
        if "units" in attrs and chart is not None:
            check_unit_slots(attrs["units"], chart)
        return attrs


def check_unit_slots(units: list[dict], chart: Chart) -> None:
    """A typed unit names a slot code of the chart's game system, or null: anything else is a
    malformed body, one field error per unit. (A roster's unknown category stays a warning: the
    player did not choose that word.)"""
    codes = [slot.code for slot in chart.game_system.slots.all()]
    # Keyed by the unit's index, as DRF reports a list's items (LIST_SERIALIZER_ERRORS_AS_DICT).
    errors = {index: {"slot": [
        _("“%(slot)s” is not a slot code. Use one of: %(codes)s, or null.")
        % {"slot": unit["slot"], "codes": ", ".join(codes)}]}
        for index, unit in enumerate(units) if unit.get("slot") not in (None, *codes)}
    if errors:
        raise serializers.ValidationError({"units": errors})


class ValidateSerializer(ListBodySerializer):
    chart = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Chart.objects.select_related("game_system").prefetch_related("rows__slot"),
    )
    points_limit = serializers.IntegerField(min_value=1, max_value=100_000)


class StoreListSerializer(ValidateSerializer):
    name = serializers.CharField(max_length=200, required=False, default="")


class ArmyListSerializer(serializers.ModelSerializer):
    chart = serializers.CharField(source="chart.slug")

    class Meta:
        model = ArmyList
        fields = [
            "id", "name", "chart", "points_limit", "source_format", "raw_filename", "entries",
            "valid", "total_points", "created_at", "supersedes",
        ]


def roster_bytes(attrs: dict) -> tuple[bytes | str, str]:
    """The raw roster and its file name; a multipart file is read whole (size-capped upstream)."""
    upload = attrs.get("roster_file")
    if upload is not None:
        return upload.read(), upload.name
    return attrs["roster"], ""

