"""/api/v1/whfb/: the Warhammer Battle tools, included by config/api_urls.py through the
registry."""
from django.urls import path

from systems.whfb import api

urlpatterns = [
    path("whfb/victory-points/", api.WhfbVictoryPointsView.as_view(),
         name="api-whfb-victory-points"),
]
