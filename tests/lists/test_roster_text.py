"""BattleScribe text export: English and French fixtures, points and model variants."""
from __future__ import annotations

import base64

import pytest

from armylists.roster.reference import load_charts
from armylists.validation import validate

from .rosters import fixture_bytes, parse, reason_of, summary, warning_codes

# Expected values read off the fixture files by hand (points in brackets, "Nx" sub-lines).
ENGLISH = [
    ("Captain", "hq", 115, 1),
    ("Terminator Squad", "elites", 200, 5),
    ("Tactical Squad", "troops", 190, 10),
    ("Tactical Squad", "troops", 175, 10),
    ("Scout Squad", "troops", 65, 5),
    ("Assault Squad", "fast_attack", 135, 5),
    ("Land Speeder", "fast_attack", 65, 1),
    ("Predator", "heavy_support", 125, 1),
    ("Devastator Squad", "heavy_support", 210, 5),
    ("Rhino", None, 50, 1),
]
FRENCH = [
    ("Big Boss", "hq", 80, 1),
    ("Boyz", "troops", 180, 20),
    ("Boyz", "troops", 150, 15),
    # "Fouettard" has neither a count nor wargear: the documented heuristic does not count it.
    ("Gretchins", "troops", 40, 10),
    ("Kommandos", "elites", 100, 9),
    ("Motos de Guerre", "fast_attack", 75, 3),
    ("Kanon", "heavy_support", 60, 2),
    ("Trukk", None, 35, 1),
]


def test_english_export():
    roster = parse(fixture_bytes("space_marines_en.txt"))
    assert roster.format == "battlescribe_text"
    assert summary(roster) == ENGLISH
    assert warning_codes(roster) == [("no_slot_category", "Rhino")]
    assert roster.game_system is None and roster.name is None


def test_english_export_validates_on_the_standard_chart():
    roster = parse(fixture_bytes("space_marines_en.txt"))
    report = validate(roster.entries, load_charts()["w40k4-standard"], 1500)
    assert report.valid
    assert report.total_points == 1330
    assert report.slots["troops"].count == 3


def test_french_export_with_accented_categories():
    roster = parse(fixture_bytes("orks_fr.txt").decode("utf-8"))
    assert roster.format == "battlescribe_text"
    assert summary(roster) == FRENCH
    assert warning_codes(roster) == [("no_slot_category", "Trukk")]


def test_explicit_format_and_base64_give_the_same_result():
    raw = fixture_bytes("space_marines_en.txt")
    encoded = base64.b64encode(raw).decode("ascii")
    assert summary(parse(raw, "battlescribe_text")) == ENGLISH
    assert summary(parse(encoded)) == ENGLISH
    assert summary(parse(encoded, "battlescribe_text")) == ENGLISH


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ("Captain [90pts]", 90),
        ("Captain [90 pts]", 90),
        ("Captain [5 PL, 90pts]", 90),
        ("Captain [5PL,90pts,1CP]", 90),
        ("Captain [1,090pts]", 1090),
        ("Captain [90 points]: Power sword", 90),
        ("Captain [90.0pts]", 90),
    ],
)
def test_points_variants(line, points):
    roster = parse(f"+ HQ +\n\n{line}\n")
    assert summary(roster) == [("Captain", "hq", points, 1)]


def test_power_level_only_gives_zero_points_and_a_warning():
    roster = parse("+ HQ +\n\nCaptain [5 PL]\n")
    assert summary(roster) == [("Captain", "hq", 0, 1)]
    assert warning_codes(roster) == [("points_missing", "Captain")]


def test_newrecruit_text_variants():
    text = "++ Army [230pts] ++\n\n+ Troops + [230pts]\n\nSpearmen [20] [120pts]\n3x Jetbikes [110pts]\n"
    roster = parse(text)
    assert summary(roster) == [("Spearmen", "troops", 120, 20), ("Jetbikes", "troops", 110, 3)]


def test_unknown_and_missing_categories():
    text = "Stray Unit [10pts]\n+ Fortification +\n\nBunker [40pts]\n"
    roster = parse(text)
    assert summary(roster) == [("Stray Unit", None, 10, 1), ("Bunker", None, 40, 1)]
    assert [(w.code, dict(w.params)) for w in roster.warnings] == [
        ("no_category", {"name": "Stray Unit"}),
        ("unknown_category", {"name": "Bunker", "category": "Fortification"}),
    ]


def test_free_configuration_lines_are_skipped_and_declared_total_checked():
    text = "+ Configuration +\n\nBattle Size [0pts]\n\n+ HQ +\n\nCaptain [90pts]\n\n++ Total: [100pts] ++\n"
    roster = parse(text)
    assert summary(roster) == [("Captain", "hq", 90, 1)]
    assert [(w.code, dict(w.params)) for w in roster.warnings] == [
        ("total_mismatch", {"declared": 100, "computed": 90}),
    ]


def test_text_without_units_is_unreadable():
    assert reason_of("+ HQ +\n\nnothing priced here\n") == "no_units"
    assert reason_of("just some words", "battlescribe_text") == "no_units"
    assert reason_of("just some words") == "unknown_format"
