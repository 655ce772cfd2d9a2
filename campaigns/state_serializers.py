"""Request shapes of the Epic 40,000 campaign endpoints (api-v1-systems "Epic 40,000 campaigns").

Values whose range is a game rule (strategic value, majors, dice faces) are checked by the
services, so they answer with the contract's ``{"detail", "code"}`` rather than a field map."""
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.engine.army import ARMY_POINTS
from campaigns.engine.battles import BATTLE_POINTS_BASES, ENEMY_FORCE
from campaigns.engine.declaration import DECLARATION_MODES, SEALED
from campaigns.engine.map import ADJACENCIES, ORTHOGONAL, SIDES
from campaigns.engine.scoring import (
    EVERY_TURN_HELD,
    OTHER_SECTORS_TABLE,
    TERRITORY_SCORING,
    VICTORY_SCORE,
)
from campaigns.engine.state import ORDER_KINDS
from campaigns.engine.tools import (
    INITIATIVE_COUNTERS,
    ON_EIGHT_ASK,
    ON_EIGHT_CHOICES,
    PHASES,
    PLANETS,
)
from campaigns.serializers import WIDE, DetachmentSerializer
from missions.serializers import DiceField

MAX_SEED = 2**31 - 1  # as a tournament's seed (events/serializers.py)
NAME = {"max_length": 200}
CODE = {"max_length": 10}  # a territory code; unknown codes get territory_unknown from the engine
MAX_NAMES = 100
MAX_ROUTE = 18  # a route never needs to fly over more than every territory once


class OtherSectorsTableField(serializers.DictField):
    """G19: the other-sectors table, one score change per modified result 1–6 (editable data)."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.IntegerField(min_value=-24, max_value=24), **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if sorted(value) != [str(face) for face in range(1, 7)]:
            raise serializers.ValidationError(_("Give the score change for each result 1 to 6."))
        return {str(face): value[str(face)] for face in range(1, 7)}


def default_table() -> dict[str, int]:
    return {str(face): delta for face, delta in OTHER_SECTORS_TABLE.items()}


@extend_schema_field(OpenApiTypes.STR)
class OnEightField(serializers.ChoiceField):
    """The stateless planet tool's ``on_eight`` choices (ask, agri-monde, monde-ruche); a plain
    string in the schema, so the tool's ``OnEightEnum`` keeps a single name."""

    def __init__(self, **kwargs):
        super().__init__(choices=ON_EIGHT_CHOICES, **kwargs)


class SettingsSerializer(serializers.Serializer):
    """A campaign's decided defaults (systems/epic-campaign.md §1.3), each a setting."""

    adjacency = serializers.ChoiceField(choices=ADJACENCIES, default=ORTHOGONAL)  # G4
    planet_on_eight = OnEightField(default=ON_EIGHT_ASK)  # G3
    territory_scoring = serializers.ChoiceField(choices=TERRITORY_SCORING, default=EVERY_TURN_HELD)  # G16
    battle_points_basis = serializers.ChoiceField(choices=BATTLE_POINTS_BASES, default=ENEMY_FORCE)  # G17
    other_sectors_table = OtherSectorsTableField(default=default_table)  # G19
    victory_score = serializers.IntegerField(min_value=1, max_value=1000, default=VICTORY_SCORE)  # G26
    declaration_mode = serializers.ChoiceField(choices=DECLARATION_MODES, default=SEALED)  # G11


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    army_points = serializers.IntegerField(min_value=1, max_value=1_000_000, default=ARMY_POINTS)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    settings = SettingsSerializer(required=False)


class CampaignSideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    username = serializers.CharField(max_length=150, required=False)
    name = serializers.CharField(max_length=120)
    army_name = serializers.CharField(max_length=120)
    faction = serializers.SlugField(max_length=60)
    strategic_value = serializers.IntegerField(**WIDE)  # G2 range: strategic_value_out_of_range


class ArmyBodySerializer(serializers.Serializer):
    detachments = DetachmentSerializer(many=True, max_length=500)


class PlanetBodySerializer(serializers.Serializer):
    planet = serializers.ChoiceField(choices=PLANETS, required=False)
    dice = DiceField()


class MajorsSerializer(serializers.Serializer):
    majors = serializers.ListField(child=serializers.CharField(**CODE), max_length=MAX_NAMES)


class PlacementSerializer(serializers.Serializer):
    detachment = serializers.CharField(**NAME)
    territory = serializers.CharField(**CODE)
    side = serializers.ChoiceField(choices=SIDES, required=False)  # staff placing for a side
    dice = DiceField()  # G5: the roll-off of equal strategic values, thrown at the table


class InitiativeBodySerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=PHASES)
    dice = DiceField()
    deadline = serializers.DateTimeField(required=False, allow_null=True)  # G11: orders due by


class AirBodySerializer(serializers.Serializer):
    """R14, R21: the air gates' dice thrown at the table: each mission's Flak dice in the order
    the missions were accepted, then one D6 per unit of each intercepting detachment."""

    dice = DiceField()


class InfiltrationsBodySerializer(serializers.Serializer):
    """R25: the infiltration dice thrown at the table, one D6 per enemy detachment in each
    target, orders in the order they were accepted (left out: the server rolls)."""

    dice = DiceField()


class OrderSerializer(serializers.Serializer):
    """One order; ``from`` is a Python keyword, so the field is added by name."""

    kind = serializers.ChoiceField(choices=ORDER_KINDS)
    detachments = serializers.ListField(child=serializers.CharField(**NAME), max_length=MAX_NAMES,
                                        default=list)
    to = serializers.CharField(required=False, allow_null=True, **CODE)
    for_attack = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                          max_value=2**31 - 1)
    side = serializers.ChoiceField(choices=SIDES, required=False)  # staff declaring for a side
    # Air missions (R19–R24): an unknown mission or a bad route is the engine's refusal.
    mission = serializers.CharField(required=False, allow_null=True, max_length=12)
    route = serializers.ListField(child=serializers.CharField(**CODE), max_length=MAX_ROUTE,
                                  default=list)
    return_route = serializers.ListField(child=serializers.CharField(**CODE),
                                         max_length=MAX_ROUTE, default=list)
    escort_of = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                         max_value=2**31 - 1)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.CharField(required=False, allow_null=True, **CODE)
        return fields


class SideDiceSerializer(serializers.Serializer):
    # Any integer: a face outside 1–6 is the service's dice_invalid.
    west = serializers.IntegerField(required=False, **WIDE)
    east = serializers.IntegerField(required=False, **WIDE)


class CloseSerializer(serializers.Serializer):
    other_sectors_dice = SideDiceSerializer(required=False)


class ChoicesSerializer(serializers.Serializer):
    stay = serializers.ListField(child=serializers.CharField(**NAME), max_length=MAX_NAMES,
                                 required=False)
    retreat_to = serializers.DictField(child=serializers.CharField(**CODE), required=False)


class CampaignReportSerializer(serializers.Serializer):
    """The ``"campaign"`` object of a battle's report: the detachments swept away (R38, G1) and
    destroyed, by name, of either side."""

    swept = serializers.ListField(child=serializers.CharField(**NAME), max_length=MAX_NAMES,
                                  default=list)
    destroyed = serializers.ListField(child=serializers.CharField(**NAME), max_length=MAX_NAMES,
                                      default=list)


def _attacker_reserves(battle) -> list:
    from campaigns.services.battles import attacker_reserves  # services import this module

    return attacker_reserves(battle)


def battle_data(battle) -> dict:
    """A contested battle's sheet (contract ``POST .../turns/{n}/battles/``): every name in it
    is known to both sides once the battle is engaged (R12)."""
    game = battle.game
    data = {
        "id": battle.pk, "game": battle.game_id, "territory": battle.territory,
        "attacker": battle.attacker, "defender": battle.defender,
        "attackers": list(battle.attackers),
        "defender_deployed": list(battle.defender_deployed),
        "defender_reserves": list(battle.defender_reserves),
        "fortifications": battle.fortifications,
        "initiative_counters": dict(INITIATIVE_COUNTERS),
        "at_stake": dict(battle.at_stake),
        "players": {"attacker": game.player_a_id, "defender": game.player_b_id},
        "isolated": list(battle.isolated),
        "status": game.status,
        "stay": list(battle.stay), "retreat_to": dict(battle.retreat_to),
    }
    reserves = _attacker_reserves(battle)
    if reserves:  # R30: landings and distant transports enter from reserves (optional field)
        data["attacker_reserves"] = reserves
    return data


def capture_data(battle, names: bool) -> dict:
    """G13: an undefended territory taken without a battle; its attackers stay hidden from the
    defender (no battle was engaged)."""
    data = {"id": battle.pk, "game": None, "territory": battle.territory,
            "attacker": battle.attacker, "defender": battle.defender}
    if names:
        data.update(attackers=list(battle.attackers), stay=list(battle.stay))
    return data


class SurrenderSerializer(serializers.Serializer):
    confirm = serializers.CharField(max_length=200, help_text="the surrendering side's army name")
