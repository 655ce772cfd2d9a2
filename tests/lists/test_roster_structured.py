"""Structured rosters: .ros XML, .rosz archives and NewRecruit JSON."""
from __future__ import annotations

import base64
import json

import pytest

from armylists.roster.reference import load_charts
from armylists.validation import validate

from .rosters import (
    W40K4,
    fixture_bytes,
    make_zip,
    parse,
    reason_of,
    summary,
    warning_codes,
)

# Read off eldar.ros by hand: each unit's points are its own cost plus its children's,
# models are the "number" of model-type selections (1 when there are none).
ELDAR = [
    ("Farseer", "hq", 55 + 20 + 20, 1),
    ("Guardian Defenders", "troops", 80 + 30 + 15, 11),
    ("Dire Avengers", "troops", 28 + 15 + 48, 5),
    ("Wave Serpent", None, 90 + 20, 1),
    ("Fire Dragons", "elites", 80, 5),
    ("Vypers", "fast_attack", 90, 2),
    ("Falcon", "heavy_support", 115 + 35, 1),
    ("War Walker", "heavy_support", 30 + 20, 1),
]
TYRANIDS = [
    ("Hive Tyrant", "hq", 120 + 24, 1),
    ("Termagants", "troops", 128, 16),
    ("Hormagaunts", "troops", 120, 12),
    ("Genestealers", "elites", 96 + 18, 6),
    ("Carnifex", "heavy_support", 86 + 25, 1),
    ("Spore Mines", None, 30, 3),
    ("Gargoyles", "fast_attack", 80, 10),
]


def test_ros_fixture():
    roster = parse(fixture_bytes("eldar.ros"), expected_game_system_aliases=W40K4)
    assert roster.format == "ros"
    assert summary(roster) == ELDAR
    assert roster.game_system == "Warhammer 40,000 4th Edition"
    assert roster.name == "Biel-Tan Strike Force"
    # The free "Force Customization" option is skipped; the transport is kept without a slot.
    assert warning_codes(roster) == [("no_slot_category", "Wave Serpent")]


def test_ros_against_both_strike_and_withdraw_charts():
    entries = parse(fixture_bytes("eldar.ros")).entries
    charts = load_charts()
    assert validate(entries, charts["w40k4-standard"], 1000).valid
    report = validate(entries, charts["strike-and-withdraw-defender"], 1000)
    assert [(p.code, p.slot) for p in report.errors] == [
        ("slot_below_min", "troops"),
        ("slot_forbidden", "fast_attack"),
    ]


@pytest.mark.parametrize(
    "member",
    ["Ma liste — finale (v2).ROS", "rosters/export", "Liste.ros.ros"],
)
def test_rosz_with_odd_member_names(member):
    archive = make_zip({"folder/": b"", member: fixture_bytes("eldar.ros")})
    roster = parse(archive)
    assert roster.format == "rosz"
    assert summary(roster) == ELDAR


def test_rosz_ignores_mac_resource_forks_and_accepts_base64():
    archive = make_zip({"__MACOSX/._army.ros": b"\x00\x05junk", "army.ros": fixture_bytes("eldar.ros")})
    assert summary(parse(archive)) == ELDAR
    assert summary(parse(base64.b64encode(archive).decode())) == ELDAR
    assert summary(parse("data:application/zip;base64," + base64.b64encode(archive).decode(), "rosz")) == ELDAR


def test_rosz_member_choice_errors():
    ros = fixture_bytes("eldar.ros")
    assert reason_of(make_zip({"a.ros": ros, "b.ros": ros})) == "several_ros_in_zip"
    assert reason_of(make_zip({"readme.txt": b"hi", "notes.md": b"x"})) == "no_ros_in_zip"
    assert reason_of(make_zip({})) == "no_ros_in_zip"


def test_newrecruit_json_fixture():
    roster = parse(fixture_bytes("tyranids_newrecruit.json"), expected_game_system_aliases=W40K4)
    assert roster.format == "newrecruit_json"
    assert summary(roster) == TYRANIDS
    assert roster.name == "Essaim de Kraken"
    assert [(w.code, dict(w.params)) for w in roster.warnings] == [
        ("unknown_category", {"name": "Spore Mines", "category": "Fortification"}),
    ]


def test_newrecruit_json_is_lenient_about_missing_keys():
    document = {"roster": {"forces": [{"selections": [
        {"name": "Warboss", "categories": [{"name": "QG", "primary": True}]},
        {"name": "Boyz", "costs": [{"name": "pts", "value": "60.0"}], "categories": "oops",
         "selections": [{"type": "model", "number": "10"}, 7, None]},
        "not a selection",
    ]}]}}
    roster = parse(json.dumps(document))
    assert summary(roster) == [("Warboss", "hq", 0, 1), ("Boyz", None, 60, 10)]
    assert [w.code for w in roster.warnings] == ["no_category"]


def test_xml_to_json_style_containers_and_legacy_category_layout():
    document = {"roster": {"forces": {"force": {"categories": {"category": [
        {"name": "Troops", "selections": {"selection": {"name": "Guardians", "costs": {"cost": {"name": "pts", "value": 80}}}}},
    ]}}}}}
    assert summary(parse(json.dumps(document), "newrecruit_json")) == [("Guardians", "troops", 80, 1)]


def test_other_game_system_is_parsed_with_a_warning():
    ros = fixture_bytes("eldar.ros").replace(
        b'gameSystemName="Warhammer 40,000 4th Edition"', b'gameSystemName="Warhammer 40,000 10th Edition"'
    )
    roster = parse(ros, expected_game_system_aliases=W40K4)
    assert summary(roster) == ELDAR
    assert [(w.code, dict(w.params)) for w in roster.warnings][0] == (
        "other_game_system", {"found": "Warhammer 40,000 10th Edition"},
    )
    # Without expectations there is nothing to compare against.
    assert "other_game_system" not in [w.code for w in parse(ros).warnings]


def test_declared_total_mismatch_is_reported():
    ros = fixture_bytes("eldar.ros").replace(b'value="791.0"', b'value="800.0"')
    roster = parse(ros)
    assert [(w.code, dict(w.params)) for w in roster.warnings][-1] == (
        "total_mismatch", {"declared": 800, "computed": 791},
    )


def test_xml_that_is_not_a_roster():
    assert reason_of(b"<?xml version='1.0'?><catalogue name='x'/>") == "not_a_roster"
    assert reason_of(b"<roster><forces>", "ros") == "bad_xml"
    assert reason_of(b"not xml at all", "ros") == "bad_xml"


def test_json_that_is_not_a_roster():
    assert reason_of(b'{"hello": "world"}') == "not_a_roster"
    assert reason_of(b'{"roster": [1, 2]}') == "not_a_roster"
    assert reason_of(b'{"roster": ', "newrecruit_json") == "bad_json"
