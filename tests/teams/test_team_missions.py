"""Issue #26: a team round's games get what a paired round's games get (the mission, per round or
per table, and the pre-game rolls from the event's seeded stream), in both draft modes; the
mission pack prints them; the same seed gives the same missions."""
from __future__ import annotations

import pytest
from django.utils import translation

from events.models import Game, Round
from printing.services.mission_pack import PURPOSES
from teams.services.team_games import TABLE_MISSIONS
from tests.printing.test_mission_packs import pdf_pages_text
from tests.printing.test_system_packs import built_pdf
from tests.teams.team_event import build, draft, seen
from tests.teams.test_team_draft_sizes import choice
from tests.tournament_fixtures import client_for, expect, pair, post

pytestmark = pytest.mark.django_db

SEED = 4242
PREGAME = {"stratagem_declaration"}  # rolled before every Cities of Death game (the rest: by mission)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def paired(staff_user, prefix: str, mode: str, missions: str, seed: int = SEED) -> tuple[Round, list[int]]:
    """A Cities of Death team event of two teams of three, its first round paired (a WTC draft
    played to the end with the same moves every time)."""
    event = build(staff_user, teams=2, size=3, prefix=prefix, draft=mode,
                  tournament={"seed": seed, "missions": missions})
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]
    round_ = Round.objects.get(tournament__slug=event.slug, number=1)
    if mode == "wtc":
        assert not round_.games.exists()  # the draft seats them
        expect(post(event.staff, f"/team-matches/{match['id']}/draft/roll/", {"dice": [5, 2]}), 201)
        state = seen(event.staff, match["id"])
        while state["phase"] != "done":
            state = expect(draft(event.staff, match["id"], **choice(state, state["waiting_for"][0])), 201)
    return round_, match["tables"]


def games_of(round_: Round) -> list[Game]:
    return list(round_.games.select_related("mission").order_by("table"))


def purposes(game: Game) -> set[str]:
    return {roll["purpose"] for roll in game.rolls}


@pytest.mark.parametrize(("mode", "missions"), [("none", "per_round"), ("none", "per_table"),
                                                ("wtc", "per_round"), ("wtc", "per_table")])
def test_each_team_game_has_its_mission_and_pregame_rolls(staff_user, mode, missions):
    round_, tables = paired(staff_user, f"m-{mode}-{missions}", mode, missions)
    round_.refresh_from_db()
    games = games_of(round_)
    assert [g.table for g in games] == tables == [1, 2, 3]
    for game in games:
        assert game.mission is not None
        assert purposes(game) >= PREGAME
        assert game.pregame["declares_first"] in {str(p) for p in game.player_ids}
        assert set(game.roles) <= {str(p) for p in game.player_ids}
    if missions == "per_round":
        assert round_.mission is not None and round_.rolls
        assert {g.mission_id for g in games} == {round_.mission_id}
        assert not any(purposes(g) & {"mission", "mission_special"} for g in games)
    else:
        assert round_.mission is None
        assert all(purposes(g) & {"mission", "mission_special"} for g in games)
    if mode == "wtc" and missions == "per_table":  # rolled at pairing, before any draft move
        planned = round_.pairing[TABLE_MISSIONS]
        assert {t: p["mission"] for t, p in planned.items()} == {str(g.table): g.mission.slug for g in games}
        assert all(g.rolls[:len(planned[str(g.table)]["rolls"])] == planned[str(g.table)]["rolls"]
                   for g in games)


@pytest.mark.parametrize("mode", ["none", "wtc"])
def test_the_mission_pack_of_a_team_round_builds(staff_user, media, mode):
    round_, _tables = paired(staff_user, f"pack-{mode}", mode, "per_table")
    pages = pdf_pages_text(built_pdf(round_, media))
    games = games_of(round_)
    assert len(pages) == 2 + len(games)  # cover, pairings, one sheet a table
    with translation.override(round_.tournament.language):  # the pack's language
        for game, sheet in zip(games, pages[2:], strict=True):
            assert game.mission.name in sheet
            assert game.mission.name in pages[1]  # the pairings name each table's mission
        assert str(PURPOSES["stratagem_declaration"]) in " ".join(" ".join(pages[2:]).split())  # pre-game


@pytest.mark.parametrize("mode", ["none", "wtc"])
def test_the_same_seed_gives_the_same_missions_and_rolls(staff_user, mode):
    def dealt(prefix: str, seed: int) -> list[tuple]:
        round_, _tables = paired(staff_user, prefix, mode, "per_table", seed)
        return [(g.table, g.mission.slug, [(r["purpose"], r["dice"]) for r in g.rolls]) for g in games_of(round_)]

    first = dealt(f"same-a-{mode}", SEED)
    assert dealt(f"same-b-{mode}", SEED) == first
    others = [dealt(f"other-{mode}-{seed}", seed) for seed in (SEED + 1, SEED + 2)]
    assert any(other != first for other in others)  # the seed, not a constant, decides


def test_a_table_keeps_its_mission_when_an_undo_reseats_the_draft(staff_user):
    """The mission belongs to the table (rolled at pairing): undoing the table choices and
    choosing the other way round moves the players, never the missions."""
    round_, _tables = paired(staff_user, "reseat", "wtc", "per_table")
    planned = {int(t): p["mission"] for t, p in round_.pairing[TABLE_MISSIONS].items()}
    before = {g.table: g.player_ids for g in games_of(round_)}
    match, staff = round_.team_matches.get(), client_for(staff_user)
    state = expect(post(staff, f"/team-matches/{match.pk}/draft/undo/"), 200)
    assert state["phase"] == "table" and not round_.games.exists()
    while state["phase"] != "done":
        state = expect(draft(staff, match.pk,
                             **{**choice(state, state["waiting_for"][0]), "table": state["free_tables"][0]}), 201)
    after = games_of(round_)
    assert {g.table: g.player_ids for g in after} != before  # reseated
    assert {g.table: g.mission.slug for g in after} == planned
