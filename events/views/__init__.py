"""The player site: server-rendered pages; every change goes through the league services."""
from events.views.games import game
from events.views.lists import player_list
from events.views.pages import home, signup, tournament

__all__ = ["game", "home", "player_list", "signup", "tournament"]
