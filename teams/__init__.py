"""Team events (issue #26, api-v1-seasons-teams.md §3): the ``team`` event format.

Teams of 3–8 registered players, team Swiss rounds of team matches, the WTC draft that makes a
match's games, game points from victory-point differences, match results, team standings.

Data flows: the API (``api.py``) -> services (``services/``: rows, locks, hidden information,
audit) -> the pure engine (``engine/``) and ``events`` (tournaments, players, rounds, games). The
games a draft makes are ordinary ``events`` games, reported and confirmed as any other. Core
code never imports this package: the format is registered from ``TeamsConfig.ready()`` with
the hooks ``events.formats`` offers (settings, ``create``, ``read``, ``pair_round``), and the
letter of a paired team round (``notice_letters.py``) with ``notices.letters``.
"""
