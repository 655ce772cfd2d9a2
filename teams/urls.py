"""/api/v1/ routes of team events (included from config/api_urls.py)."""
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
    path("team-matches/<int:pk>/", api.TeamMatchView.as_view(), name="api-team-match"),
    path("team-matches/<int:pk>/export/", api.TeamMatchExportView.as_view(), name="api-team-match-export"),
    path("team-matches/<int:pk>/draft/", api.DraftView.as_view(), name="api-team-draft"),
    path("team-matches/<int:pk>/draft/roll/", api.DraftRollView.as_view(), name="api-team-draft-roll"),
    path("team-matches/<int:pk>/draft/undo/", api.DraftUndoView.as_view(), name="api-team-draft-undo"),
]
