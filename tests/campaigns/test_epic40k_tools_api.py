"""The stateless Epic 40,000 campaign tools (api-v1-systems "Epic 40,000 campaigns", seed 001)."""
import re

import pytest
from django.utils import translation

from campaigns.messages import MESSAGES, campaign_message

pytestmark = pytest.mark.django_db

BASE = "/api/v1/epic40k"
TOOLS = ["initiative", "planet", "army/validate", "isolation", "score", "other-sectors", "fortifications"]


def post(anon, tool, body, lang="en"):
    return anon.post(f"{BASE}/{tool}/", body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def ok(anon, tool, body):
    response = post(anon, tool, body)
    assert response.status_code == 200, response.json()
    return response.json()


def refused(anon, tool, body, code):
    """The 400 in both languages: the same code, a message translated into French."""
    en, fr = post(anon, tool, body), post(anon, tool, body, lang="fr")
    assert (en.status_code, fr.status_code) == (400, 400), (en.json(), fr.json())
    assert en.json()["code"] == fr.json()["code"] == code
    assert en.json()["detail"] != fr.json()["detail"]
    return en.json(), fr.json()


# Initiative (R16) ---------------------------------------------------------------------------

def test_initiative_of_the_seed_example(anon):
    # « Valeur Stratégique = 5 / 5 / 2 -> 3 / -> 7 mouvements, attaques, réactions »
    assert ok(anon, "initiative", {"strategic_value": 5}) == {
        "strategic_value": 5, "initiative_value": 7, "moves": 7, "attacks": 7, "reactions": 7}
    assert ok(anon, "initiative", {"strategic_value": 0})["initiative_value"] == 4
    assert ok(anon, "initiative", {"strategic_value": 10})["initiative_value"] == 9


def test_initiative_out_of_range(anon):
    en, fr = refused(anon, "initiative", {"strategic_value": 11}, "strategic_value_out_of_range")
    assert "10" in en["detail"] and "stratégique" in fr["detail"]
    refused(anon, "initiative", {"strategic_value": -1}, "strategic_value_out_of_range")
    assert post(anon, "initiative", {"strategic_value": "five"}).status_code == 400
    assert post(anon, "initiative", {}).status_code == 400


# Planet (R5, G3) ----------------------------------------------------------------------------

def test_planet_on_eight_asks_the_organiser(anon):
    body = ok(anon, "planet", {"dice": [4, 4]})
    assert body == {"dice": [4, 4], "total": 8, "planet": None,
                    "candidates": ["agri-monde", "monde-ruche"], "seed": None}
    fixed = ok(anon, "planet", {"dice": [2, 6], "on_eight": "monde-ruche"})
    assert fixed["planet"] == "monde-ruche"
    assert ok(anon, "planet", {"dice": [1, 1]})["planet"] == "monde-demoniaque"
    assert ok(anon, "planet", {"dice": [6, 6]})["candidates"] == ["monde-desertique"]


def test_planet_with_a_seed_replays_with_its_faces(anon):
    for seed in range(6):
        seeded = ok(anon, "planet", {"seed": seed})
        assert seeded["seed"] == seed and seeded["total"] == sum(seeded["dice"])
        assert ok(anon, "planet", {"dice": seeded["dice"]}) == {**seeded, "seed": None}
    assert ok(anon, "planet", {"seed": 4}) == ok(anon, "planet", {"seed": 4})


def test_planet_dice_problems(anon):
    en, fr = refused(anon, "planet", {"dice": [6]}, "dice_missing")
    assert "dés" in fr["detail"]
    refused(anon, "planet", {"dice": [7, 1]}, "dice_invalid")
    refused(anon, "planet", {"dice": [3, 3], "seed": 1}, "seed_and_dice")
    assert ok(anon, "planet", {"dice": [3, 3, 5]})["unused_dice"] == [5]
    assert post(anon, "planet", {"dice": [3, 3], "on_eight": "monde-mort"}).status_code == 400


# Army (R1–R3, G25) --------------------------------------------------------------------------

ARMY = [
    {"name": "HQ", "points": 1500, "kind": "ground", "supreme_commander": True},
    {"name": "Titan", "points": 2000, "kind": "ground", "supreme_commander": True},
    {"name": "Thunderhawks", "points": 1000, "kind": "air", "supreme_commander": False},
    {"name": "Drop", "points": 1000, "kind": "airborne"},
]


def test_army_over_points_and_with_two_supreme_commanders(anon):
    en = post(anon, "army/validate", {"faction": "space-marines", "detachments": ARMY}).json()
    fr = post(anon, "army/validate", {"faction": "space-marines", "detachments": ARMY}, "fr").json()
    assert en["valid"] is False and en["total_points"] == 5500
    assert [(e["code"], e["params"]) for e in en["errors"]] == [
        ("army_points_over", {"total": 5500, "limit": 5000, "excess": 500}),
        ("supreme_commander_limit", {"count": 2, "max": 1}),
    ]
    assert [e["message"] for e in en["errors"]] != [e["message"] for e in fr["errors"]]
    assert "5500" in fr["errors"][0]["message"]


def test_army_tyranid_and_eldar_exception(anon):
    body = ok(anon, "army/validate", {"faction": "eldar", "army_points": 6000, "detachments": ARMY})
    assert body["valid"] is True and body["errors"] == []
    assert [w["code"] for w in body["warnings"]] == ["supreme_commander_exception"]
    tyranids = ok(anon, "army/validate", {"faction": "tyranids", "army_points": 6000, "detachments": ARMY})
    assert tyranids["valid"] is True


def test_army_within_the_default_5000(anon):
    body = ok(anon, "army/validate", {"faction": "orks", "detachments": ARMY[1:]})
    assert body == {"valid": True, "total_points": 4000, "errors": [], "warnings": []}


def test_army_bad_input(anon):
    bad = [{"name": "X", "points": 10, "kind": "naval"}]
    assert post(anon, "army/validate", {"faction": "orks", "detachments": bad}).status_code == 400
    assert post(anon, "army/validate", {"faction": "orks", "detachments": [{"name": "X", "points": -5}]}
                ).status_code == 400
    assert post(anon, "army/validate", {"detachments": []}).status_code == 400


# Isolation (R33, G15) -----------------------------------------------------------------------

def test_isolation(anon):
    assert ok(anon, "isolation", {"control": {}}) == {"isolated": []}
    # East holds west's whole second line: west's front line and east's 4–6 are cut off.
    assert ok(anon, "isolation", {"control": {"4": "east", "5": "east", "6": "east"}}) == {
        "isolated": ["4", "5", "6", "7", "8", "9"]}
    assert ok(anon, "isolation", {"control": {"D": "west"}}) == {"isolated": ["D"]}
    assert ok(anon, "isolation", {"control": {"D": "west", "B": "west"}}) == {"isolated": []}


def test_isolation_bad_input(anon):
    en, _ = refused(anon, "isolation", {"control": {"J": "west"}}, "territory_unknown")
    assert "J" in en["detail"]
    assert post(anon, "isolation", {"control": {"1": "north"}}).status_code == 400
    assert post(anon, "isolation", {"control": ["1"]}).status_code == 400


# Score (R37–R39) ----------------------------------------------------------------------------

def test_score_of_the_digest_examples(anon):
    body = ok(anon, "score", {"events": [
        {"kind": "battle_won", "enemy_points": 2600},
        {"kind": "detachment_lost", "points": 600, "isolated": True, "swept": True},
        {"kind": "detachment_lost", "points": 600, "swept": True},
        {"kind": "detachment_lost", "points": 600},
    ]})
    assert body == {"events": [{"kind": "battle_won", "points": 2},
                               {"kind": "detachment_lost", "points": -3},
                               {"kind": "detachment_lost", "points": -1},
                               {"kind": "detachment_lost", "points": 0}], "total": -2}


def test_score_bad_input(anon):
    en, fr = refused(anon, "score", {"events": [{"kind": "battle_won"}]}, "score_event_incomplete")
    assert "enemy_points" in en["detail"] and "enemy_points" in fr["detail"]
    refused(anon, "score", {"events": [{"kind": "detachment_lost", "swept": True}]}, "score_event_incomplete")
    assert post(anon, "score", {"events": [{"kind": "battle_won", "enemy_points": -1}]}).status_code == 400
    assert post(anon, "score", {"events": [{"kind": "looted"}]}).status_code == 400


# Other sectors (R40, G19) -------------------------------------------------------------------

@pytest.mark.parametrize(("score", "die", "answer"), [
    (12, 6, {"die": 6, "modifier": 1, "modified": 6, "delta": 2, "new_score": 14}),
    (-1, 1, {"die": 1, "modifier": -1, "modified": 1, "delta": -2, "new_score": -3}),
    (0, 3, {"die": 3, "modifier": 0, "modified": 3, "delta": -1, "new_score": -1}),
    (11, 4, {"die": 4, "modifier": 1, "modified": 5, "delta": 1, "new_score": 12}),
])
def test_other_sectors(anon, score, die, answer):
    assert ok(anon, "other-sectors", {"score": score, "die": die}) == {**answer, "seed": None}
    assert ok(anon, "other-sectors", {"score": score, "dice": [die]}) == {**answer, "seed": None}


def test_other_sectors_with_a_seed(anon):
    seeded = ok(anon, "other-sectors", {"score": 5, "seed": 9})
    assert seeded["seed"] == 9
    assert ok(anon, "other-sectors", {"score": 5, "die": seeded["die"]}) == {**seeded, "seed": None}


def test_other_sectors_bad_input(anon):
    refused(anon, "other-sectors", {"score": 0, "die": 7}, "dice_invalid")
    refused(anon, "other-sectors", {"score": 0, "die": 0}, "dice_invalid")
    refused(anon, "other-sectors", {"score": 0, "die": 3, "seed": 1}, "seed_and_dice")
    refused(anon, "other-sectors", {"score": 0, "dice": []}, "dice_missing")
    assert ok(anon, "other-sectors", {"score": 0, "dice": [3, 5]})["unused_dice"] == [5]
    assert post(anon, "other-sectors", {"die": 3}).status_code == 400


# Fortifications (R31) -----------------------------------------------------------------------

def test_fortifications(anon):
    assert ok(anon, "fortifications", {"defender_points": 800, "fortified": True}) == {"fortifications": 3}
    assert ok(anon, "fortifications", {"defender_points": 249, "fortified": True}) == {"fortifications": 0}
    assert ok(anon, "fortifications", {"defender_points": 3000, "fortified": False}) == {"fortifications": 0}
    assert post(anon, "fortifications", {"defender_points": -1, "fortified": True}).status_code == 400
    assert post(anon, "fortifications", {"defender_points": 500}).status_code == 400


# Never a 500 --------------------------------------------------------------------------------

@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("body", [
    [], "text", 5, None, {"dice": "six"}, {"events": [None]}, {"control": {"1": None}},
    {"strategic_value": 10**30}, {"score": 10**30, "die": 10**30}, {"detachments": [[]]},
    {"defender_points": True, "fortified": "maybe"},
])
def test_malformed_bodies_never_get_a_500(anon, tool, body):
    # Every field of planet is optional, so a body of other fields is a plain server roll.
    plain_roll = tool == "planet" and (body is None or isinstance(body, dict) and "dice" not in body)
    expected = 200 if plain_roll else 400
    for lang in ("en", "fr"):
        response = post(anon, tool, body, lang)
        assert response.status_code == expected, (tool, body, response.content[:300])
        assert isinstance(response.json(), dict | list)


# Every campaign code reads as a sentence in both languages -----------------------------------

def test_every_campaign_code_has_an_english_and_a_french_sentence():
    for code, text in MESSAGES.items():
        params = {name: "X" for name in re.findall(r"%\((\w+)\)s", str(text))}
        params.update({"phase": "moves", "options": ["B", "D"]})
        with translation.override("en"):
            english = campaign_message(code, params)
        with translation.override("fr"):
            french = campaign_message(code, params)
        assert english != code and french != code, code
        assert english != french, code
    with translation.override("fr"):
        assert "mouvements" in campaign_message("phase_closed", {"phase": "moves"})
        assert "B, D" in campaign_message("retreat_choice_required", {"detachment": "G", "options": ["B", "D"]})
