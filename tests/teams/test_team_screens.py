"""Team matches on the venue's screens and sheets (#26): the projector and the admin results grid
show a block per match (its teams, its score so far, its tables) and the team standings; the
wall sheets (pairings, find your table, standings) and the mission pack's table sheets name each
table's match. All through ``EventFormat.round_blocks``: events, venue and printing name no
format."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events import table_blocks
from events.models import Game, Round, Tournament
from missions.models import Mission
from printing.models import MissionPack
from teams.models import Team, TeamMatch
from tests.printing.test_wall_sheets import built, layout_pages
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair

pytestmark = pytest.mark.django_db
Kind = MissionPack.Kind
NAMES = ("Les Dragons", "Team Lyon", "Les Hiboux")


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def team_round(staff_user: Any, prefix: str, *, language: str = "en") -> tuple[Round, TeamMatch]:
    """Three teams of three, no draft: match 1 on tables 1–3, a bye for the third team; table 1
    confirmed 16–3 for the first team (11 VP more: 12–8 game points)."""
    event = build(staff_user, teams=3, size=3, prefix=prefix, draft="none")
    for team, name in zip(event.teams, NAMES, strict=True):
        Team.objects.filter(pk=team["id"]).update(name=name)
    Tournament.objects.filter(slug=event.slug).update(language=language)
    body = expect(pair(event.staff, event.slug), 201)
    round_ = Round.objects.select_related("tournament").get(tournament__slug=event.slug,
                                                            number=body["number"])
    match = TeamMatch.objects.select_related("first", "second").get(round=round_, number=1)
    match.bye = TeamMatch.objects.get(round=round_, number=2).first.name
    game = round_.games.get(table=1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.CONFIRMED, winner_id=game.player_a_id,
        victory_points={str(game.player_a_id): 16, str(game.player_b_id): 3})
    return round_, match


def title(match: TeamMatch) -> str:
    return f"Match 1: {match.first.name} vs {match.second.name}"


def test_the_projector_shows_each_match_with_its_score_and_the_team_standings(staff_user, client):
    round_, match = team_round(staff_user, "pj")
    html = client.get(reverse("projector", args=[round_.tournament.slug])).content.decode()
    block = re.search(r'<li class="row block" data-block="1">(.*?)</li>', html).group(1)
    assert title(match) in block
    assert "game points 12–8 so far (1 of 3 games)" in block
    bye = re.search(r'<li class="row block" data-block="2">(.*?)</li>', html).group(1)
    assert f"Match 2: {match.bye} (bye)" in bye and "bye: 2 match points, 30 game points" in bye
    # The match's tables come right under it, before the bye's block.
    tables = html.index('data-block="1"'), html.index('<span class="num">1</span>'), \
        html.index('<span class="num">3</span>'), html.index('data-block="2"')
    assert list(tables) == sorted(tables)
    standings = html[html.index('id="standings"'):]
    assert "Team standings" in standings
    # The bye's 2 match points put its team first; the match is not complete yet.
    assert (f'<span class="num">1</span><span class="name">{match.bye}</span>'
            '<span class="faction">· 30 game points</span><span class="pts">2') in standings


def test_the_projector_speaks_the_event_language(staff_user, client):
    round_, match = team_round(staff_user, "pf", language="fr")
    html = client.get(reverse("projector", args=[round_.tournament.slug])).content.decode()
    assert f"Match 1\u00a0: {match.first.name} contre {match.second.name}" in html
    assert "Classement des équipes" in html


def test_the_results_grid_groups_its_rows_by_match(staff_user, admin_client):
    round_, match = team_round(staff_user, "rg")
    html = admin_client.get(reverse("admin:league_round_results", args=[round_.pk])).content.decode()
    head = html.index('id="match-1"')
    assert title(match) in html[head:head + 400]
    rows = [html.index(f'<tr id="table-{n}"') for n in (1, 2, 3)]
    assert head < rows[0] < rows[1] < rows[2]
    # The bye has no table to report: no block row for it.
    assert 'id="match-2"' not in html


def test_an_ordinary_event_has_no_blocks(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="ob", draft="none")
    expect(pair(event.staff, event.slug), 201)
    round_ = Round.objects.select_related("tournament").get(tournament__slug=event.slug)
    assert table_blocks.of_round(round_) is not None
    Tournament.objects.filter(slug=event.slug).update(format="event")
    round_.tournament.refresh_from_db()
    assert table_blocks.of_round(round_) is None


def test_blocks_take_the_same_queries_whatever_the_number_of_matches(staff_user):
    counts = []
    for teams, prefix in ((2, "q2"), (5, "q5")):
        event = build(staff_user, teams=teams, size=3, prefix=prefix, draft="none")
        expect(pair(event.staff, event.slug), 201)
        round_ = Round.objects.select_related("tournament").get(tournament__slug=event.slug)
        with CaptureQueriesContext(connection) as queries:
            blocks = table_blocks.of_round(round_)
        assert len(blocks.blocks) == (teams + 1) // 2
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_wall_sheets_show_team_matches_and_team_standings(staff_user, media):
    round_, match = team_round(staff_user, "ws")
    _pack, pdf = built(round_, Kind.PAIRINGS, media)
    lines = layout_pages(pdf)[0]
    head = lines.index(f"{title(match)} · game points 12–8 so far (1 of 3 games)")
    assert all(lines[head + n].startswith(f"{n} ") for n in (1, 2, 3))
    assert f"Match 2: {match.bye} (bye) · bye: 2 match points, 30 game points" in lines

    _pack, pdf = built(round_, Kind.FIND_TABLE, media)
    text = "\n".join(layout_pages(pdf)[0])
    assert text.count(f"{match.first.name} vs {match.second.name}, match 1") == 6

    _pack, pdf = built(round_, Kind.STANDINGS, media)
    lines = layout_pages(pdf)[0]
    teams = lines.index("Team standings")
    assert lines[teams + 2] == f"1 {match.bye} 2 30 game points"
    assert lines.index("Players") > teams


def test_the_mission_pack_names_each_table_s_match(staff_user, media):
    round_, match = team_round(staff_user, "mp")
    mission = Mission.objects.order_by("pk").first()
    round_.games.update(mission=mission)
    pack = MissionPack.objects.create(round=round_)
    from printing import tasks

    assert tasks.build_mission_pack(pack.pk) == "done"
    pack.refresh_from_db()
    assert pack.error == ""
    pages = layout_pages((media / pack.file.name).read_bytes())
    label = f"{match.first.name} vs {match.second.name}, match 1"
    sheets = [page for page in pages if any(line.startswith("Table") for line in page[:3])
              and any(label in line for line in page)]
    assert len(sheets) == 3


def test_a_match_still_in_its_draft_says_so(staff_user):
    event = build(staff_user, teams=2, size=3, prefix="dr")
    expect(pair(event.staff, event.slug), 201)
    round_ = Round.objects.select_related("tournament").get(tournament__slug=event.slug)
    (block,) = table_blocks.of_round(round_).blocks
    assert (block.score, block.tables, sorted(block.sides)) == ("draft under way", (1, 2, 3),
                                                                ["Team 0", "Team 1"])
