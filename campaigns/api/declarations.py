"""API: how a campaign phase's orders are declared (G11; campaigns/services/declarations.py).

``POST campaigns/{slug}/turns/{n}/first/`` ``{"side"}``: the initiative winner (or staff) says
which side declares first; ``POST …/ready/`` ``{"side"?}``: a side has sent all its orders of the
open phase; ``POST …/reveal/`` (staff): the sealed attacks come out now; each answers the open
phase's declaring ``{"mode", "turn", "phase", "first", "ready", "revealed", "next"}``. The
turn's orders as the reader may see them are ``GET …/orders/`` (campaigns/api/state.py).

Mounted under /api/v1/ by ``path("", include("campaigns.api.declarations"))``."""
from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api.state import ANSWER, campaign_for, signed_in
from campaigns.engine.map import SIDES
from campaigns.services import declarations as campaign_declarations
from config.api_errors import validated


class FirstSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)


class ReadySerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES, required=False)  # staff, for a side


class FirstView(APIView):
    """POST (the open phase's initiative winner, staff): who declares first (R15)."""

    @extend_schema(request=FirstSerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        side = validated(FirstSerializer, request)["side"]
        return Response(campaign_declarations.choose_first(actor, campaign_for(slug), number, side))


class ReadyView(APIView):
    """POST (a side's player; staff with ``"side"``): that side's orders of the phase are sent."""

    @extend_schema(request=ReadySerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        side = validated(ReadySerializer, request).get("side")
        return Response(campaign_declarations.mark_ready(actor, campaign_for(slug), number, side))


class DeadlineSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField(allow_null=True)


class DeadlineView(APIView):
    """PUT (staff): when the open phase's orders are due (null: no deadline)."""

    @extend_schema(request=DeadlineSerializer, responses=ANSWER)
    def put(self, request, slug: str, number: int):
        actor = signed_in(request)
        deadline = validated(DeadlineSerializer, request)["deadline"]
        return Response(campaign_declarations.set_deadline(actor, campaign_for(slug), number,
                                                           deadline))


class RevealView(APIView):
    """POST (staff): reveal the sealed attacks now, so the reactions can be declared."""

    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        return Response(campaign_declarations.reveal_attacks(actor, campaign_for(slug), number))


urlpatterns = [
    path("campaigns/<slug:slug>/turns/<int:number>/first/", FirstView.as_view(),
         name="api-campaign-first"),
    path("campaigns/<slug:slug>/turns/<int:number>/ready/", ReadyView.as_view(),
         name="api-campaign-ready"),
    path("campaigns/<slug:slug>/turns/<int:number>/reveal/", RevealView.as_view(),
         name="api-campaign-reveal"),
    path("campaigns/<slug:slug>/turns/<int:number>/deadline/", DeadlineView.as_view(),
         name="api-campaign-deadline"),
]
