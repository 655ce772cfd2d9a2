"""/api/v1/ routes of team events (included from config/api_urls.py): ``match_urls`` under
``team-matches/<pk>/``, first of the API's (every captain's phone polls them), the rest with the
tournaments' routes."""
from django.urls import path

from teams import api, doubles_api

urlpatterns = [
    path("tournaments/<slug:slug>/teams/", api.TeamsView.as_view(), name="api-teams"),
    path("tournaments/<slug:slug>/team-standings/", api.TeamStandingsView.as_view(), name="api-team-standings"),
    path("tournaments/<slug:slug>/team-standings.csv", api.TeamStandingsCsvView.as_view(),
         name="api-team-standings-csv"),
    path("tournaments/<slug:slug>/team-games.csv", api.TeamGamesCsvView.as_view(), name="api-team-games-csv"),
    path("tournaments/<slug:slug>/draft-monitor/", api.DraftMonitorView.as_view(), name="api-team-draft-monitor"),
    path("tournaments/<slug:slug>/pairs/<int:pk>/", doubles_api.PairView.as_view(), name="api-doubles-pair"),
    path("tournaments/<slug:slug>/pairs/<int:pk>/partner-list/", doubles_api.PartnerListView.as_view(),
         name="api-doubles-partner-list"),
]

match_urls = [
    path("", api.TeamMatchView.as_view(), name="api-team-match"),
    path("export/", api.TeamMatchExportView.as_view(), name="api-team-match-export"),
    path("draft/", api.DraftView.as_view(), name="api-team-draft"),
    path("draft/roll/", api.DraftRollView.as_view(), name="api-team-draft-roll"),
    path("draft/undo/", api.DraftUndoView.as_view(), name="api-team-draft-undo"),
]
