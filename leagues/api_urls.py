"""/api/v1/ routes of leagues over weeks (included by config/api_urls.py)."""
from django.urls import path

from leagues import api

urlpatterns = [
    path("tournaments/<slug:slug>/weeks/", api.WeeksView.as_view(), name="api-league-weeks"),
    path("tournaments/<slug:slug>/weeks/<int:number>/games/", api.WeekGamesView.as_view(),
         name="api-league-games"),
    path("tournaments/<slug:slug>/weeks/<int:number>/bye/", api.WeekByeView.as_view(),
         name="api-league-bye"),
    path("tournaments/<slug:slug>/league-standings/", api.LeagueStandingsView.as_view(),
         name="api-league-standings"),
]
