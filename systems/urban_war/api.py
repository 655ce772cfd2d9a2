"""API: the stateless Urban War tool (seed 002): the command test, 2D10 + CD + CAL against 15."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from missions.api import REPORT, dice_record, entered_dice, refuse, start_roller
from missions.serializers import DiceField, SeedField
from systems.urban_war import table_rules as urban_war

# Wide bounds: a CD outside 1–10 or a negative CAL gets its own code from the view.
CHARACTERISTIC = {"min_value": -1000, "max_value": 1000}
MAX_MODIFIERS = 20


class CommandTestSerializer(serializers.Serializer):
    cd = serializers.IntegerField(**CHARACTERISTIC)
    cal = serializers.IntegerField(**CHARACTERISTIC)
    modifiers = serializers.ListField(child=serializers.IntegerField(min_value=-100, max_value=100),
                                      max_length=MAX_MODIFIERS, default=list)
    seed = SeedField()
    dice = DiceField()


class CommandTestView(APIView):
    """POST /api/v1/urban-war/command-test/: the two D10 thrown (or a seed), CD, CAL, modifiers."""

    @extend_schema(request=CommandTestSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(CommandTestSerializer, request)
        if not urban_war.CD_MIN <= data["cd"] <= urban_war.CD_MAX:
            refuse("cd_out_of_range", cd=data["cd"], min=urban_war.CD_MIN, max=urban_war.CD_MAX)
        if data["cal"] < 0:
            refuse("cal_negative", cal=data["cal"])
        roller = start_roller(data)
        with entered_dice():
            test = urban_war.roll_command_test(roller, data["cd"], data["cal"], data["modifiers"])
        return Response({**test.to_dict(), **dice_record(roller)})
