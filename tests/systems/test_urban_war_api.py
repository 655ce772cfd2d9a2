"""POST /api/v1/urban-war/command-test/ (api-v1-systems "Urban War"), in English and French."""
import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/urban-war/command-test/"


def post(anon, body, lang="en"):
    return anon.post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def refused(anon, body, code):
    """The 400 in both languages: the same code, a message translated into French."""
    en, fr = post(anon, body), post(anon, body, lang="fr")
    assert (en.status_code, fr.status_code) == (400, 400), (en.json(), fr.json())
    assert en.json()["code"] == fr.json()["code"] == code
    assert en.json()["detail"] != fr.json()["detail"]
    return en.json(), fr.json()


@pytest.mark.parametrize(("body", "expected"), [
    # « Si le résultat est 15 ou plus, le test de commandement est réussi »: 6 + 5 + CD 4 = 15.
    ({"dice": [6, 5], "cd": 4, "cal": 0}, (11, 15, False, True)),
    ({"dice": [6, 4], "cd": 4, "cal": 0}, (10, 14, False, False)),
    # « Un résultat non modifié de 5 ou moins est toujours un échec », even at 20.
    ({"dice": [3, 2], "cd": 10, "cal": 5}, (5, 20, True, False)),
    ({"dice": [4, 4], "cd": 4, "cal": 2, "modifiers": [1, -1, 2]}, (8, 16, False, True)),
])
def test_command_test_answers_the_contract_fields(anon, body, expected):
    for lang in ("en", "fr"):
        answer = post(anon, body, lang)
        assert answer.status_code == 200
        data = answer.json()
        assert (data["unmodified"], data["total"], data["automatic_failure"], data["passed"]) == expected
        assert data["dice"] == body["dice"] and data["seed"] is None and "unused_dice" not in data


def test_extra_faces_are_reported_unused(anon):
    data = post(anon, {"dice": [9, 9, 3], "cd": 4, "cal": 1}).json()
    assert data["unused_dice"] == [3] and data["total"] == 23


def test_a_seed_rolls_the_same_dice_as_entering_them(anon):
    seeded = post(anon, {"seed": 2026, "cd": 5, "cal": 1}).json()
    entered = post(anon, {"dice": seeded["dice"], "cd": 5, "cal": 1}).json()
    assert seeded["seed"] == 2026 and entered == {**seeded, "seed": None}
    assert all(1 <= face <= 10 for face in seeded["dice"]) and len(seeded["dice"]) == 2


def test_the_endpoint_is_public(anon):
    assert post(anon, {"dice": [5, 5], "cd": 4, "cal": 1}).status_code == 200


def test_too_few_faces(anon):
    _, fr = refused(anon, {"dice": [7], "cd": 4, "cal": 0}, "dice_missing")
    assert "dés" in fr["detail"]
    refused(anon, {"dice": [], "cd": 4, "cal": 0}, "dice_missing")


@pytest.mark.parametrize("dice", [[11, 2], [0, 5], [5, -1]])
def test_a_face_no_d10_shows(anon, dice):
    en, _ = refused(anon, {"dice": dice, "cd": 4, "cal": 0}, "dice_invalid")
    assert "D10" in en["detail"]


def test_bad_characteristics(anon):
    en, fr = refused(anon, {"dice": [5, 5], "cd": 11, "cal": 0}, "cd_out_of_range")
    assert "11" in en["detail"] and "11" in fr["detail"]
    refused(anon, {"dice": [5, 5], "cd": 0, "cal": 0}, "cd_out_of_range")
    refused(anon, {"dice": [5, 5], "cd": 4, "cal": -1}, "cal_negative")
    refused(anon, {"dice": [5, 5], "cd": 4, "cal": 0, "seed": 1}, "seed_and_dice")


@pytest.mark.parametrize("body", [
    {"dice": [5, 5], "cal": 0},
    {"dice": [5, 5], "cd": "four", "cal": 0},
    {"dice": [5, 5], "cd": 4, "cal": 0, "modifiers": [1000]},
    {"dice": ["x", 5], "cd": 4, "cal": 0},
    {"dice": [5, 5], "cd": 4, "cal": 0, "modifiers": list(range(21))},
    [1, 2],
])
def test_malformed_bodies_are_400_not_500(anon, body):
    assert post(anon, body).status_code == 400
