"""The Urban War table sheet (seed 002): both commandos with their follow-up boxes, the set-up
sequence, the initiative per turn and the result on the front; the scenario and the D10 reference
card on the back (a second page per table).

Packs are built by the task (eager) and read back with poppler, as in test_system_packs.py.
"""
from __future__ import annotations

import io
import re
import statistics
from collections.abc import Sequence
from types import SimpleNamespace

import pytest
from django.utils import translation

from armylists.models import Chart, GameSystem
from armylists.systems import rules_for
from events.audit import SYSTEM
from events.models import Player, Round, Tournament
from events.services import lists, rounds, tournaments
from events.systems import all_event_rules
from printing.data import (
    CORE_BLOCKS,
    BandCell,
    PackContent,
    PackHeader,
    ScenarioBox,
    Side,
    TableSheet,
    VpTableBox,
)
from printing.render import render_forms, render_job, render_pack, whole_document
from printing.services import mission_pack, sheet_boxes
from systems.urban_war import sheet_boxes as urban_war_sheet
from systems.urban_war import table_rules as engine
from systems.urban_war.sheet import CommandosBox, CommandoText, ModelLine
from tests.printing.test_mission_packs import page_pixels, pdf_pages_text
from tests.printing.test_system_packs import (
    assert_not_blank,
    built_pdf,
    content_queries,
    flat,
    layout_lines,
    media,  # noqa: F401  (fixture)
)

TICK = "☐"
# Player 0's commando: a commander at CAL 2 and models of every calibre the card offers.
SQUAD = [{"profile": "43101", "cal": 2, "commander": True, "label": "Sgt"},
         {"profile": "43101", "cal": 1, "label": "Hicks"},
         {"profile": "43101", "cal": 0, "label": "Hudson"},
         {"profile": "43101", "cal": 2, "label": "Vasquez"}]
CARD_POINTS = {0: 20, 1: 26, 2: 33}  # seed 002, card 43101 verso


def urban_war_event(name: str = "Sprawl Night", *, language: str = "en",
                    settings: dict | None = None) -> Tournament:
    return tournaments.create_tournament(
        SYSTEM, name=name, game_system=GameSystem.objects.get(slug="urban-war"),
        chart=Chart.objects.get(slug="urban-war-commando"), points_limit=250, rounds=4,
        language=language, status="registration_open", **({"settings": settings} if settings else {}))


def register(tournament: Tournament, count: int) -> list[Player]:
    return [tournaments.register_player(SYSTEM, tournament, name=f"Ripley{i:02d} Uw",
                                        club=f"Nostromo{i:02d}") for i in range(count)]


def store_commando(tournament: Tournament, player: Player, models: Sequence[dict]) -> None:
    rules = rules_for("urban-war")
    data = lists.system_list_data(tournament, tournament.chart, rules, {"models": list(models)})
    lists.submit_system_list(SYSTEM, player, role="", rules=rules, data=data)


def marines(count: int, prefix: str = "Marine") -> list[dict]:
    """``count`` models, the first one the commander, calibres 0, 1, 2 in turn."""
    return [{"profile": "43101", "cal": i % 3, "commander": i == 0, "label": f"{prefix}{i:02d}"}
            for i in range(count)]


def urban_war_round(players: int = 4, *, language: str = "en", scenario: str = "",
                    commandos: dict[int, list[dict]] | None = None,
                    settings: dict | None = None) -> Round:
    """Round 1 of an Urban War event; ``commandos`` by player index (default: player 0 has
    SQUAD, player 1 a 20-model commando, the others none)."""
    tournament = urban_war_event(language=language, settings=settings)
    people = register(tournament, players)
    if commandos is None:
        commandos = {0: SQUAD, 1: marines(20)}
    for index, models in commandos.items():
        store_commando(tournament, people[index], models)
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    if scenario:
        Round.objects.filter(pk=round_.pk).update(scenario=scenario)
        round_.refresh_from_db()
    return round_


def pages_by_table(pdf: bytes, round_: Round) -> dict[int, tuple[int, int]]:
    """Each table's front and back page numbers (1-based; cover and pairings come first)."""
    tables = [g.table for g in round_.games.order_by("table") if not g.is_bye]
    assert len(pdf_pages_text(pdf)) == 2 + 2 * len(tables)
    return {table: (3 + 2 * i, 4 + 2 * i) for i, table in enumerate(tables)}


def model_row(lines: list[str], label: str) -> str:
    """The printed row holding ``label`` (as a whole word: Marine01 is not Marine010)."""
    found = [line for line in lines if re.search(rf"(^|\s){re.escape(label)}(\s|$)", line)]
    assert len(found) == 1, (label, found)
    return found[0]


def model_cells(row: str, label: str) -> list[str]:
    """The cells printed after ``label`` in its row: card number, name, CAL, FS, points, boxes."""
    return row.split(f"{label} ", 1)[1].split()


# --- the sheet --------------------------------------------------------------------------------

@pytest.mark.django_db
def test_urban_war_front_prints_both_commandos_setup_initiative_and_result(media):  # noqa: F811
    round_ = urban_war_round()
    pdf = built_pdf(round_, media)
    pages = pages_by_table(pdf, round_)
    stored = {"Ripley00 Uw": SQUAD, "Ripley01 Uw": marines(20)}  # by urban_war_round
    for game in round_.games.select_related("player_a", "player_b"):
        front, back = pages[game.table]
        lines = layout_lines(pdf, front)
        text = flat(pdf_pages_text(pdf)[front - 1])  # wrapped cells read whole
        assert game.player_a.name in text and game.player_b.name in text
        for player in (game.player_a, game.player_b):
            models = stored.get(player.name)
            if models is None:
                assert "No commando submitted: write it in." in text
                continue
            points = sum(CARD_POINTS[m["cal"]] for m in models)
            assert f"Total {points} points, {len(models)} models" in text
            for model in models:
                label = model["label"]
                shown = f"★ {label}" if model.get("commander") else label
                row = model_row(lines, shown)
                cells = model_cells(row, shown)
                cal = model["cal"]
                # card, name, CAL, FS (= CAL on card 43101), points, then one box per CAL
                assert cells[:5] == ["43101", "Colonial", "Marine", str(cal), str(cal)], cells
                assert cells[5] == str(CARD_POINTS[cal])
                boxes = cells[6] if cal else ""
                assert boxes == TICK * cal, (label, cells)
        listed = sum(p.name in stored for p in (game.player_a, game.player_b))
        assert text.count("★") == 1 + listed  # the legend, then one commander per commando
        # U-R15, the set-up sequence as the seed gives it
        assert "the highest chooses his table edge" in text
        assert "the player who did not choose the side decides who deploys first" in text
        assert 'within 6" of your table edge, at ground level' in text
        assert "the highest chooses who starts" in text
        # U-R10/U-R11: ten turns of initiative with the commander's −1
        turns = lines[line_index(lines, "Turn 1 2")]
        assert re.findall(r"\d+", turns) == [str(n) for n in range(1, 11)]
        assert "−1 when your commander is panicked or dead" in text
        assert text.count("☐ −1") == 20
        # U-R16, UG4: whose commando was destroyed, points destroyed, the mode at time
        assert "Commando destroyed" in text and "neither (at time)" in text
        assert "the points of the enemy models each player destroyed" in text
        assert "the game is a draw" in text
        assert "Victory points" in text and "Winner" in text and "Signatures" in text
        assert "d10 reference card" not in text.lower()  # on the back
        back_text = flat(pdf_pages_text(pdf)[back - 1])
        assert str(game.table) in back_text and "d10 reference card" in back_text.lower()
        assert "The organisers announce the scenario" in back_text
        assert_not_blank(pdf, front)
        assert_not_blank(pdf, back)


def line_index(lines: list[str], text: str) -> int:
    return next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.django_db
def test_the_back_carries_the_d10_reference_card_from_the_seed(media):  # noqa: F811
    round_ = urban_war_round(2, scenario="Hold the plaza: the game ends after 6 turns.",
                             settings={"result_mode": "most_points_destroyed"})
    pdf = built_pdf(round_, media)
    front, back = pages_by_table(pdf, round_)[1]
    lines = layout_lines(pdf, back)
    text = flat(pdf_pages_text(pdf)[back - 1])  # wrapped cells read whole
    assert "Hold the plaza: the game ends after 6 turns." in text
    expected = {  # U-R12, U-R13 (seed 002: TIRER, COMBAT RAPPROCHÉ, Armure Lourde, commandement)
        "Shooting: to hit": "10+ ‡", "Shooting: to wound": "6+ ‡",
        "Cover save, solid obstacle": "6+", "Cover save, flimsy obstacle": "8+",
        "Heavy armour (+N)": "10+", "Close combat: to hit": "6+ ‡",
        "Close combat: to wound": "6+ ‡",
        "Command test": "15 or more; an",
    }
    for roll, success in expected.items():
        assert success in lines[line_index(lines, roll)], (roll, lines[line_index(lines, roll)])
    assert "15 or more; an unmodified 5 or less always fails" in text
    assert "+1 if the target's SZ is 4 or more" in text and "−2 if panicked" in text
    assert "+ AS, − the enemy's AS, +1 if it charged" in text
    # U-R14: range bands and the moved shooter's penalty
    distances = lines[line_index(lines, "Distance (base edges)")]
    assert distances.endswith('base contact up to 12" 12–24" 24–36" 36–48"')
    moved = lines[line_index(lines, "To hit if the shooter")]
    assert moved.endswith("— −1 −2 −3 −4")
    assert "+1 within 9\" of the commander" in text and "+2 to shoot at another target" in text
    assert "+3 if the model charged" in text
    assert "An unmodified 1 always fails; an unmodified 10 always succeeds." in text
    assert "1D10 each, −1 if the commander is panicked or dead" in text
    assert "the player who destroyed more points wins" in flat(pdf_pages_text(pdf)[front - 1])
    assert_not_blank(pdf, back)


@pytest.mark.django_db
def test_commandos_are_read_once_per_pack():
    def round_with(players: int) -> Round:
        return urban_war_round(players, commandos={i: marines(6 + i, f"M{i}x")
                                                   for i in range(players)})

    small, few = content_queries(round_with(2))
    Round.objects.all().delete()  # one event at a time: the second is created afresh
    large, many = content_queries(round_with(12))
    assert len(large.sheets) == 6 and few == many  # no query per table
    boxes = [b for s in large.sheets for b in s.boxes if isinstance(b, CommandosBox)]
    assert len(boxes) == 6 and {b.rows for b in boxes} == {20}  # one form for the round
    assert sum(len(b.a.models) + len(b.b.models) for b in boxes) == sum(6 + i for i in range(12))


@pytest.mark.django_db
def test_urban_war_sheets_stamped_look_like_the_sheets_laid_out_whole():
    content = mission_pack.pack_content(urban_war_round(4, scenario="Night raid."))
    stamped = io.BytesIO()
    render_pack(content, stamped)
    whole = render_job(whole_document(content))
    for page in (3, 4, 5, 6):  # front and back of both tables
        a, b = page_pixels(stamped.getvalue(), page, 40), page_pixels(whole, page, 40)
        differing = sum(abs(x - y) > 64 for x, y in zip(a, b, strict=True))
        assert differing < 0.0005 * len(a), (page, differing)
        assert statistics.pvariance(a) > 200


@pytest.mark.django_db
def test_a_french_urban_war_pack_builds(media):  # noqa: F811
    round_ = urban_war_round(2, language="fr")
    pdf = built_pdf(round_, media)
    front, back = pages_by_table(pdf, round_)[1]
    text = flat(pdf_pages_text(pdf)[front - 1])
    assert "Joueur" in text and "★ Sgt" in text and "43101" in text
    assert "15" in flat(pdf_pages_text(pdf)[back - 1])


@pytest.mark.parametrize(("language", "rows"), [("en", 20), ("fr", 20),
                                                ("fr", urban_war_sheet.MAX_ROWS)])
@pytest.mark.django_db
def test_two_20_model_commandos_fit_the_front_and_the_longest_scenario_the_back(language, rows):
    """The longest texts: 20 models a side (and the most rows a sheet prints) with long labels,
    options and big calibres, long names, and a 5,000-character scenario with an 11-band
    victory-point table on the back."""
    tournament = urban_war_event(language=language)
    models = tuple(ModelLine(f"★ {'L' * 40}" if i == 0 else "L" * 40, "C" * 60, "20", "20", "999",
                             urban_war_sheet.follow_up_boxes(20)) for i in range(rows))
    commando = CommandoText("N" * 60, models, "T" * 120)
    scenario = "\n".join(["Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "
                          "eiusmod tempor incididunt ut labore et dolore magna."] * 40)[:5000]
    with translation.override(language):
        boxes = (CommandosBox(rows, commando, commando), urban_war_sheet.setup_box(),
                 urban_war_sheet.initiative_box([SimpleNamespace(name="N" * 60)] * 2),
                 urban_war_sheet.outcome_box(tournament),
                 ScenarioBox(scenario, written=True), urban_war_sheet.reference_box(),
                 VpTableBox(sheet_boxes.balanced_rows([BandCell("10001–12000", "20 : 0")] * 11,
                                                      8)))
        rules = all_event_rules()["urban-war"]
        sheets = tuple(TableSheet(n, None, Side("N" * 60, "C" * 60, "F" * 60),
                                  Side("N" * 60, "C" * 60, "F" * 60), (), rules.sheet_blocks,
                                  boxes, rules.back_blocks) for n in (1, 2))
    header = PackHeader(language, "E" * 80, 12, "", "31 December 2026", (), system="Urban War",
                        points_limit=250)
    forms = render_forms(PackContent(header, (), {}, sheets))  # raises if a page spills over
    assert len(forms.layouts) == 2  # one form (both tables alike): its front and its back
    front, back = ({s.name for s in layout} for layout in forms.layouts)
    last = rows - 1
    assert {f"uw_a{last}_label", f"uw_b{last}_follow_ups", "uw_a_total", "uw_init_b"} <= front
    assert back == {"back_table"}


# --- the registry and helpers (no database) ---------------------------------------------------

def test_urban_war_names_blocks_a_template_prints_front_and_back():
    rules = all_event_rules()["urban-war"]
    assert rules.sheet_blocks[-1] == "result" and rules.back_blocks
    for name in (*rules.sheet_blocks, *rules.back_blocks):
        assert name in CORE_BLOCKS or name in sheet_boxes.BUILDERS, name
    assert all(not r.back_blocks for slug, r in all_event_rules().items() if slug != "urban-war")


def test_follow_up_boxes_are_one_per_calibre():
    assert urban_war_sheet.follow_up_boxes(0) == ""
    assert urban_war_sheet.follow_up_boxes(2) == TICK * 2
    assert urban_war_sheet.follow_up_boxes(7) == TICK * 5 + " +2"


def test_a_commando_longer_than_the_sheet_prints_its_first_models_and_says_so():
    entries = tuple({**m, "points": CARD_POINTS[m["cal"]], "fs": m["cal"]} for m in marines(31))
    stored = urban_war_sheet.StoredCommando(entries, valid=False)
    with translation.override("en"):
        text = urban_war_sheet.commando_text("Ripley", stored, {}, urban_war_sheet.MAX_ROWS)
    assert len(text.models) == urban_war_sheet.MAX_ROWS and text.models[0].label == "★ Marine00"
    assert text.total == ("Total 810 points, 31 models (the list is not valid); "
                          "3 models are not printed")
    assert text.models[1].card == "43101" and text.models[2].follow_ups == TICK * 2


def test_the_reference_card_is_worded_from_the_engine_data():
    with translation.override("en"):
        card = urban_war_sheet.reference_box()
    assert [r.success.split()[0].rstrip("+") for r in card.rolls] == [
        str(row.target) for row in engine.REFERENCE_CARD]
    assert [b.moved for b in card.bands] == ["—", "−1", "−2", "−3", "−4"]
    assert urban_war_sheet.signed(engine.COMMANDER_DOWN) == "−1"
