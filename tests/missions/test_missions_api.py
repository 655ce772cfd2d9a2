"""The Cities of Death catalogue and stateless tools through the API (api-v1, rules §2–§8)."""
import pytest

pytestmark = pytest.mark.django_db

STANDARD = ["accrochage", "position-strategique", "domination", "offensive-majeure", "assaut-urbain"]
SPECIAL = ["le-defi", "devastation-totale", "renforts", "assaut-general", "attaque-eclair", "assassinat"]


def post(anon, path, body, lang="en"):
    return anon.post(path, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def test_missions_catalogue(anon):
    missions = anon.get("/api/v1/missions/").json()
    assert [m["slug"] for m in missions] == STANDARD + SPECIAL
    assert [m["d6"] for m in missions[:5]] == [1, 2, 3, 4, 5]
    assert {m["kind"] for m in missions[5:]} == {"special"}
    vp = {m["slug"] for m in missions if m["uses_victory_points"]}
    assert vp == {"offensive-majeure", "attaque-eclair", "assassinat"}
    assert all(m["roles"] == ["attacker", "defender"] for m in missions[5:])
    assert all(m["roles"] == [] for m in missions[:5])


def test_mission_names_in_french_and_english(anon):
    en = {m["slug"]: m["name"] for m in anon.get("/api/v1/missions/").json()}
    fr = {m["slug"]: m["name"] for m in anon.get("/api/v1/missions/", HTTP_ACCEPT_LANGUAGE="fr").json()}
    assert fr["position-strategique"] == "Position Stratégique"
    assert en["position-strategique"] != fr["position-strategique"]


def test_stratagems_catalogue(anon):
    stratagems = anon.get("/api/v1/stratagems/").json()
    assert len(stratagems) == 23
    by_category = {}
    for s in stratagems:
        by_category.setdefault(s["category"], []).append(s["slug"])
    assert {k: len(v) for k, v in by_category.items()} == {
        "batiments-strategiques": 7, "coups-tordus": 6, "arsenal": 4, "obstacles": 3, "deploiement": 3}
    assert "rats-degouts" in by_category["deploiement"]


def test_mission_roll_is_reproducible_and_well_formed(anon):
    body = {"level": "gamma", "on_six": "special", "seed": 1234}
    first = post(anon, "/api/v1/missions/roll/", body).json()
    assert post(anon, "/api/v1/missions/roll/", body).json() == first
    assert first["seed"] == 1234 and first["level"] == "gamma" and first["stratagems_per_player"] == 2
    rolls = first["rolls"]
    assert all(1 <= r <= 6 for r in rolls)
    if rolls[0] == 6:
        assert len(rolls) == 2 and first["mission"]["slug"] == SPECIAL[rolls[1] - 1]
    else:
        assert rolls == [rolls[0]] and first["mission"]["slug"] == STANDARD[rolls[0] - 1]


def test_mission_roll_over_seeds_reaches_every_standard_mission_and_rerolls_sixes(anon):
    seen = set()
    for seed in range(60):
        body = post(anon, "/api/v1/missions/roll/", {"level": "alpha", "on_six": "reroll", "seed": seed}).json()
        assert body["rolls"][-1] != 6 and all(r == 6 for r in body["rolls"][:-1])
        assert body["mission"]["kind"] == "standard"
        seen.add(body["mission"]["slug"])
    assert seen == set(STANDARD)


def test_mission_roll_without_seed_returns_the_seed_used(anon):
    body = post(anon, "/api/v1/missions/roll/", {"level": "omega", "on_six": "reroll"}).json()
    again = post(anon, "/api/v1/missions/roll/", {"level": "omega", "on_six": "reroll", "seed": body["seed"]}).json()
    assert again == body
    assert body["stratagems_per_player"] == 3


@pytest.mark.parametrize("body", [{"level": "delta", "on_six": "reroll"}, {"level": "alpha", "on_six": "maybe"},
                                  {"on_six": "reroll"}, {"level": "alpha", "on_six": "reroll", "seed": -1}])
def test_mission_roll_bad_bodies(anon, body):
    assert post(anon, "/api/v1/missions/roll/", body).status_code == 400


def infantry(name, points, start, left, **extra):
    return {"name": name, "points": points, "type": "infantry", "starting_models": start,
            "remaining_models": left, **extra}


def vp(anon, mission, a_units, b_units, roles=(None, None)):
    sides = [{"name": "A", "role": roles[0], "units": a_units}, {"name": "B", "role": roles[1], "units": b_units}]
    return post(anon, "/api/v1/victory-points/", {"mission": mission, "sides": sides})


def test_victory_points_25_percent_threshold(anon):
    # §5.2/§7.6: below 25% concedes half; exactly 25% (4 of 16) concedes nothing and stays operational.
    body = vp(anon, "offensive-majeure",
              [infantry("Exactly 25%", 200, 16, 4), infantry("Below 25%", 201, 16, 3)],
              [infantry("Intact", 100, 10, 10), infantry("Wiped", 150, 10, 0)]).json()
    a, b = body["sides"]
    assert [(u["operational"], u["conceded"]) for u in a["units"]] == [(True, 0), (False, 100)]
    assert [(u["operational"], u["conceded"]) for u in b["units"]] == [(True, 0), (False, 150)]
    # Offensive Majeure: enemy losses plus own operational units still on the table.
    assert a["victory_points"] == 150 + 200
    assert b["victory_points"] == 100 + 100
    assert body["winner"] == "A" and body["margin"] == 150


def test_vehicles_characters_and_falling_back(anon):
    units = [
        {"name": "Rhino", "points": 50, "type": "vehicle", "vehicle_damage": "damaged"},
        {"name": "Predator", "points": 121, "type": "vehicle", "vehicle_damage": "destroyed"},
        {"name": "Chaplain", "points": 90, "type": "character", "starting_wounds": 4, "remaining_wounds": 0},
        infantry("Running", 75, 10, 8, falling_back=True),
    ]
    body = vp(anon, "offensive-majeure", units, [infantry("X", 10, 1, 1)]).json()
    conceded = [u["conceded"] for u in body["sides"][0]["units"]]
    assert conceded == [25, 121, 90, 75]
    assert body["sides"][1]["victory_points"] == 25 + 121 + 90 + 75 + 10


def test_assassination_scores_only_the_attackers_survivors(anon):
    body = vp(anon, "assassinat", [infantry("Strike", 100, 5, 5)], [infantry("Guard", 100, 10, 10)],
              roles=("attacker", "defender")).json()
    points = {s["name"]: s["victory_points"] for s in body["sides"]}
    assert points == {"A": 100, "B": 0}


def test_blitz_doubles_the_defender_and_scores_exits(anon):
    attacker = [infantry("Gone", 100, 10, 0), infantry("Out", 80, 10, 10, exited=True)]
    body = vp(anon, "attaque-eclair", attacker, [infantry("Line", 60, 10, 10)],
              roles=("attacker", "defender")).json()
    points = {s["name"]: s["victory_points"] for s in body["sides"]}
    assert points["B"] == 2 * 100 + 60
    assert points["A"] == 80
    assert body["winner"] == "B"


@pytest.mark.parametrize("body, status", [
    ({"mission": "offensive-majeure", "sides": [{"name": "A", "units": []}]}, 400),
    ({"mission": "nope", "sides": [{"name": "A", "units": []}, {"name": "B", "units": []}]}, 400),
])
def test_victory_points_malformed_bodies(anon, body, status):
    assert post(anon, "/api/v1/victory-points/", body).status_code == status


def test_more_remaining_than_starting_is_400_with_a_message(anon):
    response = vp(anon, "offensive-majeure", [infantry("Clones", 100, 5, 6)], [])
    assert response.status_code == 400
    assert "Clones" in response.json()["detail"]


def check(anon, mission, level, stratagems, role=None, lang="en"):
    body = {"mission": mission, "level": level, "stratagems": stratagems, "role": role}
    return post(anon, "/api/v1/stratagems/check/", body, lang=lang).json()


def test_stratagem_allowance_by_level(anon):
    assert check(anon, "accrochage", "alpha", ["piege"])["legal"] is True
    over = check(anon, "accrochage", "alpha", ["piege", "barricades"])
    assert [e["code"] for e in over["errors"]] == ["stratagem_limit"]
    assert check(anon, "accrochage", "omega", ["piege", "barricades", "sapeurs"])["legal"] is True


def test_stratagem_duplicate_and_forbidden(anon):
    assert [e["code"] for e in check(anon, "domination", "gamma", ["piege", "piege"])["errors"]] == ["stratagem_duplicate"]
    blitz = check(anon, "attaque-eclair", "gamma", ["frappe-en-profondeur"], role="attacker")
    assert [e["code"] for e in blitz["errors"]] == ["stratagem_forbidden"]


def test_special_mission_exceptions(anon):
    # Renforts: the defender gets one extra Key Building (§8.4).
    assert check(anon, "renforts", "alpha", ["piege", "sanctuaire"], role="defender")["legal"] is True
    assert check(anon, "renforts", "alpha", ["piege", "sapeurs"], role="defender")["legal"] is False
    # Assaut Général: a free Preliminary Bombardment for the attacker (§8.5).
    assert check(anon, "assaut-general", "alpha", ["bombardement-preliminaire", "piege"], role="attacker")["legal"]
    assert not check(anon, "assaut-general", "alpha", ["bombardement-preliminaire", "piege"], role="defender")["legal"]
    # Dévastation Totale: the attacker may take Mined Building more than once (§8.3).
    assert check(anon, "devastation-totale", "gamma", ["batiment-mine", "batiment-mine"], role="attacker")["legal"]
    # ... and the defender fortifies outside his quota.
    assert check(anon, "devastation-totale", "alpha", ["fortifications", "fortifications", "piege"], role="defender")["legal"]


def test_stratagem_messages_in_french(anon):
    body = check(anon, "attaque-eclair", "gamma", ["infiltrateurs"], role="defender", lang="fr")
    assert "Infiltrateurs" in body["errors"][0]["message"]


def test_unknown_stratagem_is_reported(anon):
    body = check(anon, "accrochage", "alpha", ["orbital-strike"])
    assert [e["code"] for e in body["errors"]] == ["stratagem_unknown"]


def test_pregame_rolls(anon):
    body = {"mission": "assassinat", "level": "gamma", "players": ["Ana", "Ben"], "seed": 7}
    first = post(anon, "/api/v1/missions/pregame/", body).json()
    assert post(anon, "/api/v1/missions/pregame/", body).json() == first
    assert {first["attacker"], first["defender"]} == {"Ana", "Ben"}
    assert first["goes_first"] == first["attacker"]  # §8.7: the attacker plays first
    assert all(1 <= d <= 6 for r in first["rolls"] for d in r["dice"])
    assert [r["sequence"] for r in first["rolls"]] == list(range(len(first["rolls"])))


def test_pregame_dawn_and_dusk_only_where_the_level_has_it(anon):
    alpha = post(anon, "/api/v1/missions/pregame/", {"mission": "accrochage", "level": "alpha", "players": ["A", "B"], "seed": 3}).json()
    gamma = post(anon, "/api/v1/missions/pregame/", {"mission": "accrochage", "level": "gamma", "players": ["A", "B"], "seed": 3}).json()
    assert alpha["dawn_dusk"] is None
    assert gamma["dawn_dusk"] in {"none", "turn_1", "from_turn_6"}


def test_table_dice(anon):
    body = post(anon, "/api/v1/dice/roll/", {"expression": "D3+3", "purpose": "traps", "seed": 5}).json()
    assert 4 <= body["roll"]["total"] <= 6
    night = post(anon, "/api/v1/dice/roll/", {"expression": "2D6x3", "seed": 5}).json()["roll"]
    assert night["total"] == 3 * sum(night["dice"])
    assert post(anon, "/api/v1/dice/roll/", {"expression": "D0"}).status_code == 400


def test_decide_objectives(anon):
    flags = post(anon, "/api/v1/missions/accrochage/decide/", {"sides": ["A", "B"], "outcome": {"flags": {"A": 3, "B": 1}}}).json()
    assert flags["winner"] == "A"
    held = post(anon, "/api/v1/missions/renforts/decide/", {
        "sides": ["A", "B"], "roles": {"A": "attacker", "B": "defender"},
        "outcome": {"building_captured": False}}).json()
    assert held["winner"] == "B"
    bad = post(anon, "/api/v1/missions/accrochage/decide/", {"sides": ["A", "B"], "outcome": {"flags": "lots"}})
    assert bad.status_code == 400


def test_victory_points_errors_in_french(anon):
    sides = [{"name": "A", "units": [infantry("Clones", 100, 5, 6)]}, {"name": "B", "units": []}]
    response = post(anon, "/api/v1/victory-points/", {"mission": "offensive-majeure", "sides": sides}, lang="fr")
    assert response.status_code == 400
    assert "Clones" in response.json()["detail"] and "figurines" in response.json()["detail"]


def test_victory_points_margin_band(anon):
    body = {"mission": "offensive-majeure", "points_limit": 1000, "sides": [
        {"name": "A", "units": [infantry("Big", 600, 10, 10)]}, {"name": "B", "units": [infantry("Small", 100, 10, 10)]}]}
    answer = post(anon, "/api/v1/victory-points/", body).json()
    assert answer["margin"] == 500
    assert answer["margin_band"]["slug"] == "massacre"


def test_random_game_length(anon):
    # §7.4: after the last turn a 4+ adds a complete turn; stop on 1-3 or after three extra turns.
    for seed in range(30):
        body = post(anon, "/api/v1/dice/game-length/", {"seed": seed}).json()
        totals = [r["total"] for r in body["rolls"]]
        extra = sum(1 for t in totals if t >= 4)
        assert 1 <= len(totals) <= 3
        assert all(t >= 4 for t in totals[:-1])
        assert body["turns"] == 6 + extra
        assert post(anon, "/api/v1/dice/game-length/", {"seed": seed}).json() == body
