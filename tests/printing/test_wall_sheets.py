"""Wall sheets: pairings by table, find your table, standings and results slips, printed through
the mission-pack machinery (``MissionPack.kind``), read back with pdftotext.

Eager tests (tasks in-process), as in test_mission_packs.py; w40k4 events with missions per
table, and Warhammer Battle events (rounds without a mission, tournament points from a
``vp_table``).
"""
from __future__ import annotations

import io
import re
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events.audit import SYSTEM, Actor
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game, Round
from events.services import rounds, tournaments
from printing import tasks
from printing.models import MissionPack
from printing.services import packs, wall_sheets
from printing.wall import Slip, render_wall, slips_per_page
from tests.printing.test_mission_packs import A4_POINTS, paired_round, pdf_pages_text, wait_for
from tests.printing.test_system_packs import whfb_round

Kind = MissionPack.Kind
Status = MissionPack.Status


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def built(round_: Round, kind: str, media_root) -> tuple[MissionPack, bytes]:
    """Wall sheet ``kind`` as the task builds and stores it."""
    pack = MissionPack.objects.create(round=round_, kind=kind)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.error == "" and pack.progress == 100
    return pack, (media_root / pack.file.name).read_bytes()


def layout_pages(pdf: bytes) -> list[list[str]]:
    """Each page as pdftotext -layout gives it: one printed row a line, spaces squeezed."""
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True)
    return [[" ".join(line.split()) for line in page.splitlines() if line.strip()]
            for page in done.stdout.decode().split("\f")[:-1]]


def standing_rows(lines: list[str]) -> dict[str, list[str]]:
    """Player (as printed, "(dropped)" included) -> rank, points, W/D/L, tiebreakers: the name
    is printed above its club, so pdftotext puts the numbers on the line after it."""
    return {line: lines[i + 1].split() for i, line in enumerate(lines[:-1])
            if re.match(r"^\d+ -?\d+ \d+/\d+/\d+( |$)", lines[i + 1])}


def a4(pdf: bytes) -> bool:
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
            for p in PdfReader(io.BytesIO(pdf)).pages} == {A4_POINTS}


def games_of(round_: Round) -> list[Game]:
    return list(round_.games.select_related("player_a", "player_b", "mission").order_by("table"))


def confirm_all(round_: Round, vp: tuple[int, int] = (12, 8)) -> None:
    """Every table won by its first player with ``vp`` (as a confirmed report leaves it)."""
    for game in round_.games.exclude(player_b=None):
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.CONFIRMED, winner_id=game.player_a_id,
            victory_points={str(game.player_a_id): vp[0], str(game.player_b_id): vp[1]})
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETED)


# --- each sheet, read back -----------------------------------------------------------------------

@pytest.mark.django_db
def test_pairings_sheet_lists_every_table_with_its_mission_and_the_bye(media):
    round_ = paired_round(9, missions="per_table", seed=3)
    pack, pdf = built(round_, Kind.PAIRINGS, media)
    assert a4(pdf) and pack.pages == 1 and pack.download_name.endswith("-round-1-pairings.pdf")
    lines = layout_pages(pdf)[0]
    assert "Round 1: pairings" in lines[0]
    for game in games_of(round_):
        if game.is_bye:
            row = next(line for line in lines if line.startswith(f"— {game.player_a.name}"))
            assert row.endswith("bye")
            continue
        row = next(line for line in lines if line.startswith(f"{game.table} {game.player_a.name}"))
        assert f"vs {game.player_b.name}" in row and game.mission.name in row


@pytest.mark.django_db
def test_find_your_table_is_alphabetical_whatever_the_accents(media):
    round_ = paired_round(7, seed=4)
    names = ["émile Zola", "Eve Adams", "Zoé Martin", "adrien Roy", "Éloïse Brun", "Bob", "Ünal"]
    for player, name in zip(round_.tournament.players.order_by("pk"), names, strict=True):
        player.name = name
        player.save(update_fields=["name"])
    _pack, pdf = built(round_, Kind.FIND_TABLE, media)
    lines = layout_pages(pdf)[0]
    order = ["adrien Roy", "Bob", "Éloïse Brun", "émile Zola", "Eve Adams", "Ünal", "Zoé Martin"]
    firsts = [next(i for i, line in enumerate(lines) if line.startswith(name)) for name in order]
    assert firsts == sorted(firsts)
    for game in games_of(round_):
        if game.is_bye:
            assert any(line.startswith(game.player_a.name) and line.endswith("— bye")
                       for line in lines)
            continue
        for me, them in ((game.player_a, game.player_b), (game.player_b, game.player_a)):
            assert any(line.startswith(me.name) and f" {game.table} {them.name}" in line
                       for line in lines), me.name
    assert {"A", "B", "E", "U", "Z"} <= set(lines)  # a heading per initial


@pytest.mark.django_db
def test_two_hundred_players_flow_over_numbered_pages_with_the_header_repeated(media):
    round_ = paired_round(201, seed=5)
    _pack, pdf = built(round_, Kind.FIND_TABLE, media)
    pages = layout_pages(pdf)
    assert len(pages) >= 5 and a4(pdf)
    for number, lines in enumerate(pages, start=1):
        assert "Player Table Opponent" in lines  # the header row on every page
        assert lines[-1].replace(" ", "") == f"{number}/{len(pages)}"
    text = "\n".join("\n".join(lines) for lines in pages)
    for player in round_.tournament.players.all():
        assert player.name in text


@pytest.mark.django_db
def test_standings_after_a_round_with_tiebreakers_in_the_event_order(media):
    round_ = paired_round(6, seed=6)
    confirm_all(round_)
    dropped = tournaments.update_player(
        SYSTEM, round_.tournament.players.order_by("pk").first(), dropped=True)
    _pack, pdf = built(round_, Kind.STANDINGS, media)
    lines = layout_pages(pdf)[0]
    assert "Standings after round 1" in lines[0]
    assert "Provisional" not in " ".join(lines)  # every game is confirmed
    header = next(line for line in lines if line.startswith("# Player"))
    assert "Pts W/D/L" in header
    rows = {name.removesuffix(" (dropped)"): row for name, row in standing_rows(lines).items()}
    assert len(rows) == 6 and f"{dropped.name} (dropped)" in lines
    for game in games_of(round_):  # the three winners take the first three places
        rank, points, record, *tiebreakers = rows[game.player_a.name]
        assert int(rank) <= 3 and (points, record) == ("3", "1/0/0") and len(tiebreakers) == 4


@pytest.mark.django_db
def test_standings_of_a_round_still_open_are_marked_provisional(media):
    round_ = paired_round(6, seed=7)
    _pack, pdf = built(round_, Kind.STANDINGS, media)
    assert "Provisional: 3 games of this round are still to be confirmed." in " ".join(
        layout_pages(pdf)[0])


@pytest.mark.django_db
def test_slips_one_per_player_table_by_table_with_earlier_results(media):
    first = paired_round(8, seed=8)
    confirm_all(first, vp=(15, 5))
    second = rounds.pair_next_round(SYSTEM, first.tournament)
    pack, pdf = built(second, Kind.SLIPS, media)
    text = "\n".join(pdf_pages_text(pdf))
    assert pack.pages == 3 and a4(pdf)  # 8 players, 3 slips a page (round 1 in the history)
    assert text.count("Round 2: results slip") == 8
    for game in games_of(second):
        for me in (game.player_a, game.player_b):
            assert me.name in text
        assert text.count(f"Table {game.table}\n") == 2
    flat = " ".join(text.split())
    assert flat.count("won 15–5") == 4 and flat.count("lost 5–15") == 4
    assert "Before this round:" in flat and "of 8, 3 Pts" in flat
    assert re.search(r"^1 ?/ ?3$", text, re.MULTILINE)


def test_slips_per_page_shrink_as_the_history_grows():
    assert [slips_per_page(n) for n in (0, 4, 5, 12, 13, 29)] == [3, 3, 2, 2, 1, 1]


def test_slip_documents_report_progress_and_number_their_pages():
    from printing.wall import WallContent, WallHeader

    slips = tuple(Slip(f"Player {i}", "", "", i // 2 + 1, "Someone") for i in range(20))
    content = WallContent(kind="slips", header=WallHeader("en", "Cup", 1, "Round 1: results slip"),
                          slips=slips)
    out, seen = io.BytesIO(), []
    pages = render_wall(content, out, chunk=6, progress=lambda done, total: seen.append(
        (done, total)))
    assert pages == 7  # 20 slips, 3 a page
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5)]  # documents of 2 pages (6 slips)
    texts = pdf_pages_text(out.getvalue())
    assert [t.strip().splitlines()[-1].replace(" ", "") for t in texts] == [
        f"{n}/7" for n in range(1, 8)]


# --- other game systems --------------------------------------------------------------------------

@pytest.mark.django_db
def test_whfb_event_without_missions_in_tournament_points(media):
    round_ = whfb_round(9)
    assert round_.mission is None
    confirm_all(round_, vp=(1500, 300))  # a 1200-point gap: 15 : 5 under oms-2011
    _pack, pairings = built(round_, Kind.PAIRINGS, media)
    assert "Mission" not in " ".join(layout_pages(pairings)[0])
    _pack, standings = built(round_, Kind.STANDINGS, media)
    lines = layout_pages(standings)[0]
    assert next(line for line in lines if line.startswith("# Player")).startswith("# Player TP")
    points = [int(row[1]) for row in standing_rows(lines).values()]
    assert points.count(15) == 4 and points.count(5) == 4
    _pack, slips = built(round_, Kind.SLIPS, media)
    assert "Mission:" not in " ".join(pdf_pages_text(slips))


@pytest.mark.django_db
def test_sheets_speak_the_event_language(media):
    round_ = paired_round(4, language="fr", seed=9)
    Round.objects.filter(pk=round_.pk).update(published_at=None)
    round_.tournament.starts_on = "2026-11-21"
    round_.tournament.save(update_fields=["starts_on"])
    for kind in (Kind.PAIRINGS, Kind.FIND_TABLE, Kind.STANDINGS, Kind.SLIPS):
        _pack, pdf = built(round_, kind, media)
        assert "21 novembre 2026" in " ".join(pdf_pages_text(pdf)), kind


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 40])
def test_gathering_a_sheet_takes_the_same_queries_whatever_the_field(players):
    round_ = paired_round(players, seed=10)
    counts = {}
    for kind in (Kind.PAIRINGS, Kind.FIND_TABLE, Kind.STANDINGS, Kind.SLIPS):
        fresh = Round.objects.select_related("tournament__game_system").get(pk=round_.pk)
        with CaptureQueriesContext(connection) as queries:
            wall_sheets.wall_content(fresh, kind)
        counts[kind] = len(queries)
    # Standings: players, games and the awards and penalties (one UNION query); standings and
    # slips also read the system's factions once (their names in the sheet's language).
    assert counts == {Kind.PAIRINGS: 1, Kind.FIND_TABLE: 1, Kind.STANDINGS: 4, Kind.SLIPS: 4}


# --- asking for one: service, API, admin ---------------------------------------------------------

@pytest.mark.django_db
def test_each_kind_is_its_own_pack_and_a_double_click_gets_the_one_under_way(
        media, django_capture_on_commit_callbacks):
    round_ = paired_round(6, seed=12)
    staff = Actor(user=get_user_model().objects.create_user("to", is_staff=True))
    with django_capture_on_commit_callbacks(execute=False):
        first = packs.request_pack(staff, round_.tournament, 1, Kind.PAIRINGS)
        again = packs.request_pack(staff, round_.tournament, 1, Kind.PAIRINGS)
        slips = packs.request_pack(staff, round_.tournament, 1, Kind.SLIPS)
        mission_pack = packs.request_pack(staff, round_.tournament, 1)
    assert first.pk == again.pk and len({first.pk, slips.pk, mission_pack.pk}) == 3
    assert mission_pack.kind == Kind.MISSION_PACK
    entry = AuditEntry.objects.get(action="mission_pack_requested", data__pack=slips.pk)
    assert entry.data == {"pack": slips.pk, "round": 1, "kind": "slips"}
    with pytest.raises(Invalid):
        packs.request_pack(staff, round_.tournament, 1, "posters")


@pytest.mark.django_db
def test_a_draft_round_has_no_wall_sheets():
    round_ = paired_round(4, seed=13)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)
    with pytest.raises(Conflict, match="wall sheets"):
        packs.request_pack(SYSTEM, round_.tournament, 1, Kind.FIND_TABLE)


def staff_api() -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("desk", is_staff=True))
    return client


@pytest.mark.django_db
def test_api_prints_a_wall_sheet_and_follows_it_like_a_mission_pack(
        media, django_capture_on_commit_callbacks):
    round_ = paired_round(6, seed=14)
    client = staff_api()
    url = f"/api/v1/tournaments/{round_.tournament.slug}/rounds/1/wall-sheets/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "find_table"}, format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) >= {"id", "status"} and body["status"] == "pending"
    state = client.get(f"/api/v1/mission-packs/{body['id']}/").json()
    assert state["status"] == "done" and state["kind"] == "find_table"
    download = client.get(state["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "find-table.pdf" in download["Content-Disposition"]
    pdf = b"".join(download.streaming_content)
    assert "Round 1: find your table" in pdf_pages_text(pdf)[0]

    refused = client.post(url, {"kind": "mission_pack"}, format="json")
    assert refused.status_code == 400 and "kind" in refused.json()
    assert client.post(url, {}, format="json").status_code == 400
    missing = client.post(url.replace("/rounds/1/", "/rounds/9/"), {"kind": "slips"}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "round_not_found"
    player = APIClient()
    player.force_authenticate(get_user_model().objects.create_user("player"))
    assert player.post(url, {"kind": "slips"}, format="json").status_code == 403
    assert APIClient().post(url, {"kind": "slips"}, format="json").status_code == 401


@pytest.mark.django_db
def test_round_and_event_buttons_go_to_the_progress_page(admin_client, media,
                                                        django_capture_on_commit_callbacks):
    round_ = paired_round(6, seed=15)
    page = admin_client.get(reverse("admin:league_round_change", args=[round_.pk])).content.decode()
    for kind in ("pairings", "find_table", "slips", "standings"):
        assert reverse("admin:printing_missionpack_wall_sheet", args=[round_.pk, kind]) in page
    cockpit = admin_client.get(reverse("admin:league_tournament_change",
                                       args=[round_.tournament_id])).content.decode()
    standings_url = reverse("admin:printing_missionpack_wall_sheet", args=[round_.pk, "standings"])
    assert standings_url in cockpit and "Standings after round 1 (PDF)" in cockpit
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(standings_url)
    pack = MissionPack.objects.get(kind=Kind.STANDINGS)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:printing_missionpack_change", args=[pack.pk])
    progress = admin_client.get(response["Location"]).content.decode()
    assert "Download the PDF" in progress and "Wall sheet (standings)" in progress
    assert admin_client.get(standings_url).status_code == 405
    assert admin_client.post(reverse("admin:printing_missionpack_wall_sheet",
                                     args=[round_.pk, "posters"])).status_code == 404


@pytest.mark.django_db
def test_a_draft_round_button_says_why_not(admin_client):
    round_ = paired_round(4, seed=16)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)
    response = admin_client.post(reverse("admin:printing_missionpack_wall_sheet",
                                         args=[round_.pk, "pairings"]), follow=True)
    assert "Publish the round before printing its wall sheets." in response.content.decode()
    assert not MissionPack.objects.exists()


# --- the real worker ------------------------------------------------------------------------------

@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_prints_slips_with_progress(celery_worker_process):
    round_ = paired_round(40, seed=17)
    client = staff_api()
    response = client.post(f"/api/v1/tournaments/{round_.tournament.slug}/rounds/1/wall-sheets/",
                           {"kind": "slips"}, format="json")
    assert response.status_code == 202
    seen = wait_for(response.json()["id"])
    assert seen[-1] == (Status.DONE, 100)
    state = client.get(f"/api/v1/mission-packs/{response.json()['id']}/").json()
    pdf = b"".join(client.get(state["download_url"]).streaming_content)
    assert state["pages"] == 14 and "Round 1: results slip" in pdf_pages_text(pdf)[0]
    MissionPack.objects.get(pk=state["id"]).delete()  # takes its file along
