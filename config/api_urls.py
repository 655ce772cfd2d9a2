"""/api/v1/: the public REST API (see ../shared/api-v1.md for the fixed part)."""
from django.urls import path

from armylists import api as armylists_api
from league import accounts
from missions import api as missions_api

urlpatterns = [
    path("accounts/", accounts.SignupView.as_view(), name="api-signup"),
    path("auth/token/", accounts.TokenView.as_view(), name="api-token"),
    path("charts/", armylists_api.ChartListView.as_view(), name="api-charts"),
    path("lists/validate/", armylists_api.ValidateListView.as_view(), name="api-validate-list"),
    path("lists/", armylists_api.MyListsView.as_view(), name="api-my-lists"),
    path("lists/<int:pk>/", armylists_api.MyListView.as_view(), name="api-my-list"),
    path("levels/", missions_api.LevelListView.as_view(), name="api-levels"),
    path("missions/", missions_api.MissionListView.as_view(), name="api-missions"),
    path("missions/roll/", missions_api.MissionRollView.as_view(), name="api-mission-roll"),
    path("missions/pregame/", missions_api.PregameView.as_view(), name="api-pregame"),
    path("missions/<slug:slug>/", missions_api.MissionDetailView.as_view(), name="api-mission"),
    path("missions/<slug:slug>/decide/", missions_api.DecideView.as_view(), name="api-mission-decide"),
    path("stratagems/", missions_api.StratagemListView.as_view(), name="api-stratagems"),
    path("stratagems/check/", missions_api.StratagemCheckView.as_view(), name="api-stratagem-check"),
    path("dice/roll/", missions_api.DiceRollView.as_view(), name="api-dice-roll"),
    path("dice/game-length/", missions_api.GameLengthView.as_view(), name="api-game-length"),
    path("victory-points/", missions_api.VictoryPointsView.as_view(), name="api-victory-points"),
]
