"""Mission packs of the other game systems: the W40K Dynamics box on Cities of Death sheets, and
scenario sheets (Warhammer Battle stakes, baggage and VP table; any system without missions).

Packs are built by the task (eager) and read back with poppler, as in test_mission_packs.py.
"""
from __future__ import annotations

import io
import re
import statistics
import subprocess

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from armylists.models import Chart, GameSystem
from armylists.validation import Entry
from events.audit import SYSTEM
from events.models import Round
from events.services import lists, rounds, tournaments
from events.systems import DEFAULT, all_event_rules
from missions.models import Level, Mission
from printing import tasks
from printing.data import (
    CORE_BLOCKS,
    BandCell,
    DynamicsBox,
    PackContent,
    PackHeader,
    RollLine,
    Side,
    TableSheet,
)
from printing.models import MissionPack
from printing.render import RenderError, render_forms, render_job, render_pack, whole_document
from printing.services import mission_pack, sheet_boxes
from tests.printing.test_mission_packs import check_pack_pdf, page_pixels, pdf_pages_text

Status = MissionPack.Status
PASSES = [str(n) for n in range(1, 11)]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def built_pdf(round_: Round, media_root) -> bytes:
    """The round's pack as the task builds and stores it."""
    pack = MissionPack.objects.create(round=round_)
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.error == ""
    return (media_root / pack.file.name).read_bytes()


def register(tournament, count: int, faction: str = "") -> list:
    return [tournaments.register_player(SYSTEM, tournament, name=f"General{i:02d} Zk",
                                        club=f"Guild{i:02d}", faction=faction)
            for i in range(count)]


def sheets_by_table(pdf: bytes, round_: Round, pages_per_table: int = 1) -> dict[int, str]:
    """Each table's page text (cover and pairings come first); a sheet with a back (Urban War)
    has two pages, joined."""
    tables = [g.table for g in round_.games.order_by("table") if not g.is_bye]
    pages = pdf_pages_text(pdf)
    assert len(pages) == 2 + pages_per_table * len(tables)
    sheets = ["".join(pages[i:i + pages_per_table]) for i in range(2, len(pages), pages_per_table)]
    return dict(zip(tables, sheets, strict=True))


def flat(text: str) -> str:
    return " ".join(text.split())


def layout_lines(pdf: bytes, page: int) -> list[str]:
    """One page as pdftotext lays it out: a printed row is a line, its columns in order (the
    raw text of a stamped page follows the form, then the overlay)."""
    done = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-", "-"],
                          input=pdf, capture_output=True, check=True)
    return [flat(line) for line in done.stdout.decode().splitlines() if line.strip()]


def line_with(lines: list[str], text: str) -> int:
    return next(i for i, line in enumerate(lines) if text in line)


def assert_not_blank(pdf: bytes, page: int) -> None:
    assert statistics.pvariance(page_pixels(pdf, page)) > 200  # ink on white


# --- W40K Dynamics -------------------------------------------------------------------------------

def dynamics_round(players: int = 8, language: str = "en") -> Round:
    """Round 1 of a Dynamics event at omega (the longest sheets), missions per table so that
    some tables play a mission whose role holds the permanent +2; player 0 has a 1,750-point
    list of 4 units, the others none."""
    tournament = tournaments.create_tournament(
        SYSTEM, name="Dynamics Night", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="omega"), rounds=3, seed=11,
        missions="per_table", on_six="special", turn_system="dynamics", language=language,
        status="registration_open")
    people = register(tournament, players)
    lists.submit_list(SYSTEM, people[0], role="", entries=[
        Entry("Warboss", "hq", 250), Entry("Boyz", "troops", 500), Entry("Gretchin", "troops", 500),
        Entry("Lootas", "heavy_support", 500)])
    return rounds.pair_next_round(SYSTEM, tournament)


@pytest.mark.django_db
def test_dynamics_sheets_print_tokens_orders_holder_and_pass_tracker(media):
    round_ = dynamics_round()
    pdf = built_pdf(round_, media)
    check_pack_pdf(pdf, round_)  # still a Cities of Death pack: missions, tables, players
    listed = round_.tournament.players.get(name="General00 Zk")
    games = round_.games.select_related("player_a", "player_b").order_by("table")
    holders = 0
    for page, game in enumerate(games, start=3):
        lines = layout_lines(pdf, page)
        text = " ".join(lines)
        assert "W40K Dynamics" in text and "Replaces the first-turn roll" in text
        assert "First turn" not in text  # no first-turn roll in a Dynamics event
        tracker = lines[line_with(lines, "Passes")]
        assert re.findall(r"\d+", tracker) == PASSES
        tokens = lines[line_with(lines, "Order tokens")]
        orders = lines[line_with(lines, "Orders per turn")]
        usual = "6 of each order, 30 in all: 1 sheet of 30"  # 1,500 points: the limit
        if listed.pk in game.player_ids:
            assert "7 of each order, 35 in all: 2 sheets of 30" in tokens  # 1,750 points
            assert tokens.count(usual) == 1
            assert "4 (one per unit)" in orders and orders.count("no list yet") == 1
        else:
            assert tokens.count(usual) == 2 and orders.count("no list yet") == 2
        holder = game.pregame.get("permanent_advantage")
        holder_line = lines[line_with(lines, "Permanent +2") + 1]
        if holder is None:
            assert "nobody" in holder_line
        else:
            holders += 1
            name = game.player_a.name if int(holder) == game.player_a_id else game.player_b.name
            assert name in holder_line
    assert holders, "seed 11 should give at least one table a mission with a permanent +2"
    assert "W40K Dynamics" in pdf_pages_text(pdf)[0]  # the cover names the turn system
    assert_not_blank(pdf, 3)


def content_queries(round_: Round) -> tuple[PackContent, int]:
    round_ = Round.objects.select_related("tournament__level", "tournament__game_system",
                                          "mission").get(pk=round_.pk)
    with CaptureQueriesContext(connection) as queries:
        content = mission_pack.pack_content(round_)
    return content, len(queries)


@pytest.mark.django_db
def test_dynamics_lists_are_read_once_per_pack():
    small, few = content_queries(dynamics_round(players=2))
    Round.objects.all().delete()  # one event at a time: the second is created afresh
    large, many = content_queries(dynamics_round(players=16))
    assert len(large.sheets) == 8 and few == many  # no query per table
    assert all(any(isinstance(b, DynamicsBox) for b in s.boxes) for s in large.sheets)


@pytest.mark.django_db
def test_standard_events_print_no_dynamics_box(media):
    tournament = tournaments.create_tournament(
        SYSTEM, name="Plain Cup", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="alpha"), rounds=3, seed=5,
        language="en", status="registration_open")
    register(tournament, 4)
    content = mission_pack.pack_content(rounds.pair_next_round(SYSTEM, tournament))
    assert all(s.blocks == CORE_BLOCKS and not s.boxes and not s.dense for s in content.sheets)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db
def test_every_dynamics_sheet_fits_one_page_at_omega(language):
    """The Dynamics box on the longest Cities of Death sheets (omega, longest names and dice)."""
    level = Level.objects.get(slug="omega")
    box = DynamicsBox("8" * 90, "9" * 90, "1" * 40, "2" * 40, "N" * 60)
    blocks = ("mission", "rolls", "dynamics", "stratagems", "result")
    with translation.override(language):
        catalogue = mission_pack.Catalogue(level)
        missions = {m.slug: mission_pack.mission_block(m, catalogue) for m in Mission.objects.all()}
        sheets = []
        for number, mission in enumerate(Mission.objects.all(), start=1):
            roles = ("attacker", "defender") if mission.roles else (None, None)
            sides = [Side("N" * 60, "C" * 60, "F" * 60, role or "",
                          catalogue.allowance(mission, role)) for role in roles]
            steps = ["mission", "roles", "deployment", "stratagem_declaration", "dawn_dusk"]
            rolls = tuple(RollLine(str(mission_pack.PURPOSES[p]), "D6: 1 · 1 · 6", "D6: 1 · 1 · 5", "",
                                   "O" * 80) for p in steps)
            sheets.append(TableSheet(number, mission.slug, sides[0], sides[1], rolls, blocks,
                                     (box,)))
    header = PackHeader(language, "E" * 80, 12, level.name, "31 December 2026", ())
    forms = render_forms(PackContent(header, (), missions, tuple(sheets)))  # raises if one spills
    wanted = {"dynamics_a_tokens", "dynamics_b_orders", "dynamics_holder"}
    for layout in forms.layouts:
        assert wanted <= {s.name for s in layout}


# --- Warhammer Battle and other systems without missions ----------------------------------------

def whfb_round(players: int = 9, *, language: str = "en", scenario: str = "",
               advanced_rules: dict | None = None, scoring: dict | None = None) -> Round:
    if advanced_rules is None:
        advanced_rules = {"stakes": True, "baggage": True}
    tournament = tournaments.create_tournament(
        SYSTEM, name="Old World Open", game_system=GameSystem.objects.get(slug="whfb"),
        chart=Chart.objects.get(slug="whfb-open"), points_limit=2000, rounds=3, language=language,
        advanced_rules=advanced_rules, status="registration_open",
        scoring=scoring or {"mode": "vp_table", "preset": "oms-2011"})
    assert tournament.level is None
    register(tournament, players, faction="empire")
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    if scenario:
        Round.objects.filter(pk=round_.pk).update(scenario=scenario)
        round_.refresh_from_db()
    return round_


OMS_2011 = [("0–200", "10 : 10"), ("201–400", "11 : 9"), ("1001–1200", "15 : 5"),
            ("1801–2000", "19 : 1"), ("2001+", "20 : 0")]


@pytest.mark.django_db
def test_whfb_sheets_print_scenario_stakes_baggage_and_vp_table(media):
    scenario = "Pitched battle: deploy 12\" from the long edges; six turns."
    round_ = whfb_round(scenario=scenario)
    assert round_.mission is None
    pdf = built_pdf(round_, media)
    pages = pdf_pages_text(pdf)
    cover = flat(pages[0])
    assert "Warhammer Battle" in cover and "Level" not in cover
    bye = round_.games.get(player_b__isnull=True).player_a
    assert bye.name in pages[1] and all(bye.name not in p for p in pages[2:])
    sheets = sheets_by_table(pdf, round_)
    for game in round_.games.select_related("player_a", "player_b").exclude(player_b=None):
        assert str(game.table) in [line.strip() for line in sheets[game.table].splitlines()]
        text = flat(sheets[game.table])
        low = text.lower()  # headings are printed in capitals
        assert game.player_a.name in text and game.player_b.name in text
        assert flat(scenario) in text and "2000 points" in text
        # Seed 003, « Piques de bois »: the charging cavalry loses 1D6" and strikes last.
        assert "wooden stakes" in low and "enemy cavalry unit that charges it loses 1D6 inches" in text
        assert "strikes last in the first round of close combat" in text
        assert "Piques de bois" in text
        assert "army baggage" in low and "Captured the enemy baggage (+200 VP)" in text
        assert "Units that left by the enemy edge to loot (give no VP)" in text
        assert "tournament points" in low
        for difference, points in OMS_2011:
            assert difference in text and points in text
        assert "mantlets" not in low  # not enabled by this event
        assert "pre-game rolls" not in low and "stratagems" not in low
        assert "Victory points" in text and "Signatures" in text
    assert_not_blank(pdf, 3)


@pytest.mark.django_db
def test_system_sheets_stamped_look_like_the_sheets_laid_out_whole():
    """Boxes keep the forms + overlays design: same pixels as the sheet laid out in one piece."""
    every_option = {"mantlets": True, "stakes": True, "baggage": True}
    for round_ in (whfb_round(6, advanced_rules=every_option), dynamics_round(6)):
        content = mission_pack.pack_content(round_)
        stamped = io.BytesIO()
        render_pack(content, stamped)
        whole = render_job(whole_document(content))
        for page in (3, 4):
            a, b = page_pixels(stamped.getvalue(), page, 40), page_pixels(whole, page, 40)
            differing = sum(abs(x - y) > 64 for x, y in zip(a, b, strict=True))
            assert differing < 0.0005 * len(a), differing
            assert statistics.pvariance(a) > 200


@pytest.mark.django_db
def test_a_whfb_pack_in_french_builds_with_its_numbers(media):
    round_ = whfb_round(4, language="fr", advanced_rules={"baggage": True, "mantlets": True})
    pdf = built_pdf(round_, media)
    for text in sheets_by_table(pdf, round_).values():
        text = flat(text)
        assert "Joueur" in text and "+200" in text and "1001–1200" in text and "15 : 5" in text


@pytest.mark.django_db
def test_other_system_without_scenario_or_table_prints_players_and_announce_line(media):
    tournament = tournaments.create_tournament(
        SYSTEM, name="Sprawl", game_system=GameSystem.objects.get(slug="urban-war"),
        chart=Chart.objects.get(slug="urban-war-commando"), points_limit=250, rounds=2,
        language="en", status="registration_open")
    register(tournament, 4)
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    pdf = built_pdf(round_, media)
    for game in round_.games.select_related("player_a", "player_b"):
        text = flat(sheets_by_table(pdf, round_, pages_per_table=2)[game.table])
        assert game.player_a.name in text and game.player_b.name in text
        assert "The organisers announce the scenario at the start of the round." in text
        assert "tournament points" not in text.lower() and "W40K Dynamics" not in text
        assert "Urban War" in text and "Winner" in text
    assert_not_blank(pdf, 3)


@pytest.mark.django_db
def test_the_longest_scenario_fits_with_every_whfb_box():
    """5,000 characters (the field's limit) in 40 paragraphs, with mantlets, stakes, baggage and
    the 11 bands of oms-2011: printed smaller on a dense sheet, still one page."""
    scenario = "\n".join(["Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
                          "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim."]
                         * 40)[:5000]
    round_ = whfb_round(2, scenario=scenario,
                        advanced_rules={"mantlets": True, "stakes": True, "baggage": True})
    content = mission_pack.pack_content(round_)
    assert len(content.sheets) == 1 and content.sheets[0].dense
    render_forms(content)  # raises RenderError if the sheet spills onto a second page


@pytest.mark.django_db
def test_a_scenario_too_long_for_the_sheet_fails_with_a_message(media):
    round_ = whfb_round(2, scenario="A long briefing line.\n" * 220,
                        advanced_rules={"mantlets": True, "stakes": True, "baggage": True})
    with pytest.raises(RenderError, match="scenario"):
        render_pack(mission_pack.pack_content(round_), io.BytesIO())


# --- the registry and helpers (no database) ---------------------------------------------------

def test_every_system_names_sheet_blocks_a_template_prints():
    for rules in (*all_event_rules().values(), DEFAULT):
        assert rules.sheet_blocks and rules.sheet_blocks[-1] == "result"
        for name in rules.sheet_blocks:
            assert name in CORE_BLOCKS or name in sheet_boxes.BUILDERS, (rules.slug, name)


def test_band_rows_are_balanced_and_padded():
    cells = [BandCell(str(n), "") for n in range(11)]
    rows = sheet_boxes.balanced_rows(cells, 8)
    assert [len(r) for r in rows] == [6, 6] and rows[1][-1] is None
    assert [c for row in rows for c in row if c is not None] == cells
    assert sheet_boxes.balanced_rows(cells[:8], 8) == (tuple(cells[:8]),)
    assert sheet_boxes.balanced_rows([], 8) == ()
    assert sheet_boxes.difference_text(2001, None) == "2001+"
