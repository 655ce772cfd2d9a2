"""A mission pack's cover for a round in blocks (team matches, #26): the pairings list prints
each block's title and score over its games, in block order, byes last, as the projector and
the results grid group them (``RoundBlocks.group``). Every other pack's cover is unchanged
(tests/printing/test_mission_packs.py, test_pack_texts.py)."""
from __future__ import annotations

import io
from typing import Any

import pytest
from django.utils import translation

from events import table_blocks
from events.models import Game, Round, Tournament
from missions.models import Mission
from printing import tasks
from printing.data import PackContent, PackHeader, PairingLine
from printing.models import MissionPack
from printing.render import render_job, render_pack, whole_document
from printing.services import mission_pack
from tests.printing.test_mission_packs import page_pixels
from tests.printing.test_pack_texts import page_words
from tests.printing.test_wall_sheets import layout_pages
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def team_round(staff_user: Any, prefix: str, language: str = "en") -> Round:
    """Five teams of three, no draft: matches 1 and 2 on tables 1–3 and 4–6, the fifth team's
    bye as match 3; table 4 confirmed 16–3 for its first player."""
    event = build(staff_user, teams=5, size=3, prefix=prefix, draft="none")
    Tournament.objects.filter(slug=event.slug).update(language=language)
    body = expect(pair(event.staff, event.slug), 201)
    round_ = Round.objects.select_related("tournament").get(tournament__slug=event.slug,
                                                            number=body["number"])
    round_.games.update(mission=Mission.objects.order_by("pk").first())
    game = round_.games.get(table=4)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.CONFIRMED, winner_id=game.player_a_id,
        victory_points={str(game.player_a_id): 16, str(game.player_b_id): 3})
    return round_


def built_pack(round_: Round, media) -> bytes:
    """The pack as the task builds and stores it."""
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == "done"
    pack.refresh_from_db()
    assert pack.error == ""
    return (media / pack.file.name).read_bytes()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_cover_lists_each_match_over_its_games_and_the_bye_last(staff_user, media, language):
    round_ = team_round(staff_user, f"cv{language}", language)
    with translation.override(language):
        one, two, bye = table_blocks.of_round(round_).blocks
    if language == "en":  # the words themselves, once
        assert one.score == "game points 0–0 so far (0 of 3 games)"
        assert two.score == "game points 12–8 so far (1 of 3 games)"
        assert bye.score == "bye: 2 match points, 30 game points"
    else:
        assert one.title.startswith("Match 1\u00a0: ") and " contre " in one.title
    games = {g.table: g for g in round_.games.select_related("player_a", "player_b")}
    cover, pairings = layout_pages(built_pack(round_, media))[:2]
    # Block titles are not players: 6 tables, 12 players.
    assert cover[-2:] == (["Tables 6", "Players 12"] if language == "en" else
                          ["Tables 6", "Joueurs 12"])

    def line(block: table_blocks.TableBlock) -> str:
        return " ".join(f"{block.title} {block.score}".split())  # as pdftotext squeezes it

    def row(table: int) -> str:
        return f"{table} {games[table].player_a.name} {games[table].player_b.name}"

    start = pairings.index(line(one))
    assert pairings[start:] == [line(one), row(1), row(2), row(3),
                                line(two), row(4), row(5), row(6), line(bye)]


def test_stamped_titles_look_like_the_list_laid_out_whole(staff_user):
    round_ = team_round(staff_user, "px")
    content = mission_pack.pack_content(round_)
    assert [p.kind for p in content.pairings] == ["heading", "pair", "pair", "pair",
                                                  "heading", "pair", "pair", "pair", "heading"]
    stamped = io.BytesIO()
    render_pack(content, stamped)
    whole = render_job(whole_document(content))
    a, b = page_pixels(stamped.getvalue(), 2, 40), page_pixels(whole, 2, 40)
    assert len(a) == len(b)
    assert sum(abs(x - y) > 64 for x, y in zip(a, b, strict=True)) < 0.0005 * len(a)


def blocks_list(blocks: int, size: int) -> PackContent:
    """A pack of pairings only: ``blocks`` titles, each over ``size`` tables."""
    pairings: list[PairingLine] = []
    for k in range(blocks):
        pairings.append(PairingLine(None, "", "", heading=f"Match {k + 1}: Blue{k} vs Red{k}",
                                    detail="draft under way"))
        pairings += [PairingLine(k * size + i, f"Player{k * size + i:03d}", "Club",
                                 f"Opponent{k * size + i:03d}", "Guild")
                     for i in range(1, size + 1)]
    with translation.override("en"):
        header = PackHeader("en", "Team Open", 1, "Gamma", "1 May 2027", ("Mission 0",))
    return PackContent(header, tuple(pairings), {}, ())


def test_a_title_is_never_left_alone_at_the_foot_of_a_page():
    # 3 rows a block: some title falls on a page's last row whatever the row heights.
    content = blocks_list(60, 3)
    out = io.BytesIO()
    pages = render_pack(content, out)
    naive = render_job(whole_document(content))
    ours, theirs = page_words(out.getvalue()), page_words(naive)
    assert pages == len(ours) == len(theirs) >= 4

    def firsts(page) -> list[str]:
        """The first column's words, top to bottom: table numbers and the titles' "Match"."""
        return [w[0] for w in sorted(page, key=lambda w: w[2]) if w[1] < 60]

    for mine, naive_page in zip(ours[1:], theirs[1:], strict=True):
        assert firsts(mine) == firsts(naive_page)  # WeasyPrint breaks the list there too
        assert firsts(mine)[-1] != "Match"
