"""Leagues over weeks (api-v1-seasons-teams §2): a tournament of format ``league``.

A league's weeks are the tournament's rounds: week n is round n, and its games are ordinary
``events`` games (reported, confirmed and disputed as in any event). In ``open_play`` the players
report the games they played that week (the round is made when its first game is reported); in
``weekly_swiss`` each week is a round paired by ``POST .../rounds/``. What the league adds lives
here: its settings and weeks, declared byes, week lists (escalation), the league table.

Flow: api.py → services/ → models and the pure ``engine/``. The format is registered with
``events.formats`` from ``LeaguesConfig.ready()``; events never imports this app."""
