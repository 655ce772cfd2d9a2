"""Mission packs: the PDF of a round (text, pages, pictures), its task, API, admin and diagram.

Eager tests run everywhere (SQLite, tasks in-process); ``worker`` tests run the real Celery
worker on Redis and PostgreSQL (CI). PDFs are read back with poppler (pdftotext, pdftoppm).
"""
from __future__ import annotations

import io
import os
import statistics
import subprocess
import time
from datetime import timedelta
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.utils import timezone, translation
from pypdf import PdfReader
from rest_framework.test import APIClient

import events.admin  # noqa: F401  (registers the admin before the URLs load)
import printing.admin
from armylists.models import Chart
from events.audit import SYSTEM
from events.models import AuditEntry, Round
from events.services import rounds, tournaments
from missions.models import Level, Mission
from printing import diagram, tasks
from printing.data import PackContent, PackHeader, RollLine, Side, TableSheet
from printing.models import MissionPack
from printing.render import render_forms, render_job, render_pack, whole_document
from printing.services import mission_pack, packs

Status = MissionPack.Status
A4_POINTS = (595, 842)


# --- helpers ------------------------------------------------------------------------------------

def paired_round(players: int = 9, *, language: str = "en", level: str = "alpha",
                 missions: str = "per_round", on_six: str = "reroll", seed: int = 1) -> Round:
    """A published round 1 of a fresh event, every player with a distinct name and club."""
    tournament = tournaments.create_tournament(
        SYSTEM, name=f"Cup {seed}", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug=level), rounds=3, seed=seed,
        language=language, missions=missions, on_six=on_six)
    tournaments.transition(SYSTEM, tournament, "registration_open")
    for i in range(players):
        tournaments.register_player(SYSTEM, tournament, name=f"Warlord{i:02d} Xq",
                                    club=f"Club{i:02d}", faction="Orks")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    return rounds.pair_next_round(SYSTEM, tournament)


def staff_client() -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("to", is_staff=True))
    return client


def request_through_api(client: APIClient, round_: Round, capture=None):
    url = f"/api/v1/tournaments/{round_.tournament.slug}/rounds/{round_.number}/mission-pack/"
    if capture is None:
        return client.post(url, {}, format="json")
    with capture(execute=True):
        return client.post(url, {}, format="json")


def pdf_pages_text(pdf: bytes) -> list[str]:
    """pdftotext of every page (form feed separates pages)."""
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                          check=True)
    return done.stdout.decode().split("\f")[:-1]


def page_pixels(pdf: bytes, page: int, dpi: int = 30) -> list[int]:
    """Grey levels of one page rendered by pdftoppm (PGM)."""
    done = subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page),
                           "-singlefile", "-"], input=pdf, capture_output=True, check=True)
    magic, size, _maxval, data = done.stdout.split(b"\n", 3)  # binary PGM as pdftoppm writes it
    width, height = (int(n) for n in size.split())
    assert magic == b"P5" and len(data) == width * height
    return list(data)


def sheet_players(round_: Round) -> list[tuple[int, str, str]]:
    return [(g.table, g.player_a.name, g.player_b.name)
            for g in round_.games.select_related("player_a", "player_b").order_by("table")
            if not g.is_bye]


def check_pack_pdf(pdf: bytes, round_: Round) -> None:
    """Cover, pairings, then one page per table holding its number, players and mission."""
    pages = pdf_pages_text(pdf)
    tables = sheet_players(round_)
    assert len(pages) == 2 + len(tables)
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in PdfReader(io.BytesIO(pdf)).pages}
    assert sizes == {A4_POINTS}  # plain A4 throughout
    everything = "\n".join(pages)
    for player in round_.tournament.players.all():
        assert player.name in everything
    for page, (table, a, b) in zip(pages[2:], tables, strict=True):
        lines = [line.strip() for line in page.splitlines()]
        assert str(table) in lines  # the big table number stands alone on its line
        assert a in page and b in page
    names = {g.mission.name for g in round_.games.select_related("mission") if g.mission}
    for name in names:
        assert name in everything
    pixels = page_pixels(pdf, 3)
    assert statistics.pvariance(pixels) > 200  # ink on white, not a blank page


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def pack_files(media_root: Path, pack: MissionPack) -> list[str]:
    folder = Path(media_root) / "packs"
    return sorted(p.name for p in folder.glob(f"*pack-{pack.pk}-*")) if folder.is_dir() else []


# --- the PDF, through the API (eager) ----------------------------------------------------------

@pytest.mark.django_db
def test_staff_gets_the_round_pack_through_the_api(media, django_capture_on_commit_callbacks):
    round_ = paired_round(9)
    client = staff_client()
    response = request_through_api(client, round_, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) >= {"id", "status"} and body["status"] == "pending"  # built after commit
    state = client.get(f"/api/v1/mission-packs/{body['id']}/").json()
    assert state["status"] == "done" and state["progress"] == 100
    download = client.get(state["download_url"])
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    pdf = b"".join(download.streaming_content)
    check_pack_pdf(pdf, round_)
    pack = MissionPack.objects.get(pk=body["id"])
    assert pack_files(media, pack) == [Path(pack.file.name).name]
    assert AuditEntry.objects.filter(action="mission_pack_requested",
                                     data__pack=pack.pk).count() == 1


@pytest.mark.django_db
def test_bye_is_a_pairing_line_not_a_sheet(media):
    round_ = paired_round(9)
    bye = round_.games.get(player_b__isnull=True).player_a
    out = io.BytesIO()
    render_pack(mission_pack.pack_content(round_), out)
    pages = pdf_pages_text(out.getvalue())
    assert bye.name in pages[1]  # the pairings list
    assert all(bye.name not in page for page in pages[2:])


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db
def test_pack_is_in_the_tournament_language(language):
    round_ = paired_round(4, language=language)
    mission = round_.mission
    out = io.BytesIO()
    render_pack(mission_pack.pack_content(round_), out)
    text = "\n".join(pdf_pages_text(out.getvalue()))
    wanted, other = (mission.name_en, mission.name_fr) if language == "en" else \
        (mission.name_fr, mission.name_en)
    assert wanted in text
    if wanted != other:
        assert other not in text


@pytest.mark.django_db
def test_per_table_special_missions_print_roles_and_allowances():
    round_ = paired_round(40, level="gamma", missions="per_table", on_six="special", seed=3)
    content = mission_pack.pack_content(round_)
    games = {g.table: g for g in round_.games.select_related("mission", "player_a", "player_b")}
    with_roles = [s for s in content.sheets if games[s.table].roles]
    assert with_roles, "seed 3 should roll at least one special mission"
    for sheet in with_roles:
        game = games[sheet.table]
        attacker = next(pid for pid, role in game.roles.items() if role == "attacker")
        names = {str(game.player_a_id): game.player_a.name, str(game.player_b_id): game.player_b.name}
        assert sheet.a.name == names[attacker]  # the attacker's column is always the left one
        assert sheet.a.role and sheet.b.role and sheet.a.role != sheet.b.role
        assert any(r.step for r in sheet.rolls)
    for sheet in content.sheets:
        level_allowance = round_.tournament.level.stratagems_per_player
        assert len(sheet.a.allowance.boxes) >= level_allowance
    out = io.BytesIO()
    pages = render_pack(content, out, chunk_tables=7)
    assert pages == 2 + len(content.sheets)
    check_pack_pdf(out.getvalue(), round_)


@pytest.mark.django_db
def test_stamped_sheets_look_like_the_sheets_laid_out_whole():
    """Forms + text overlays give the page the template gives with the text inline."""
    round_ = paired_round(6, level="omega", seed=2)
    content = mission_pack.pack_content(round_)
    stamped = io.BytesIO()
    render_pack(content, stamped)
    whole = render_job(whole_document(content))
    for page in (3, 4):
        a, b = page_pixels(stamped.getvalue(), page, 40), page_pixels(whole, page, 40)
        assert len(a) == len(b)
        differing = sum(abs(x - y) > 64 for x, y in zip(a, b, strict=True))
        assert differing < 0.0005 * len(a), differing
        assert statistics.pvariance(a) > 200


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db
def test_every_mission_sheet_fits_one_page_at_omega(language):
    """Omega has the most special rules and the widest diagram: the longest sheets."""
    level = Level.objects.get(slug="omega")
    with translation.override(language):
        catalogue = mission_pack.Catalogue(level)
        blocks = {m.slug: mission_pack.mission_block(m, catalogue) for m in Mission.objects.all()}
        sheets = []
        for number, mission in enumerate(Mission.objects.all(), start=1):
            roles = ("attacker", "defender") if mission.roles else (None, None)
            sides = [Side("N" * 60, "C" * 60, "F" * 60, role or "",
                          catalogue.allowance(mission, role)) for role in roles]
            steps = ["mission", "roles", "deployment", "stratagem_declaration", "dawn_dusk"]
            rolls = tuple(RollLine(str(mission_pack.PURPOSES[p]), "D6: 1 · 1 · 6", "D6: 1 · 1 · 5", "",
                                   "O" * 80) for p in steps)
            sheets.append(TableSheet(number, mission.slug, sides[0], sides[1], rolls))
    header = PackHeader(language, "E" * 80, 12, level.name, "31 December 2026", ())
    forms = render_forms(PackContent(header, (), blocks, tuple(sheets)))  # raises if one spills
    assert len(forms.layouts) == Mission.objects.count()
    for layout in forms.layouts:
        assert {"table", "a_name", "b_name", "roll0_a", "roll4_outcome"} <= {s.name for s in layout}


# --- progress, failure, idempotence (eager) -------------------------------------------------------

@pytest.mark.django_db
def test_progress_is_reported_after_each_document(media):
    round_ = paired_round(12)
    calls = []
    render_pack(mission_pack.pack_content(round_), io.BytesIO(), chunk_tables=2,
                progress=lambda done, total: calls.append((done, total)))
    total = 2 + 3  # forms, front matter, then 6 tables in chunks of 2
    assert calls == [(n, total) for n in range(1, total + 1)]
    pack = MissionPack.objects.create(round=round_, status=Status.RUNNING, attempt="mine")
    MissionPack.objects.filter(pk=pack.pk).update(progress_at=timezone.now() - timedelta(hours=1))
    report = packs._reporter(pack.pk, "mine")
    report(4, 5)
    pack.refresh_from_db()
    assert pack.progress == 80
    assert timezone.now() - pack.progress_at < timedelta(minutes=1)  # progress bumps it
    report(5, 5)
    pack.refresh_from_db()
    assert pack.progress == 99  # 100 only once the file is stored
    with pytest.raises(packs.LostOwnership):  # a run whose token was replaced stops writing
        packs._reporter(pack.pk, "someone else")(1, 5)
    pack.refresh_from_db()
    assert pack.progress == 99


@pytest.mark.django_db
def test_a_failing_task_leaves_a_failed_pack_with_its_message(media):
    round_ = paired_round(6)
    Mission.objects.filter(pk=round_.mission_id).update(diagram={"kind": "hexagon"})
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.FAILED
    pack.refresh_from_db()
    assert pack.status == Status.FAILED
    assert "hexagon" in pack.error and round_.mission.name in pack.error
    assert not pack.file and pack_files(media, pack) == []
    client = staff_client()
    state = client.get(f"/api/v1/mission-packs/{pack.pk}/").json()
    assert state["status"] == "failed" and "hexagon" in state["error"]
    assert client.get(f"/api/v1/mission-packs/{pack.pk}/download/").status_code == 409


@pytest.mark.django_db
def test_a_failed_pack_can_be_retried(media, django_capture_on_commit_callbacks):
    round_ = paired_round(6)
    good = Mission.objects.get(pk=round_.mission_id).diagram
    Mission.objects.filter(pk=round_.mission_id).update(diagram={"kind": "quarters",
                                                                  "centre_exclusion_inches": -1})
    pack = MissionPack.objects.create(round=round_)
    tasks.build_mission_pack(pack.pk)
    pack.refresh_from_db()
    assert pack.status == Status.FAILED and "centre_exclusion_inches" in pack.error
    Mission.objects.filter(pk=round_.mission_id).update(diagram=good)
    with django_capture_on_commit_callbacks(execute=True):
        packs.retry_pack(SYSTEM, pack)
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.error == "" and pack.progress == 100
    with pytest.raises(packs.Conflict):
        packs.retry_pack(SYSTEM, pack)


@pytest.mark.django_db
def test_task_run_twice_or_after_a_crash_ends_with_one_correct_file(media):
    round_ = paired_round(6)
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    assert tasks.build_mission_pack(pack.pk) == Status.DONE  # a second delivery
    pack.refresh_from_db()
    final = media / pack.file.name
    assert pack_files(media, pack) == [final.name]
    # A crash mid-render: the pack says running and a temporary file was left behind.
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, progress=40)
    leftover = final.parent / f".pack-{pack.pk}-crashed.part"
    leftover.write_bytes(b"%PDF-1.7 half a file")
    old = time.time() - 2 * settings.MUSTER_PACK_INTERRUPTED_SECONDS
    os.utime(leftover, (old, old))
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.progress == 100
    rebuilt = media / pack.file.name  # each build stores under a new name; the old file goes
    assert rebuilt != final and not final.exists()
    assert pack_files(media, pack) == sorted([rebuilt.name, leftover.name])  # the sweep's job
    check_pack_pdf(rebuilt.read_bytes(), round_)
    rebuilt.unlink()  # a done pack whose file was lost (e.g. media wiped) is built again
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    check_pack_pdf((media / pack.file.name).read_bytes(), round_)


@pytest.mark.django_db
def test_a_write_that_fails_keeps_the_previous_file_whole(media):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    tasks.build_mission_pack(pack.pk)
    pack.refresh_from_db()
    final = media / pack.file.name
    before = final.read_bytes()

    def half_then_crash(out):
        out.write(b"%PDF-1.7 half")
        raise OSError("disk full")

    with pytest.raises(OSError):
        packs.store_atomically(pack, half_then_crash)
    assert final.read_bytes() == before
    assert pack_files(media, pack) == [final.name]


# --- who may ask (eager) ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_players_and_strangers_are_refused(media, django_capture_on_commit_callbacks):
    round_ = paired_round(4)
    staff = staff_client()
    pack_id = request_through_api(staff, round_, django_capture_on_commit_callbacks).json()["id"]
    user = get_user_model().objects.create_user("warlord")
    player = round_.tournament.players.first()
    player.user = user
    player.save()
    as_player = APIClient()
    as_player.force_authenticate(user)
    urls = [f"/api/v1/mission-packs/{pack_id}/", f"/api/v1/mission-packs/{pack_id}/download/"]
    assert request_through_api(as_player, round_).status_code == 403
    assert request_through_api(APIClient(), round_).status_code == 401
    for url in urls:
        refused = as_player.get(url)
        assert refused.status_code == 403 and refused.json()["code"] == "staff_only"
        assert APIClient().get(url).status_code == 401
    assert MissionPack.objects.count() == 1
    assert staff.get("/api/v1/mission-packs/999999/").status_code == 404
    assert staff.get("/api/v1/mission-packs/999999/download/").status_code == 404
    missing_round = f"/api/v1/tournaments/{round_.tournament.slug}/rounds/9/mission-pack/"
    assert staff.post(missing_round, {}, format="json").status_code == 404
    assert staff.post("/api/v1/tournaments/nope/rounds/1/mission-pack/", {},
                      format="json").status_code == 404


@pytest.mark.django_db
def test_a_double_click_gives_one_pack():
    # A draft round's pack is printed too, marked as a draft (tests/printing/test_pack_ui.py).
    round_ = paired_round(4)
    first = packs.request_pack(SYSTEM, round_.tournament, 1)  # on_commit never fires here
    assert packs.request_pack(SYSTEM, round_.tournament, 1).pk == first.pk


# --- admin (eager) ---------------------------------------------------------------------------------

def admin_request(user, method: str = "post"):
    request = getattr(RequestFactory(), method)("/admin/")
    request.user = user
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


@pytest.mark.django_db
def test_admin_round_action_starts_a_pack_and_shows_its_progress(
        client, media, django_capture_on_commit_callbacks):
    from django.contrib import admin

    round_ = paired_round(4)
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    with django_capture_on_commit_callbacks(execute=True):
        response = printing.admin.start_pack(admin.ModelAdmin(Round, admin.site),
                                                admin_request(boss), Round.objects.filter(pk=round_.pk))
    pack = MissionPack.objects.get(round=round_)
    assert response.status_code == 302 and response.url.endswith(f"/missionpack/{pack.pk}/change/")
    assert pack.status == Status.DONE
    client.force_login(boss)
    listing = client.get("/admin/printing/missionpack/").content.decode()
    assert "<progress" in listing and f"/api/v1/mission-packs/{pack.pk}/download/" in listing
    status = client.get(f"/admin/printing/missionpack/{pack.pk}/status/").json()
    assert status["status"] == "done" and status["progress"] == 100
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, progress=30)
    page = client.get(f"/admin/printing/missionpack/{pack.pk}/change/").content.decode()
    assert f"/admin/printing/missionpack/{pack.pk}/status/" in page and "setTimeout(poll" in page
    assert 'value="30"' in page


@pytest.mark.django_db
def test_admin_retries_a_failed_pack_and_hides_status_from_non_staff(
        client, media, django_capture_on_commit_callbacks):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_, status=Status.FAILED, error="boom")
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(get_user_model().objects.create_user("warlord", password="pw"))
    assert client.get(f"/admin/printing/missionpack/{pack.pk}/status/").status_code == 302  # login
    client.force_login(boss)
    page = client.get(f"/admin/printing/missionpack/{pack.pk}/change/").content.decode()
    assert "boom" in page and f"/admin/printing/missionpack/{pack.pk}/retry/" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/printing/missionpack/{pack.pk}/retry/")
    assert response.status_code == 302
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack_files(media, pack)


# --- the table diagram (pure) ------------------------------------------------------------------------

LABELS = diagram.DiagramLabels("att", "def", "obj", "in", "out", "road")


@pytest.mark.django_db
@pytest.mark.parametrize("size", [(120, 120), (180, 120)])
def test_every_catalogue_diagram_is_drawn_to_scale(size):
    width, depth = size
    for mission in Mission.objects.all():
        svg = ElementTree.fromstring(diagram.table_diagram(mission.diagram, width, depth, LABELS))
        box = [float(v) for v in svg.get("viewBox").split()]
        assert box[2:] == [width + 2 * diagram.MARGIN, depth + 2 * diagram.MARGIN]
        assert float(svg.get("width").removesuffix("mm")) == pytest.approx(box[2] / 3, abs=0.1)
        table = [r for r in svg.iter("{http://www.w3.org/2000/svg}rect")
                 if r.get("fill") == "none"]
        assert [(float(r.get("width")), float(r.get("height"))) for r in table] == [size]
        centre = mission.diagram.get("centre_exclusion_inches")
        circles = [float(c.get("r")) for c in svg.iter("{http://www.w3.org/2000/svg}circle")]
        if centre:
            assert circles == [pytest.approx(centre * 2.54, abs=0.05)]


def test_diagram_zones_follow_the_distances():
    svg = ElementTree.fromstring(diagram.table_diagram(
        {"kind": "long_edges", "attacker_zone_depth_inches": 6, "defender_zone_depth_inches": 24},
        180, 120, LABELS))
    zones = sorted(float(r.get("height")) for r in svg.iter("{http://www.w3.org/2000/svg}rect")
                   if r.get("fill") != "none")
    assert zones == [pytest.approx(6 * 2.54, abs=0.05), pytest.approx(24 * 2.54, abs=0.05)]


@pytest.mark.parametrize("data", [
    {"kind": "hexagon"},
    {},
    {"kind": "quarters", "centre_exclusion_inches": -2},
    {"kind": "quarters", "centre_exclusion_inches": "12"},
    {"kind": "quarters", "centre_exclusion_inches": 30},  # 76 cm radius on a 120 cm table
    {"kind": "long_edges", "attacker_zone_depth_inches": 24, "defender_zone_depth_inches": 24},
])
def test_diagram_refuses_what_cannot_be_drawn(data):
    with pytest.raises(diagram.DiagramError):
        diagram.table_diagram(data, 120, 120, LABELS)


# --- a real worker on Redis (CI) ----------------------------------------------------------------------

def wait_for(pack_id: int, timeout: float = 120) -> list[tuple[str, int]]:
    """Poll the pack's row until it is done or failed; every (status, progress) seen, in order."""
    seen: list[tuple[str, int]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = tuple(MissionPack.objects.filter(pk=pack_id).values_list("status", "progress")[0])
        if not seen or seen[-1] != state:
            seen.append(state)
        if state[0] in (Status.DONE, Status.FAILED):
            return seen
        time.sleep(0.02)
    raise AssertionError(f"pack {pack_id} still {seen[-1]} after {timeout} s")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_builds_the_pack_a_player_cannot_fetch(celery_worker_process):
    round_ = paired_round(9)
    client = staff_client()
    response = request_through_api(client, round_)
    assert response.status_code == 202
    pack_id = response.json()["id"]
    assert wait_for(pack_id)[-1] == (Status.DONE, 100)
    state = client.get(f"/api/v1/mission-packs/{pack_id}/").json()
    download = client.get(state["download_url"])
    assert download.status_code == 200
    check_pack_pdf(b"".join(download.streaming_content), round_)
    player = APIClient()
    player.force_authenticate(get_user_model().objects.create_user("warlord"))
    assert player.get(state["download_url"]).status_code == 403
    assert request_through_api(player, round_).status_code == 403
    MissionPack.objects.get(pk=pack_id).delete()  # takes its file along


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_reports_progress_from_0_to_100(celery_worker_process):
    # 200 tables in chunks of 1: ~200 steps. Texts are stamped in a few milliseconds a table, so
    # fewer tables can pass between two polls (20 ms apart) in one go.
    round_ = paired_round(400, seed=4)
    pack = MissionPack.objects.create(round=round_)
    tasks.build_mission_pack.delay(pack.pk, 1)
    seen = wait_for(pack.pk)
    progress = [p for _status, p in seen]
    assert seen[0] in ((Status.PENDING, 0), (Status.RUNNING, 0)) or progress[0] < 20
    assert progress == sorted(progress)
    assert len({p for p in progress if 0 < p < 100}) >= 3
    assert seen[-1] == (Status.DONE, 100)
    MissionPack.objects.get(pk=pack.pk).delete()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_failure_is_recorded(celery_worker_process):
    round_ = paired_round(4)
    Mission.objects.filter(pk=round_.mission_id).update(diagram={"kind": "hexagon"})
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack.delay(pack.pk).get(timeout=60) == Status.FAILED
    pack.refresh_from_db()
    assert pack.status == Status.FAILED and "hexagon" in pack.error and not pack.file


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_task_twice_gives_one_correct_file(celery_worker_process):
    round_ = paired_round(6)
    pack = MissionPack.objects.create(round=round_)
    first, second = tasks.build_mission_pack.delay(pack.pk), tasks.build_mission_pack.delay(pack.pk)
    assert (first.get(timeout=120), second.get(timeout=120)) == (Status.DONE, Status.DONE)
    # As if a worker died mid-render and the broker delivered the task again.
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, progress=50)
    assert tasks.build_mission_pack.delay(pack.pk).get(timeout=120) == Status.DONE
    pack.refresh_from_db()
    media_root = Path(settings.MEDIA_ROOT)
    assert pack_files(media_root, pack) == [Path(pack.file.name).name]
    check_pack_pdf((media_root / pack.file.name).read_bytes(), round_)
    pack.delete()
    assert pack_files(media_root, pack) == []

