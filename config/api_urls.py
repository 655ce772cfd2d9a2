"""/api/v1/: the public REST API (see ../shared/api-v1.md for the fixed part)."""
from django.urls import include, path

from armylists import api as armylists_api
from league import accounts, whfb_api
from league import api as league_api
from missions import api as missions_api
from missions import dynamics_api

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
    path("dynamics/tokens/", dynamics_api.TokensView.as_view(), name="api-dynamics-tokens"),
    path("dynamics/passes/", dynamics_api.PassesView.as_view(), name="api-dynamics-passes"),
    path("dynamics/advantage/", dynamics_api.AdvantageView.as_view(), name="api-dynamics-advantage"),
    path("dynamics/morale/", dynamics_api.MoraleView.as_view(), name="api-dynamics-morale"),
    path("whfb/victory-points/", whfb_api.WhfbVictoryPointsView.as_view(), name="api-whfb-victory-points"),
    path("tournaments/", league_api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", league_api.TournamentView.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/status/", league_api.TournamentStatusView.as_view(), name="api-tournament-status"),
    path("tournaments/<slug:slug>/publish-lists/", league_api.PublishListsView.as_view(), name="api-publish-lists"),
    path("tournaments/<slug:slug>/players/", league_api.PlayersView.as_view(), name="api-players"),
    path("tournaments/<slug:slug>/players/<int:pk>/", league_api.PlayerView.as_view(), name="api-player"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/", league_api.PlayerListView.as_view(), name="api-player-list"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/unlock/", league_api.UnlockListView.as_view(),
         name="api-unlock-list"),
    path("tournaments/<slug:slug>/rounds/", league_api.RoundsView.as_view(), name="api-rounds"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", league_api.RoundView.as_view(), name="api-round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish/", league_api.PublishRoundView.as_view(),
         name="api-round-publish"),
    path("tournaments/<slug:slug>/rounds/<int:number>/repair/", league_api.RepairRoundView.as_view(),
         name="api-round-repair"),
    path("tournaments/<slug:slug>/standings/", league_api.StandingsView.as_view(), name="api-standings"),
    path("games/<int:pk>/", league_api.GameView.as_view(), name="api-game"),
    path("games/<int:pk>/report/", league_api.ReportView.as_view(), name="api-game-report"),
    path("games/<int:pk>/confirm/", league_api.ConfirmView.as_view(), name="api-game-confirm"),
    path("games/<int:pk>/dispute/", league_api.DisputeView.as_view(), name="api-game-dispute"),
    path("", include("league.pack_api")),
]
