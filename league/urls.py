"""The site's pages."""
from django.contrib.auth.views import LogoutView
from django.urls import path

from league import views
from league.accounts import RateLimitedLoginView

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", RateLimitedLoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("tournaments/<slug:slug>/", views.tournament, name="tournament"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/", views.player_list, name="player_list"),
    path("games/<int:pk>/", views.game, name="game"),
]
