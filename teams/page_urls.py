"""The team events' pages (included from config/urls.py)."""
from django.urls import path

from teams import pages

urlpatterns = [
    path("team-matches/<int:pk>/draft/", pages.draft_page, name="team_draft"),
    path("tournaments/<slug:slug>/team-event/", pages.event_page, name="team_event"),
    path("tournaments/<slug:slug>/team-event/monitor/", pages.monitor_page, name="team_monitor"),
]
