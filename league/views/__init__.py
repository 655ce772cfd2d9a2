"""The player site: server-rendered pages; every change goes through the league services."""
from league.views.games import game
from league.views.lists import player_list
from league.views.pages import home, signup, tournament

__all__ = ["game", "home", "player_list", "signup", "tournament"]
