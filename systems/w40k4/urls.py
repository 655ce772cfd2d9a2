"""/api/v1/dynamics/: the W40K Dynamics tools, included by config/api_urls.py through the
registry."""
from django.urls import path

from systems.w40k4 import dynamics_api

urlpatterns = [
    path("dynamics/tokens/", dynamics_api.TokensView.as_view(), name="api-dynamics-tokens"),
    path("dynamics/passes/", dynamics_api.PassesView.as_view(), name="api-dynamics-passes"),
    path("dynamics/advantage/", dynamics_api.AdvantageView.as_view(),
         name="api-dynamics-advantage"),
    path("dynamics/morale/", dynamics_api.MoraleView.as_view(), name="api-dynamics-morale"),
]
