"""/api/v1/: the public REST API (see ../shared/api-v1.md for the fixed part). Each game system
contributes the URLs of its stateless tools through the registry (``GameSystem.api_urls``)."""
from django.urls import include, path

from accounts import services as accounts
from armylists import api as armylists_api
from armylists import systems_api
from config.api_root import ApiRootView
from events import rolls_api
from events.api import games as game_api
from events.api import players as player_api
from events.api import rounds as round_api
from events.api import standings as standings_api
from events.api import tournaments as tournament_api
from missions import api as missions_api
from systems.registry import game_systems
from teams import urls as team_urls
from venue import clock_api

GAME_URLS = [
    path("", game_api.GameView.as_view(), name="api-game"),
    path("report/", game_api.ReportView.as_view(), name="api-game-report"),
    path("confirm/", game_api.ConfirmView.as_view(), name="api-game-confirm"),
    path("dispute/", game_api.DisputeView.as_view(), name="api-game-dispute"),
    path("rolls/", rolls_api.GameRollsView.as_view(), name="api-game-rolls"),
]

urlpatterns = [
    # First the calls a venue's phones repeat all day (a game's report and confirmation, a team
    # draft's reads and moves), each group under its own prefix: Django tries the patterns in
    # order, and a prefix that does not match rejects its whole group at once.
    path("games/<int:pk>/", include(GAME_URLS)),
    path("team-matches/<int:pk>/", include(team_urls.match_urls)),
    path("", ApiRootView.as_view(), name="api-root"),
    path("accounts/", accounts.SignupView.as_view(), name="api-signup"),
    path("auth/token/", accounts.TokenView.as_view(), name="api-token"),
    path("charts/", armylists_api.ChartListView.as_view(), name="api-charts"),
    path("game-systems/", systems_api.GameSystemListView.as_view(), name="api-game-systems"),
    path("factions/", systems_api.FactionListView.as_view(), name="api-factions"),
    path("profiles/", systems_api.ProfileListView.as_view(), name="api-profiles"),
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
    # Each game system's stateless tools (/dynamics/, /whfb/, /urban-war/, /epic40k/...).
    *(path("", include(system.api_urls)) for system in game_systems() if system.api_urls),
    path("tournaments/", tournament_api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", tournament_api.TournamentView.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/status/", tournament_api.TournamentStatusView.as_view(), name="api-tournament-status"),
    path("tournaments/<slug:slug>/publish-lists/", tournament_api.PublishListsView.as_view(), name="api-publish-lists"),
    path("tournaments/<slug:slug>/players/", player_api.PlayersView.as_view(), name="api-players"),
    path("tournaments/<slug:slug>/players/<int:pk>/", player_api.PlayerView.as_view(), name="api-player"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/", player_api.PlayerListView.as_view(), name="api-player-list"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/unlock/", player_api.UnlockListView.as_view(),
         name="api-unlock-list"),
    path("tournaments/<slug:slug>/rounds/", round_api.RoundsView.as_view(), name="api-rounds"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", round_api.RoundView.as_view(), name="api-round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish/", round_api.PublishRoundView.as_view(),
         name="api-round-publish"),
    path("tournaments/<slug:slug>/rounds/<int:number>/repair/", round_api.RepairRoundView.as_view(),
         name="api-round-repair"),
    path("tournaments/<slug:slug>/rounds/<int:number>/clock/", clock_api.RoundClockView.as_view(),
         name="api-round-clock"),
    path("tournaments/<slug:slug>/standings/", standings_api.StandingsView.as_view(), name="api-standings"),
    path("", include(team_urls)),  # teams, their standings and draft monitor
    path("", include("leagues.api_urls")),  # weeks, league games, byes, league standings
    path("campaigns/", include("campaigns.api.state")),
    path("campaigns/", include("campaigns.api.air")),
    path("", include("campaigns.api.pack")),
    path("", include("campaigns.api.declarations")),
    path("", include("printing.api")),
    path("", include("venue.checkin_api")),
    path("", include("venue.awards_api")),
    path("", include("circuits.api")),  # circuits: rankings across events
]
