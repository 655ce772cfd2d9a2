"""Pairing a team round is issue #26's speed goal (64 teams of 8, benchmarks/teams.py): with
``"draft": "none"`` it makes every game at once. Its queries are counted here, so a query per
team, per match or per game (a roster, a match row, a previous result) cannot creep back."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Game
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair

pytestmark = pytest.mark.django_db


def paired(event) -> tuple[dict, int]:
    """The answer of pairing the next round, and how many queries it took (savepoints aside)."""
    with CaptureQueriesContext(connection) as captured:
        body = expect(pair(event.staff, event.slug), 201)
    return body, sum(1 for q in captured.captured_queries if "SAVEPOINT" not in q["sql"])


def settle(slug: str) -> None:
    """Every game confirmed, the first player ahead on odd tables, level on even ones (the
    team results the next round reads vary: wins, losses and draws)."""
    games = list(Game.objects.filter(round__tournament__slug=slug, player_b__isnull=False))
    for game in games:
        a = 12 if game.table % 2 else 8
        game.victory_points = {str(game.player_a_id): a, str(game.player_b_id): 8}
        game.winner_id = game.player_a_id if a > 8 else None
        game.status = Game.Status.CONFIRMED
    Game.objects.bulk_update(games, ["victory_points", "winner", "status"])


def test_pairing_a_round_without_draft_costs_the_same_queries_for_twice_the_teams(staff_user):
    counts = {}
    for teams in (4, 8):
        event = build(staff_user, teams=teams, size=3, prefix=f"rq{teams}", draft="none")
        first, first_queries = paired(event)
        assert len(first["team_matches"]) == teams // 2
        assert Game.objects.filter(round__tournament__slug=event.slug).count() == teams // 2 * 3
        settle(event.slug)
        second, second_queries = paired(event)
        assert second["number"] == 2 and len(second["team_matches"]) == teams // 2
        assert Game.objects.filter(round__tournament__slug=event.slug, round__number=2).count() == teams // 2 * 3
        counts[teams] = (first_queries, second_queries)
    assert counts[4] == counts[8], counts
