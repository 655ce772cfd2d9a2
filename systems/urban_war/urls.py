"""/api/v1/urban-war/: the Urban War tools, included by config/api_urls.py through the
registry."""
from django.urls import path

from systems.urban_war import api

urlpatterns = [
    path("urban-war/command-test/", api.CommandTestView.as_view(),
         name="api-urban-war-command-test"),
]
