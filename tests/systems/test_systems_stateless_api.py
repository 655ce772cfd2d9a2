"""The stateless tools of api-v1-systems: entered dice, W40K Dynamics, Warhammer Battle VP."""
import pytest

pytestmark = pytest.mark.django_db

ORDERS = ["deplacement-tactique", "marche-forcee", "tir", "assaut", "frappe-en-profondeur"]


def post(anon, path, body, lang="en"):
    return anon.post(path, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def refused(anon, path, body, code):
    """The 400 in both languages: the same code, a message translated into French."""
    en, fr = post(anon, path, body), post(anon, path, body, lang="fr")
    assert (en.status_code, fr.status_code) == (400, 400), (en.json(), fr.json())
    assert en.json()["code"] == fr.json()["code"] == code
    assert en.json()["detail"] != fr.json()["detail"]
    return en.json(), fr.json()


def faces(rolls):
    return [face for roll in rolls for face in roll["dice"]]


# Dice thrown at the table -------------------------------------------------------------------

def test_mission_roll_with_the_seeded_faces_gives_the_seeded_answer(anon):
    for seed in range(12):
        seeded = post(anon, "/api/v1/missions/roll/", {"level": "gamma", "on_six": "special", "seed": seed}).json()
        entered = post(anon, "/api/v1/missions/roll/",
                       {"level": "gamma", "on_six": "special", "dice": seeded["rolls"]}).json()
        assert entered == {**seeded, "seed": None}


def test_pregame_with_the_seeded_faces_gives_the_seeded_answer(anon):
    for mission, level in [("accrochage", "gamma"), ("le-defi", "omega"), ("assaut-general", "alpha")]:
        body = {"mission": mission, "level": level, "players": ["Ann", "Bob"]}
        seeded = post(anon, "/api/v1/missions/pregame/", {**body, "seed": 41}).json()
        entered = post(anon, "/api/v1/missions/pregame/", {**body, "dice": faces(seeded["rolls"]) + [6, 6]}).json()
        assert entered == {**seeded, "seed": None, "unused_dice": [6, 6]}


def test_dice_roll_with_entered_faces(anon):
    body = post(anon, "/api/v1/dice/roll/", {"expression": "2D6x3", "purpose": "night", "dice": [4, 5, 1]}).json()
    assert body["roll"]["dice"] == [4, 5] and body["roll"]["total"] == 27
    assert body["unused_dice"] == [1] and body["seed"] is None
    d3 = post(anon, "/api/v1/dice/roll/", {"expression": "D3+3", "dice": [2]}).json()
    assert d3["roll"]["total"] == 5 and "unused_dice" not in d3


def test_game_length_with_entered_faces(anon):
    body = post(anon, "/api/v1/dice/game-length/", {"dice": [5, 2]}).json()
    assert body["turns"] == 7 and [r["total"] for r in body["rolls"]] == [5, 2]


def test_too_few_dice(anon):
    en, fr = refused(anon, "/api/v1/missions/pregame/",
                     {"mission": "accrochage", "level": "alpha", "players": ["A", "B"], "dice": [1, 2]},
                     "dice_missing")
    assert "dés" in fr["detail"]
    refused(anon, "/api/v1/dice/roll/", {"expression": "2D6", "dice": [3]}, "dice_missing")
    refused(anon, "/api/v1/missions/roll/", {"level": "alpha", "on_six": "reroll", "dice": []}, "dice_missing")


def test_a_face_outside_the_die(anon):
    en, _ = refused(anon, "/api/v1/dice/roll/", {"expression": "D6", "dice": [7]}, "dice_invalid")
    assert "7" in en["detail"] and "D6" in en["detail"]
    refused(anon, "/api/v1/dice/roll/", {"expression": "D3", "dice": [4]}, "dice_invalid")
    refused(anon, "/api/v1/missions/roll/", {"level": "alpha", "on_six": "reroll", "dice": [0]}, "dice_invalid")


def test_seed_and_dice_together_are_refused(anon):
    refused(anon, "/api/v1/dice/roll/", {"expression": "D6", "dice": [3], "seed": 1}, "seed_and_dice")


@pytest.mark.parametrize("dice", [["x"], [1.5], "3", [[1]], {"a": 1}])
def test_malformed_dice_are_a_400(anon, dice):
    assert post(anon, "/api/v1/dice/roll/", {"expression": "D6", "dice": dice}).status_code == 400


# W40K Dynamics ------------------------------------------------------------------------------

def test_tokens_for_the_seed_example(anon):
    # « pour une bataille de 1500pts, il faut un minimum de 6 pions de chaque type d'ordre ».
    body = post(anon, "/api/v1/dynamics/tokens/", {"points": 1500}).json()
    assert body == {"points": 1500, "per_order": 6, "orders": dict.fromkeys(ORDERS, 6), "total": 30, "sheets": 1}
    assert list(body["orders"]) == ORDERS


def test_tokens_rounding(anon):
    assert post(anon, "/api/v1/dynamics/tokens/", {"points": 1850}).json()["per_order"] == 8
    floor = post(anon, "/api/v1/dynamics/tokens/", {"points": 1850, "rounding": "floor"}).json()
    assert (floor["per_order"], floor["total"], floor["sheets"]) == (7, 35, 2)


@pytest.mark.parametrize("points", [0, -250])
def test_tokens_need_positive_points(anon, points):
    refused(anon, "/api/v1/dynamics/tokens/", {"points": points}, "points_not_positive")


@pytest.mark.parametrize("body", [{}, {"points": "many"}, {"points": 1500, "rounding": "round"},
                                  {"points": 10**12}])
def test_tokens_bad_bodies(anon, body):
    assert post(anon, "/api/v1/dynamics/tokens/", body).status_code == 400


def test_passes(anon):
    units = [
        {"name": "Tactical Squad", "initiative": 4},
        {"name": "Command Squad", "models_initiative": [4, 4, 5, 5]},  # tie: mean 4.5 → 4
        {"name": "Rhino", "vehicle": {"driver_initiative": 4, "types": ["tank", "transport"],
                                      "carried_initiative": 4}},
        {"name": "Land Speeder", "vehicle": {"driver_initiative": 4, "types": ["skimmer", "fast"]}},
        {"name": "Baneblade", "vehicle": {"driver_initiative": 2, "types": ["super_heavy"]}},
        {"name": "Lost"},
    ]
    body = post(anon, "/api/v1/dynamics/passes/", {"units": units}).json()
    assert [(u["name"], u["pass"], u["warnings"]) for u in body["units"]] == [
        ("Tactical Squad", 4, []), ("Command Squad", 4, []), ("Rhino", 4, []), ("Land Speeder", 6, []),
        ("Baneblade", 1, ["initiative_clamped"]), ("Lost", None, ["initiative_missing"])]
    assert body["reveal"] == [1, 4, 6] and body["resolve"] == [6, 4, 1]
    assert body["by_pass"] == {"1": ["Baneblade"], "4": ["Tactical Squad", "Command Squad", "Rhino"],
                               "6": ["Land Speeder"]}


@pytest.mark.parametrize("body", [
    {}, {"units": "all"}, {"units": [{"initiative": 4}]},
    {"units": [{"name": "X", "vehicle": {"driver_initiative": 4, "types": ["walker"]}}]},
    {"units": [{"name": "X", "vehicle": {"types": ["tank"]}}]},
    {"units": [{"name": "X", "models_initiative": ["fast"]}]},
])
def test_passes_bad_bodies(anon, body):
    assert post(anon, "/api/v1/dynamics/passes/", body).status_code == 400


def test_advantage_with_entered_dice_and_a_tie(anon):
    body = {"players": ["Ann", "Bob"], "bonus_now": "Bob", "permanent": "Ann", "dice": [3, 4, 5, 2, 6]}
    answer = post(anon, "/api/v1/dynamics/advantage/", body).json()
    # 3 + 2 = 4 + 1: a tie, rolled again (every die listed); then 5 + 2 against 2 + 1.
    assert answer["rolls"] == [
        {"player": "Ann", "die": 3, "modifier": 2, "score": 5}, {"player": "Bob", "die": 4, "modifier": 1, "score": 5},
        {"player": "Ann", "die": 5, "modifier": 2, "score": 7}, {"player": "Bob", "die": 2, "modifier": 1, "score": 3}]
    assert answer["winner"] == "Ann" and answer["unused_dice"] == [6]


def test_advantage_by_seed_is_reproducible_and_replays_with_its_faces(anon):
    body = {"players": ["Ann", "Bob"], "permanent": "Bob"}
    seeded = post(anon, "/api/v1/dynamics/advantage/", {**body, "seed": 99}).json()
    assert post(anon, "/api/v1/dynamics/advantage/", {**body, "seed": 99}).json() == seeded
    dice = [roll["die"] for roll in seeded["rolls"]]
    assert post(anon, "/api/v1/dynamics/advantage/", {**body, "dice": dice}).json() == {**seeded, "seed": None}
    assert all(r["modifier"] == (2 if r["player"] == "Bob" else 0) for r in seeded["rolls"])


def test_advantage_refusals(anon):
    refused(anon, "/api/v1/dynamics/advantage/", {"players": ["Ann", "Bob"], "dice": [3, 3]}, "dice_missing")
    refused(anon, "/api/v1/dynamics/advantage/", {"players": ["Ann", "Bob"], "dice": [3, 9]}, "dice_invalid")
    refused(anon, "/api/v1/dynamics/advantage/", {"players": ["Ann", "Bob"], "bonus_now": "Cid"},
            "player_not_in_test")
    refused(anon, "/api/v1/dynamics/advantage/", {"players": ["Ann", "Ann"]}, "players_not_distinct")
    assert post(anon, "/api/v1/dynamics/advantage/", {"players": ["Ann"]}).status_code == 400


def test_morale(anon):
    # « 25% ou plus de pertes en suspens » (default) against the F.A.Q.'s « plus de 25% ».
    body = {"models_at_start": 8, "pending_from_shooting": 2}
    assert post(anon, "/api/v1/dynamics/morale/", body).json() == {
        "test_required": True, "fraction": 0.25, "minimum_casualties": 2}
    assert post(anon, "/api/v1/dynamics/morale/", {**body, "rule": "more_than"}).json() == {
        "test_required": False, "fraction": 0.25, "minimum_casualties": 3}


def test_morale_refusals(anon):
    en, fr = refused(anon, "/api/v1/dynamics/morale/", {"models_at_start": 5, "pending_from_shooting": 6},
                     "pending_out_of_range")
    assert "5" in fr["detail"] and "figurines" in fr["detail"]
    refused(anon, "/api/v1/dynamics/morale/", {"models_at_start": 0, "pending_from_shooting": 0}, "models_not_positive")
    for body in ({}, {"models_at_start": 5}, {"models_at_start": 5, "pending_from_shooting": 1, "rule": "half"}):
        assert post(anon, "/api/v1/dynamics/morale/", body).status_code == 400


@pytest.mark.parametrize(("mission", "role"), [
    ("le-defi", "attacker"), ("attaque-eclair", "attacker"), ("assassinat", "attacker"),
    ("assaut-general", "defender"), ("renforts", None), ("accrochage", None),
])
def test_dynamics_pregame(anon, mission, role):
    body = {"mission": mission, "level": "gamma", "players": ["Ann", "Bob"], "seed": 8}
    standard = post(anon, "/api/v1/missions/pregame/", body).json()
    dynamics = post(anon, "/api/v1/missions/pregame/", {**body, "turn_system": "dynamics"}).json()
    assert "permanent_advantage" not in standard
    assert dynamics["goes_first"] is None and dynamics["first_turn_chooser"] is None
    assert "first_turn" not in {r["purpose"] for r in dynamics["rolls"]}
    assert dynamics["rolls"] == [r for r in standard["rolls"] if r["purpose"] != "first_turn"]
    holder = {"attacker": dynamics["attacker"], "defender": dynamics["defender"]}.get(role)
    assert dynamics["permanent_advantage"] == holder
    if role:
        assert holder == standard["goes_first"]


def test_pregame_unknown_turn_system(anon):
    body = {"mission": "accrochage", "level": "alpha", "players": ["A", "B"], "turn_system": "igougo"}
    assert post(anon, "/api/v1/missions/pregame/", body).status_code == 400
    refused(anon, "/api/v1/missions/pregame/", {**body, "turn_system": "dynamics", "players": ["A", "A"]},
            "players_not_distinct")


# Warhammer Battle victory points ------------------------------------------------------------

WFB = "/api/v1/whfb/victory-points/"


def test_whfb_victory_points_with_looting_baggage_and_the_oms_preset(anon):
    sides = [{"name": "Empire", "losses": [{"name": "Knights", "points": 300, "looting": True},
                                          {"name": "Halberdiers", "points": 150}]},
             {"name": "Orcs", "victory_points": 900}]
    body = post(anon, WFB, {"sides": sides, "baggage_captured_by": "Empire", "preset": "oms-2011"}).json()
    assert body == {
        "sides": [{"name": "Empire", "victory_points": 200, "baggage_bonus": 200},
                  {"name": "Orcs", "victory_points": 900, "baggage_bonus": 0}],
        "difference": 700, "winner": "Orcs", "tournament_points": {"Empire": 7, "Orcs": 13}}


def test_whfb_without_a_table_has_no_tournament_points(anon):
    body = post(anon, WFB, {"sides": [{"name": "A", "victory_points": 10}, {"name": "B", "victory_points": 10}],
                           "baggage_captured_by": None}).json()
    assert body["winner"] is None and body["difference"] == 0 and "tournament_points" not in body


def test_whfb_first_band_is_a_draw(anon):
    table = [[0, 99, 3, 3], [100, None, 5, 1]]
    sides = [{"name": "A", "victory_points": 150}, {"name": "B", "victory_points": 100}]
    draw = post(anon, WFB, {"sides": sides, "table": table}).json()
    assert draw["tournament_points"] == {"A": 3, "B": 3} and draw["winner"] is None
    sides[0]["victory_points"] = 200
    win = post(anon, WFB, {"sides": sides, "table": table}).json()
    assert win["tournament_points"] == {"A": 5, "B": 1} and win["winner"] == "A"


def test_whfb_refusals(anon):
    two = [{"name": "A"}, {"name": "B"}]
    en, fr = refused(anon, WFB, {"sides": two, "table": [[0, 100, 10, 10], [150, None, 20, 0]]},
                     "vp_table_invalid")
    assert "2" in en["detail"] and "tranche" in fr["detail"]
    refused(anon, WFB, {"sides": two, "table": [[0, 100, 10, 10]]}, "vp_table_invalid")
    refused(anon, WFB, {"sides": two, "table": ["a"]}, "vp_table_invalid")
    refused(anon, WFB, {"sides": two, "preset": "etc"}, "preset_unknown")
    refused(anon, WFB, {"sides": two, "preset": "oms-2011", "table": [[0, None, 1, 1]]}, "table_and_preset")
    refused(anon, WFB, {"sides": two, "baggage_captured_by": "C"}, "baggage_captor_unknown")
    refused(anon, WFB, {"sides": [{"name": "A"}, {"name": "A"}]}, "side_names_duplicate")


@pytest.mark.parametrize("body", [
    {}, {"sides": [{"name": "A"}]}, {"sides": [{"name": "A"}, {"name": "B"}, {"name": "C"}]},
    {"sides": [{"name": "A", "victory_points": -5}, {"name": "B"}]},
    {"sides": [{"name": "A", "losses": [{"name": "x"}]}, {"name": "B"}]},
    {"sides": [{"name": "A"}, {"name": "B"}], "table": "oms"},
])
def test_whfb_bad_bodies(anon, body):
    assert post(anon, WFB, body).status_code == 400
