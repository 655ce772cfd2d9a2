"""Charts and list validation through the API (api-v1 Reference data and Stateless tools)."""
import base64
import io
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from armylists.models import ArmyList
from tests.tournament_fixtures import LEGAL_UNITS, ROSTER_TEXT

pytestmark = pytest.mark.django_db

ROS_XML = """<?xml version="1.0" encoding="UTF-8"?>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Test" gameSystemName="Warhammer 40,000 4th Edition">
  <forces><force name="Army"><selections>
    <selection name="Captain" type="model" number="1">
      <categories><category name="HQ" primary="true"/></categories>
      <costs><cost name="pts" value="100.0"/></costs>
    </selection>
    <selection name="Tactical Squad" type="unit" number="1">
      <categories><category name="Troops" primary="true"/></categories>
      <selections><selection name="Space Marine" type="model" number="10"><costs><cost name="pts" value="150.0"/></costs></selection></selections>
    </selection>
  </selections></force></forces>
</roster>
"""


def validate(anon, lang="en", **body):
    payload = {"chart": "w40k4-standard", "points_limit": 1500, **body}
    return anon.post("/api/v1/lists/validate/", payload, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def test_charts_list_holds_the_three_required_charts(anon):
    charts = {c["slug"]: c for c in anon.get("/api/v1/charts/").json()}
    assert {"w40k4-standard", "strike-and-withdraw-attacker", "strike-and-withdraw-defender"} <= set(charts)
    standard = {s["slot"]: (s["min"], s["max"]) for s in charts["w40k4-standard"]["slots"]}
    assert standard == {"hq": (1, 2), "troops": (2, 6), "elites": (0, 3),
                        "fast_attack": (0, 3), "heavy_support": (0, 3)}
    attacker = {s["slot"]: (s["min"], s["max"]) for s in charts["strike-and-withdraw-attacker"]["slots"]}
    assert attacker == {"hq": (1, 2), "elites": (2, 6), "troops": (0, 2), "fast_attack": (1, 3)}
    defender = {s["slot"]: (s["min"], s["max"]) for s in charts["strike-and-withdraw-defender"]["slots"]}
    assert defender == {"hq": (1, 1), "troops": (3, 9), "elites": (0, 1), "heavy_support": (0, 3)}
    assert charts["w40k4-standard"]["game_system"] == "w40k4"


def test_chart_names_follow_the_language(anon):
    en = {c["slug"]: c["name"] for c in anon.get("/api/v1/charts/").json()}
    fr = {c["slug"]: c["name"] for c in anon.get("/api/v1/charts/", HTTP_ACCEPT_LANGUAGE="fr").json()}
    assert en["strike-and-withdraw-attacker"] != fr["strike-and-withdraw-attacker"]


def test_legal_list_is_valid(anon):
    body = validate(anon, units=LEGAL_UNITS).json()
    assert body["valid"] is True
    assert body["total_points"] == 380
    assert body["errors"] == []
    assert body["slots"]["troops"] == {"count": 2, "min": 2, "max": 6}


def test_every_problem_is_reported_at_once_in_english(anon):
    units = LEGAL_UNITS + [{"name": f"Leman Russ {i}", "slot": "heavy_support", "points": 400} for i in range(4)]
    body = validate(anon, units=units).json()
    codes = {e["code"] for e in body["errors"]}
    assert codes == {"slot_above_max", "points_over_limit"}
    heavy = next(e for e in body["errors"] if e["code"] == "slot_above_max")
    assert heavy["slot"] == "heavy_support"
    assert heavy["message"].startswith("Heavy Support: 4 choices (Leman Russ 0")
    assert heavy["message"].endswith("this chart allows at most 3.")


def test_messages_in_french(anon):
    units = [{"name": "Captain", "slot": "hq", "points": 100}]
    body = validate(anon, lang="fr", units=units).json()
    troops = next(e for e in body["errors"] if e["code"] == "slot_below_min")
    assert troops["message"].startswith("Troupes")
    assert "au moins 2" in troops["message"]


def test_forbidden_slot_on_strike_and_withdraw(anon):
    units = [{"name": "Captain", "slot": "hq", "points": 100},
             {"name": "Veterans", "slot": "elites", "points": 100},
             {"name": "Veterans 2", "slot": "elites", "points": 100},
             {"name": "Bikes", "slot": "fast_attack", "points": 100},
             {"name": "Devastators", "slot": "heavy_support", "points": 150}]
    body = validate(anon, chart="strike-and-withdraw-attacker", units=units).json()
    assert [e["code"] for e in body["errors"]] == ["slot_forbidden"]


@pytest.mark.parametrize("body, field", [
    ({"chart": "no-such-chart", "points_limit": 1500, "units": LEGAL_UNITS}, "chart"),
    ({"chart": "w40k4-standard", "points_limit": 1500,
      "units": [{"name": "X", "slot": "hq", "points": -5}]}, "units"),
    ({"chart": "w40k4-standard", "units": LEGAL_UNITS}, "points_limit"),
    ({"chart": "w40k4-standard", "points_limit": 1500}, "units"),
])
def test_malformed_bodies_are_400_field_errors(anon, body, field):
    response = anon.post("/api/v1/lists/validate/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()


SLOT_CODES = "hq, troops, elites, fast_attack, heavy_support"


@pytest.mark.parametrize("slot", ["fortification", "HQ", "Troupes", "fast-attack"])
def test_a_unit_in_no_slot_of_the_game_system_is_a_malformed_body(anon, slot):
    units = [*LEGAL_UNITS, {"name": "Bastion", "slot": slot, "points": 100}]
    response = validate(anon, units=units)
    assert response.status_code == 400
    message = f"“{slot}” is not a slot code. Use one of: {SLOT_CODES}, or null."
    # DRF's field map: the faulty unit, by its index, names its field.
    assert response.json() == {"units": {"3": {"slot": [message]}}}
    french = validate(anon, lang="fr", units=units).json()["units"]["3"]["slot"][0]
    assert french.startswith(f"«\u00a0{slot}\u00a0» n'est pas un code d'emplacement")


def test_a_unit_without_a_slot_is_still_checked(anon):
    body = validate(anon, units=[*LEGAL_UNITS, {"name": "Bastion", "slot": None, "points": 100}]).json()
    assert body["total_points"] == 480 and body["valid"] is True


def test_a_stored_list_with_an_unknown_slot_is_refused_and_not_stored(anon):
    anon.force_authenticate(get_user_model().objects.create_user("sloppy", password="x"))
    response = anon.post("/api/v1/lists/", {"chart": "w40k4-standard", "points_limit": 1500,
                                           "units": [{"name": "X", "slot": "lord", "points": 5}]},
                        format="json")
    assert response.status_code == 400 and "slot" in response.json()["units"]["0"]
    assert not ArmyList.objects.exists()


FORTIFIED_ROSTER = ROSTER_TEXT.replace("380pts", "480pts").replace(
    "++ Total", "+ Fortification +\n\nBastion [100pts]\n\n++ Total")


def test_a_roster_category_in_no_slot_stays_a_warning(anon):
    response = validate(anon, roster=FORTIFIED_ROSTER)
    assert response.status_code == 200
    body = response.json()
    assert ("Bastion", None) in [(u["name"], u["slot"]) for u in body["units"]]
    assert [w["code"] for w in body["warnings"]] == ["unknown_category"]
    assert body["valid"] is True and body["total_points"] == 480


def test_pasted_battlescribe_text_is_read(anon):
    body = validate(anon, roster=ROSTER_TEXT).json()
    names = [(u["name"], u["slot"], u["points"]) for u in body["units"]]
    assert names == [("Captain", "hq", 100), ("Tactical Squad", "troops", 180), ("Scout Squad", "troops", 100)]
    assert body["valid"] is True


def test_rosz_as_base64_is_read(anon):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("whatever name.ros", ROS_XML)
    encoded = base64.b64encode(buffer.getvalue()).decode()
    body = validate(anon, roster=encoded, roster_format="rosz").json()
    assert [(u["name"], u["slot"], u["points"], u["models"]) for u in body["units"]] == [
        ("Captain", "hq", 100, 1), ("Tactical Squad", "troops", 150, 10)]
    assert body["roster_format"] == "rosz"


def test_multipart_upload_is_read(anon):
    upload = SimpleUploadedFile("army.ros", ROS_XML.encode(), content_type="application/xml")
    response = anon.post("/api/v1/lists/validate/",
                        {"chart": "w40k4-standard", "points_limit": 1500, "roster_file": upload},
                        format="multipart")
    assert response.status_code == 200
    assert len(response.json()["units"]) == 2


@pytest.mark.parametrize("roster, lang, words", [
    ("just some words", "en", "recognised"),
    (base64.b64encode(b"PK\x03\x04broken").decode(), "en", "zip"),
    ("<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'x'>]><roster>&a;</roster>", "fr", "XML"),
])
def test_unreadable_roster_is_400_with_a_reason(anon, roster, lang, words):
    response = validate(anon, lang=lang, roster=roster)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "roster_unreadable"
    assert words.lower() in body["detail"].lower()


def test_oversized_body_is_400_not_500(anon):
    response = validate(anon, roster="A" * (5 * 1024 * 1024))
    assert response.status_code == 400


def test_stored_lists_are_private_and_versioned(anon):
    owner = get_user_model().objects.create_user("owner", password="x")
    other = get_user_model().objects.create_user("other", password="x")
    anon.force_authenticate(owner)
    created = anon.post("/api/v1/lists/", {"chart": "w40k4-standard", "points_limit": 1500,
                                          "units": LEGAL_UNITS, "name": "Mine"}, format="json")
    assert created.status_code == 201
    list_id = created.json()["id"]
    assert created.json()["valid"] is True
    assert anon.get(f"/api/v1/lists/{list_id}/").json()["report"]["valid"] is True
    anon.force_authenticate(other)
    assert anon.get(f"/api/v1/lists/{list_id}/").status_code == 404
    assert anon.get("/api/v1/lists/").json() == []
    stored = ArmyList.objects.get(pk=list_id)
    assert stored.owner == owner and stored.total_points == 380


def test_stored_roster_keeps_the_raw_upload(anon):
    user = get_user_model().objects.create_user("raw", password="x")
    anon.force_authenticate(user)
    created = anon.post("/api/v1/lists/", {"chart": "w40k4-standard", "points_limit": 1500,
                                          "roster": ROSTER_TEXT}, format="json")
    stored = ArmyList.objects.get(pk=created.json()["id"])
    assert bytes(stored.raw_upload).decode() == ROSTER_TEXT
    assert stored.source_format == "battlescribe_text"
    assert [e["name"] for e in stored.entries] == ["Captain", "Tactical Squad", "Scout Squad"]
