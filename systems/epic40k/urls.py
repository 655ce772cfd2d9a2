"""/api/v1/epic40k/: the stateless campaign tools, included by config/api_urls.py through the
registry."""
from django.urls import path

from systems.epic40k import api

urlpatterns = [
    path("epic40k/initiative/", api.InitiativeView.as_view(), name="api-epic40k-initiative"),
    path("epic40k/planet/", api.PlanetView.as_view(), name="api-epic40k-planet"),
    path("epic40k/army/validate/", api.ArmyValidateView.as_view(),
         name="api-epic40k-army-validate"),
    path("epic40k/isolation/", api.IsolationView.as_view(), name="api-epic40k-isolation"),
    path("epic40k/score/", api.ScoreView.as_view(), name="api-epic40k-score"),
    path("epic40k/other-sectors/", api.OtherSectorsView.as_view(),
         name="api-epic40k-other-sectors"),
    path("epic40k/fortifications/", api.FortificationsView.as_view(),
         name="api-epic40k-fortifications"),
]
