"""The league's pages (included by config/urls.py)."""
from django.urls import path

from leagues import pages

urlpatterns = [
    path("tournaments/<slug:slug>/league/", pages.league, name="league"),
    path("tournaments/<slug:slug>/league/weeks/<int:number>/list/", pages.week_list,
         name="league_week_list"),
]
