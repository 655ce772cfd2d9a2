"""Import rules found with rosters written by other people (issue #11 §7), on small inputs.

The real files are tested in test_real_rosters.py (skipped without the corpus); these tests keep
each rule covered without it.
"""
from __future__ import annotations

import json

from django.utils import translation

from armylists.messages import render_problem
from armylists.roster.app_export import looks_like_app_export
from armylists.roster.edition import edition_markers
from armylists.roster.payload import detect_format
from armylists.roster.selections import whole_points
from armylists.roster.warnings import merge_warnings
from armylists.validation import Problem

from .rosters import W40K4, fixture_bytes, make_zip, parse, summary, warning_codes

ROS_201 = b"""<?xml version="1.0" encoding="UTF-8"?>
<roster battleScribeVersion="2.01" gameSystemName="Warhammer 40,000 4th Edition"
        xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <costs><cost name="pts" value="230.0"/></costs>
  <forces><force name="Combined Arms">
    <selections>
      <selection name="Hive Tyrant" type="model" number="1">
        <costs><cost name="pts" value="150.0"/></costs>
        <categoryLinks>
          <categoryLink name="New CategoryLink" targetId="keyword-monster" primary="false"/>
          <categoryLink name="New CategoryLink" targetId="hq-entry" primary="false"/>
        </categoryLinks>
      </selection>
      <selection name="Termagants" type="unit" number="1">
        <costs><cost name="pts" value="80.0"/></costs>
        <categoryLinks>
          <categoryLink name="New CategoryLink" targetId="troops-id" primary="true"/>
          <categoryLink name="New CategoryLink" targetId="elites-entry" primary="false"/>
        </categoryLinks>
      </selection>
      <selection name="Hive Fleet" type="upgrade" number="1">
        <categoryLinks><categoryLink name="New CategoryLink" targetId="nfos-entry"/></categoryLinks>
      </selection>
    </selections>
    <categories>
      <category id="hq-id" name="HQ" entryId="hq-entry"/>
      <category id="troops-id" name="Troops" entryId="troops-entry"/>
      <category id="elites-id" name="Elites" entryId="elites-entry"/>
      <category id="nfos-id" name="No Force Org Slot" entryId="nfos-entry"/>
    </categories>
  </force></forces>
</roster>
"""


def selection(name, kind, points, category, models=0):
    children = [{"name": "m", "type": "model", "number": models}] if models else []
    return {"name": name, "type": kind, "costs": [{"name": "pts", "value": points}],
            "categories": [{"name": category, "primary": True}], "selections": children}


def test_battlescribe_201_category_links_resolve_through_the_force_categories():
    roster = parse(ROS_201, expected_game_system_aliases=W40K4)
    # A link to a category the roster does not list (a keyword) is ignored; a primary link wins;
    # links resolve by the category's entryId or its id; the free "No Force Org Slot" pick goes.
    assert summary(roster) == [("Hive Tyrant", "hq", 150, 1), ("Termagants", "troops", 80, 1)]
    assert roster.warnings == ()


def test_category_links_in_newrecruit_json_and_the_wrapper_game_system():
    document = {"gameSystemName": "Warhammer 40,000 10th Edition", "roster": {"forces": [{
        "categories": [{"id": "c1", "entryId": "e1", "name": "Heavy Support"}],
        "selections": [{"name": "Exocrine", "type": "model", "number": 1,
                        "costs": [{"name": "pts", "value": 170}],
                        "categoryLinks": [{"targetId": "e1"}]}],
    }]}}
    roster = parse(json.dumps(document), expected_game_system_aliases=W40K4)
    assert summary(roster) == [("Exocrine", "heavy_support", 170, 1)]
    assert roster.game_system == "Warhammer 40,000 10th Edition"
    assert [w.code for w in roster.warnings] == ["other_game_system"]


def test_the_signature_wins_over_a_stated_format():
    ros = fixture_bytes("eldar.ros")
    assert parse(ros, "rosz").format == "ros"
    assert parse(make_zip({"army.ros": ros}), "ros").format == "rosz"
    assert parse(fixture_bytes("space_marines_en.txt"), "ros").format == "battlescribe_text"
    assert summary(parse(ros, "rosz")) == summary(parse(ros))


def test_free_configuration_picks_are_not_units():
    document = {"roster": {"forces": [{"selections": [
        selection("Detachment CP", "upgrade", 0, "No Force Org Slot"),
        selection("Dynasty Choice", "upgrade", 0, "Configuration"),
        selection("Stratagem: Relics", "upgrade", 0, "Stratagems"),
        selection("Cenobyte Servitors", "upgrade", 6, "No Force Org Slot"),
        selection("Required Unit", "unit", 0, "Elites"),
        selection("Boy", "model", 0, "Operative", models=1),
        selection("Rhino", "model", 0, "Dedicated Transport", models=1),
    ]}]}}
    roster = parse(json.dumps(document))
    assert [entry.name for entry in roster.entries] == [
        "Cenobyte Servitors", "Required Unit", "Boy", "Rhino"]


def test_fractional_costs_round_half_up_and_raise_no_false_mismatch():
    assert [whole_points(x) for x in (0.5, 1.5, 2.5, 2.49, 0.0)] == [1, 2, 3, 2, 0]
    units = [selection(f"Half {i}", "unit", 0.5, "Troops") for i in range(3)]
    roster = parse(json.dumps({"roster": {"costs": [{"name": "pts", "value": 1.5}],
                                          "forces": [{"selections": units}]}}))
    assert [entry.points for entry in roster.entries] == [1, 1, 1]
    assert roster.warnings == ()


def test_later_edition_markers_in_pasted_text():
    text = ("++ Army Roster (Chaos - World Eaters) [415pts] ++\n\n+ Configuration +\n\n"
            "Battle Size: 2. Strike Force (2000 Point limit)\n\nDetachment Choice: Berzerker Warband\n\n"
            "+ Epic Hero +\n\nAngron [415pts]\n\n++ Total: [415pts] ++\n")
    roster = parse(text)
    assert warning_codes(roster) == [("other_edition", None), ("unknown_category", "Angron")]
    assert roster.warnings[0].params["markers"] == (
        "Battle Size: 2. Strike Force (2000 Point limit)",
        "Detachment Choice: Berzerker Warband", "+ Epic Hero +")
    for fixture in ("space_marines_en.txt", "orks_fr.txt"):
        assert edition_markers(fixture_bytes(fixture).decode()) == ()
    assert edition_markers("+ Configuration +\nBattle Size [0pts]\n") == ()
    assert edition_markers("++ Battalion Detachment +5CP (Space Marines) [1,000pts] ++") != ()


APP_EXPORT = """Strike List (205 Points)

Space Marines
Gladius Task Force
Incursion (1000 Points)

CHARACTERS

Captain (80 Points)
  • Warlord
  • 1x Bolt pistol
    1x Master-crafted power weapon

BATTLELINE

Intercessor Squad (80 Points)
  • 1x Intercessor Sergeant
     • 1x Bolt rifle
  • 4x Intercessor
     • 4x Bolt rifle

DEDICATED TRANSPORTS

Rhino (45 Points)

Exported with App Version: v1.7.0 (23), Data Version: v304
"""


def test_official_app_export_is_read_as_pasted_text():
    assert looks_like_app_export(APP_EXPORT)
    assert detect_format(APP_EXPORT.encode()) == "battlescribe_text"
    roster = parse(APP_EXPORT)
    assert roster.format == "battlescribe_text"
    assert summary(roster) == [
        ("Captain", None, 80, 1), ("Intercessor Squad", None, 80, 5), ("Rhino", None, 45, 1)]
    assert warning_codes(roster) == [
        ("other_edition", None), ("unknown_category", "Captain"),
        ("unknown_category", "Intercessor Squad"), ("no_slot_category", "Rhino")]
    # The header's "(N Points)" is the list's total; the battle size line is not a unit.
    wrong_total = parse(APP_EXPORT.replace("(205 Points)", "(300 Points)"))
    assert wrong_total.warnings[-1] == Problem(
        "total_mismatch", None, {"declared": 300, "computed": 205})


def test_merge_keeps_one_warning_per_problem():
    reader = [Problem("unknown_category", None, {"name": "Knight", "category": "Lord of War"}),
              Problem("unknown_category", None, {"name": "Knight", "category": "Lord of War"}),
              Problem("points_missing", None, {"name": "Captain"})]
    validator = [Problem("entry_without_slot", None, {"name": "Knight"}),
                 Problem("entry_without_slot", None, {"name": "Rhino"}),
                 Problem("entry_zero_points", "hq", {"name": "Captain"}),
                 Problem("entry_zero_points", "troops", {"name": "Guard"})]
    assert merge_warnings(reader, validator) == [
        reader[0], reader[2], validator[1], validator[3]]


def test_other_edition_message_in_both_languages():
    params = {"markers": ["Strike Force (2000 Points)", "BATTLELINE"]}
    with translation.override("en"):
        english = render_problem("other_edition", None, params, {})
    with translation.override("fr"):
        french = render_problem("other_edition", None, params, {})
    assert "“Strike Force (2000 Points)”, “BATTLELINE”" in english
    assert "«\u00a0Strike Force (2000 Points)\u00a0», «\u00a0BATTLELINE\u00a0»" in french
    assert english != french
