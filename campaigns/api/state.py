"""API: Epic 40,000 campaigns (api-v1-systems "Epic 40,000 campaigns", seed 001): set-up,
placement, the turn cycle, battles and score. The services (campaigns/services/setup.py,
services/placement.py, services/turns.py, services/battles.py) check who may act; the views read
bodies and shape answers. Included under ``/api/v1/campaigns/`` by config/api_urls.py."""
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api.campaign import problems
from campaigns.models import Campaign, CampaignTurn
from campaigns.serializers import detachment_spec
from campaigns.services import battles as campaign_battles
from campaigns.services import campaign as campaigns
from campaigns.services import declarations as campaign_declarations
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import order_numbers
from campaigns.services import placement as campaign_placement
from campaigns.services import reads as campaign_reads
from campaigns.services import setup as campaign_setup
from campaigns.services import surrender as campaign_surrender
from campaigns.services import turns as campaign_turns
from campaigns.state_serializers import (
    ArmyBodySerializer,
    CampaignCreateSerializer,
    CampaignSideSerializer,
    ChoicesSerializer,
    CloseSerializer,
    InfiltrationsBodySerializer,
    InitiativeBodySerializer,
    MajorsSerializer,
    OrderSerializer,
    PlacementSerializer,
    PlanetBodySerializer,
    SettingsSerializer,
    SurrenderSerializer,
    battle_data,
    capture_data,
)
from config.api_errors import validated
from events.audit import Actor
from events.errors import Invalid
from events.systems import normalised

ANSWER = OpenApiResponse(description="see api-v1-systems.md, Epic 40,000 campaigns")


def signed_in(request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return Actor.of(request)


def campaign_for(slug: str) -> Campaign:
    return campaigns.get_campaign(slug)


def turn_seen(request, slug: str, number: int) -> tuple[Campaign, CampaignTurn, str | None]:
    """A turn for a participant's or staff's read: the campaign, the turn and whose eyes (None:
    staff); 403 for anyone else, 404 for a turn not opened yet."""
    actor = signed_in(request)
    campaign = campaign_for(slug)
    viewer = campaign_reads.viewer_side(actor, campaign)
    return campaign, campaign_turns.turn_of(campaign, number), viewer


def staff_dice(request, slug: str, body: type[serializers.Serializer]
               ) -> tuple[Actor, Campaign, list[int] | None]:
    """A staff call that rolls: the organiser, the campaign and the dice typed, if any."""
    actor = signed_in(request)
    campaign = campaign_for(slug)
    campaigns.require_staff(actor)
    return actor, campaign, validated(body, request).get("dice")


class CampaignsView(APIView):
    """GET: every campaign (public). POST (staff): create one in set-up."""

    @extend_schema(responses=ANSWER, operation_id="v1_campaigns_list")
    def get(self, request):
        return Response([{"slug": c.slug, "name": c.name, "status": c.status}
                         for c in Campaign.objects.all()])

    @extend_schema(request=CampaignCreateSerializer, responses={201: ANSWER})
    def post(self, request):
        actor = signed_in(request)
        campaigns.require_staff(actor)
        data = validated(CampaignCreateSerializer, request)
        settings = data.get("settings") or normalised(SettingsSerializer, {})
        campaign = campaign_setup.create_campaign(actor, name=data["name"], settings=settings,
                                                  army_points=data["army_points"],
                                                  seed=data.get("seed"))
        return Response(campaign_reads.campaign_view(campaign), status=status.HTTP_201_CREATED)


class CampaignView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        return Response(campaign_reads.campaign_view(campaign_for(slug)))


class SidesView(APIView):
    """POST (staff): a side, its player and army name, faction and strategic value."""

    @extend_schema(request=CampaignSideSerializer, responses={201: ANSWER})
    def post(self, request, slug: str):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaigns.require_staff(actor)
        data = validated(CampaignSideSerializer, request)
        row = campaign_setup.add_side(actor, campaign, **data)
        return Response(campaign_reads.side_view(row, 0), status=status.HTTP_201_CREATED)


class ArmyView(APIView):
    """GET/PUT a side's detachments (that side's player, staff); frozen once placed or running."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, side: str):
        actor = signed_in(request)
        owner = campaigns.side_for(actor, campaign_for(slug), side)
        return Response(campaign_reads.army_view(owner))

    @extend_schema(request=ArmyBodySerializer, responses=ANSWER)
    def put(self, request, slug: str, side: str):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaign_setup.check_side_access(actor, campaign, side)
        data = validated(ArmyBodySerializer, request)
        specs = [detachment_spec(d) for d in data["detachments"]]
        report, saved = campaign_setup.set_army(actor, campaign, side, specs)
        return Response({"valid": report.valid, "total_points": report.total_points,
                         "errors": problems(report.errors), "warnings": problems(report.warnings),
                         "saved": saved})


class MajorsView(APIView):
    @extend_schema(request=MajorsSerializer, responses=ANSWER)
    def put(self, request, slug: str, side: str):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaign_setup.check_side_access(actor, campaign, side)
        majors = validated(MajorsSerializer, request)["majors"]
        row = campaign_setup.set_majors(actor, campaign, side, majors)
        return Response(campaign_reads.side_view(row, campaigns.scores_of(campaign)[side]))


class PlanetView(APIView):
    """POST (staff): ``{"dice"?}`` rolls 2D6 (R5), ``{"planet"}`` chooses (by agreement, or on
    an 8 when the campaign asks, G3)."""

    @extend_schema(request=PlanetBodySerializer, responses=ANSWER)
    def post(self, request, slug: str):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaigns.require_staff(actor)
        data = validated(PlanetBodySerializer, request)
        answer = campaign_setup.set_planet(actor, campaign, planet=data.get("planet"),
                                           dice=data.get("dice"))
        body = {"planet": answer.planet, "candidates": list(answer.candidates),
                "rolls": list(answer.rolls)}
        if answer.unused_dice:
            body["unused_dice"] = list(answer.unused_dice)
        return Response(body)


class PlacementsView(APIView):
    @extend_schema(request=PlacementSerializer, responses=ANSWER)
    def post(self, request, slug: str):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        data = validated(PlacementSerializer, request)
        following = campaign_placement.place(actor, campaign, detachment=data["detachment"],
                                             territory=data["territory"], side=data.get("side"),
                                             dice=data.get("dice"))
        return Response({"next": following})


class StartView(APIView):
    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str):
        actor = signed_in(request)
        campaign = campaign_placement.start(actor, campaign_for(slug))
        return Response(campaign_reads.campaign_view(campaign))


class SurrenderView(APIView):
    """POST (that side's player, staff): ``{"confirm": army name}`` → the campaign, finished with
    the enemy's victory (R35); 400 ``confirmation_mismatch``, 409 unless it runs."""

    @extend_schema(request=SurrenderSerializer, responses=ANSWER)
    def post(self, request, slug: str, side: str):
        actor = signed_in(request)
        typed = validated(SurrenderSerializer, request)["confirm"]
        campaign = campaign_surrender.surrender(actor, campaign_for(slug), side, typed)
        return Response(campaign_reads.campaign_view(campaign))


class MapView(APIView):
    """GET (participants, staff): the map under hidden information (R12)."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        actor = signed_in(request)
        return Response(campaign_reads.map_view(actor, campaign_for(slug)))


class InitiativeView(APIView):
    @extend_schema(request=InitiativeBodySerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaigns.require_staff(actor)
        data = validated(InitiativeBodySerializer, request)
        return Response(campaign_turns.roll_initiative(actor, campaign, number, data["phase"],
                                                       data.get("dice"), data.get("deadline")))


class OrdersView(APIView):
    """POST (that side's player; staff with ``"side"``): one order, accepted or refused. GET
    (participants, staff): the turn's orders as the reader may see them."""

    @extend_schema(request=OrderSerializer, responses={201: ANSWER})
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        data = validated(OrderSerializer, request)
        order = campaign_turns.OrderInput(
            kind=data["kind"], detachments=tuple(data["detachments"]), from_=data.get("from"),
            to=data.get("to"), for_attack=data.get("for_attack"), side=data.get("side"),
            mission=data.get("mission"), route=tuple(data["route"]),
            return_route=tuple(data["return_route"]), escort_of=data.get("escort_of"))
        saved = campaign_turns.declare_order(actor, campaign, number, order)
        # "accepted": every check passed; a sealed order (G11) also says "sealed": true.
        return Response({"id": order_numbers.public_id(saved), "status": "accepted", "bonus": saved.bonus or None,
                         **campaign_declarations.order_answer(campaign, saved)},
                        status=status.HTTP_201_CREATED)

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, number: int):
        """The turn's orders as the reader may see them (G11, R12) and the open phase's
        declaring: ``{"declarations", "orders"}``."""
        campaign, turn, viewer = turn_seen(request, slug, number)
        return Response({"declarations": campaign_declarations.declarations_view(campaign, turn),
                         "orders": campaign_declarations.orders_seen_by(campaign, turn, viewer)})


class InfiltrationsView(APIView):
    """POST (staff): resolve the open infiltration phase's orders (R25) → ``{"infiltrations",
    "dice_log"}``. GET (participants, staff): the turn's results as the reader may see them
    (R12: each side its own outcomes and what concerns it)."""

    @extend_schema(request=InfiltrationsBodySerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor, campaign, dice = staff_dice(request, slug, InfiltrationsBodySerializer)
        return Response(campaign_infiltrations.resolve_infiltrations(actor, campaign, number, dice))

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, number: int):
        campaign, turn, viewer = turn_seen(request, slug, number)
        return Response({"infiltrations": campaign_infiltrations.seen_results(turn, viewer)})


class BattlesView(APIView):
    """POST (staff): generate the turn's battles. GET (participants, staff): their sheets."""

    @extend_schema(request=None, responses={201: ANSWER})
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        created = campaign_battles.generate_battles(actor, campaign, number)
        return Response(battles_body(created, None), status=status.HTTP_201_CREATED)

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, number: int):
        campaign, turn, viewer = turn_seen(request, slug, number)
        rows = turn.battles.select_related("game").order_by("pk")
        return Response(battles_body(rows, viewer))


def battles_body(rows, viewer: str | None) -> dict:
    """Contested battles (each a game) and undefended captures (G13) apart."""
    rows = list(rows)
    return {"battles": [battle_data(b) for b in rows if b.contested],
            "captures": [capture_data(b, viewer is None or viewer == b.attacker)
                         for b in rows if not b.contested]}


class ChoicesView(APIView):
    """POST: the winner's ``stay``, the loser's ``retreat_to`` (R32, G14)."""

    @extend_schema(request=ChoicesSerializer, responses=ANSWER)
    def post(self, request, slug: str, pk: int):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        data = validated(ChoicesSerializer, request)
        try:
            battle = campaign_battles.make_choices(actor, campaign, pk, stay=data.get("stay"),
                                                   retreat_to=data.get("retreat_to"))
        except Invalid as exc:
            if exc.code != campaign_battles.RETREAT_CHOICE_REQUIRED:
                raise
            # The contract's refusal names the detachment and its options.
            return Response({"detail": str(exc.message), "code": exc.code, **exc.params},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response({"id": battle.pk, "territory": battle.territory,
                         "stay": list(battle.stay), "retreat_to": dict(battle.retreat_to)})


class CloseView(APIView):
    @extend_schema(request=CloseSerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        campaign = campaign_for(slug)
        campaigns.require_staff(actor)
        dice = validated(CloseSerializer, request).get("other_sectors_dice")
        return Response(campaign_turns.close_turn(actor, campaign, number, dice))


class ScoreView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        return Response(campaign_reads.score_view(campaign_for(slug)))


urlpatterns = [
    path("", CampaignsView.as_view(), name="api-campaigns"),
    path("<slug:slug>/", CampaignView.as_view(), name="api-campaign"),
    path("<slug:slug>/sides/", SidesView.as_view(), name="api-campaign-sides"),
    path("<slug:slug>/sides/<str:side>/army/", ArmyView.as_view(), name="api-campaign-army"),
    path("<slug:slug>/sides/<str:side>/majors/", MajorsView.as_view(), name="api-campaign-majors"),
    path("<slug:slug>/sides/<str:side>/surrender/", SurrenderView.as_view(),
         name="api-campaign-surrender"),
    path("<slug:slug>/planet/", PlanetView.as_view(), name="api-campaign-planet"),
    path("<slug:slug>/placements/", PlacementsView.as_view(), name="api-campaign-placements"),
    path("<slug:slug>/start/", StartView.as_view(), name="api-campaign-start"),
    path("<slug:slug>/map/", MapView.as_view(), name="api-campaign-map"),
    path("<slug:slug>/turns/<int:number>/initiative/", InitiativeView.as_view(),
         name="api-campaign-initiative"),
    path("<slug:slug>/turns/<int:number>/orders/", OrdersView.as_view(), name="api-campaign-orders"),
    path("<slug:slug>/turns/<int:number>/infiltrations/", InfiltrationsView.as_view(),
         name="api-campaign-infiltrations"),
    path("<slug:slug>/turns/<int:number>/battles/", BattlesView.as_view(),
         name="api-campaign-battles"),
    path("<slug:slug>/turns/<int:number>/close/", CloseView.as_view(), name="api-campaign-close"),
    path("<slug:slug>/battles/<int:pk>/choices/", ChoicesView.as_view(),
         name="api-campaign-choices"),
    path("<slug:slug>/score/", ScoreView.as_view(), name="api-campaign-score"),
]
