"""Rosters written by other people through the API (issue #11 §7): base64 and multipart uploads.

The files are read from ``../shared/real-rosters/`` (next to the repository) at run time; the
tests are skipped without that folder. Expected values come from the files themselves (see
tests/lists/test_real_rosters.py).
"""
from __future__ import annotations

import base64
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tournament_fixtures import (
    API,
    client_for,
    create_tournament,
    expect,
    make_user,
    register,
    set_status,
)

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "real-rosters"

if not CORPUS.is_dir():
    pytest.skip(f"no real-roster corpus at {CORPUS} (it sits next to the repository)",
                allow_module_level=True)

pytestmark = pytest.mark.django_db


def validate(client, name: str, points_limit: int, **extra):
    encoded = base64.b64encode((CORPUS / name).read_bytes()).decode()
    body = {"chart": "w40k4-standard", "points_limit": points_limit, "roster": encoded, **extra}
    return client.post(f"{API}/lists/validate/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr")


def test_a_legal_9th_edition_roster_is_valid_with_one_warning():
    # kr-9th-wendigo.ros: 2 HQ, 4 Troops, 2 Elites, 3 Fast Attack, 2 Heavy Support, 2,000 pts.
    body = expect(validate(client_for(), "kr-9th-wendigo.ros", 2000), 200)
    assert body["valid"] is True
    assert body["total_points"] == 2000
    assert {slot: row["count"] for slot, row in body["slots"].items()} == {
        "hq": 2, "troops": 4, "elites": 2, "fast_attack": 3, "heavy_support": 2}
    assert [w["code"] for w in body["warnings"]] == ["other_game_system"]
    assert "Warhammer 40,000 9th Edition" in body["warnings"][0]["message"]
    assert not {"Battle Size", "Plague Company", "Detachment Command Cost"} & {
        u["name"] for u in body["units"]}


def test_battlescribe_201_roster_gets_its_slots_through_the_api():
    # pw-test.ros: 3 HQ (one too many for the standard chart), 6 Troops, 3/3/3, 1,138 pts.
    body = expect(validate(client_for(), "pw-test.ros", 1500, roster_format="ros"), 200)
    assert [e["code"] for e in body["errors"]] == ["slot_above_max"]
    assert body["slots"]["troops"]["count"] == 6
    assert body["total_points"] == 1138
    assert [w["code"] for w in body["warnings"]] == ["other_game_system"]


def test_pasted_10th_edition_text_is_read_with_an_edition_warning():
    text = (CORPUS / "jc-10th-world-eaters.txt").read_text(encoding="utf-8")
    response = client_for().post(
        f"{API}/lists/validate/", {"chart": "w40k4-standard", "points_limit": 2000, "roster": text},
        format="json", HTTP_ACCEPT_LANGUAGE="fr")
    body = expect(response, 200)
    assert body["total_points"] == 1990
    edition = [w for w in body["warnings"] if w["code"] == "other_edition"]
    assert len(edition) == 1 and "autre édition" in edition[0]["message"]
    # One warning per unit without a slot: the reader's, not the validator's again.
    assert "entry_without_slot" not in [w["code"] for w in body["warnings"]]


def test_uncompressed_rosz_uploaded_to_the_player_list_with_the_stated_format():
    staff = client_for(make_user("to", staff=True))
    slug = create_tournament(staff, points_limit=2000)["slug"]
    set_status(staff, slug, "registration_open")
    player = client_for(make_user("magnus"))
    player_id = register(player, slug, "Magnus")["id"]
    upload = SimpleUploadedFile("ps-8th-notzipped.rosz", (CORPUS / "ps-8th-notzipped.rosz").read_bytes(),
                                content_type="application/octet-stream")
    response = player.put(f"{API}/tournaments/{slug}/players/{player_id}/list/",
                          {"roster_file": upload, "roster_format": "rosz"}, format="multipart")
    body = expect(response, 200)
    assert body["roster_format"] == "ros"
    assert body["total_points"] == 1315
    assert len(body["units"]) == 9
    assert {slot: row["count"] for slot, row in body["slots"].items() if row["count"]} == {
        "hq": 2, "troops": 3, "elites": 2}
