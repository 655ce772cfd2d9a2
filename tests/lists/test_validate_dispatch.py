"""`POST /api/v1/lists/validate/` dispatched by the chart's game system (armylists/systems/):
Warhammer Battle (api-v1-systems "Warhammer Battle advanced rules") and Urban War commandos
("Urban War"), in English and French; fields of another system are warnings, never a 500."""
import pytest

from armylists import systems
from armylists.models import Faction, GameSystem, ProfileCard

pytestmark = pytest.mark.django_db

URL = "/api/v1/lists/validate/"
ON = {"mantlets": True, "stakes": True}


def post(anon, body, lang="en"):
    return anon.post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def answer(anon, body, lang="en"):
    response = post(anon, body, lang)
    assert response.status_code == 200, response.json()
    return response.json()


def codes(data, key="errors"):
    return [p["code"] for p in data[key]]


def refused(anon, body, code):
    en, fr = post(anon, body), post(anon, body, "fr")
    assert (en.status_code, fr.status_code) == (400, 400), (en.json(), fr.json())
    assert en.json()["code"] == fr.json()["code"] == code
    assert en.json()["detail"] != fr.json()["detail"]
    return en.json(), fr.json()


def unit(name, slot, points, unit_type="infantry", models=1, **extra):
    return {"name": name, "slot": slot, "points": points, "unit_type": unit_type, "models": models, **extra}


EMPIRE = [
    unit("General", "lords", 250, "character"),
    unit("Captain", "heroes", 100, "character"),
    unit("Spearmen", "core", 300, models=20, tags=["shields"], options=["mantlets"]),
    unit("Handgunners", "core", 200, models=10, tags=["shooting"], options=["stakes"]),
    unit("Great Cannon", "special", 120, "war_machine", options=["stakes"]),
    unit("Knights", "special", 400, "cavalry", models=5),
    unit("Steam Tank", "rare", 300, "chariot"),
]


def whfb(units, chart="whfb-standard", limit=2000, **extra):
    return {"chart": chart, "points_limit": limit, "units": units, **extra}


def test_whfb_standard_list_with_options(anon):
    data = answer(anon, whfb(EMPIRE, faction="empire", advanced_rules=ON))
    assert data["valid"] is True and data["errors"] == [] and data["warnings"] == []
    # 250 + 100 + (300 + 20×2) + (200 + 10×2) + (120 + 2) + 400 + 300
    assert data["base_points"] == data["total_points"] == 1732
    assert data["surcharges"] == [{"name": "Spearmen", "option": "mantlets", "points": 40},
                                  {"name": "Handgunners", "option": "stakes", "points": 20},
                                  {"name": "Great Cannon", "option": "stakes", "points": 2}]
    assert data["baggage"] is None
    assert data["slots"]["core"] == {"count": 2, "min": 0, "max": None}
    assert set(data) == {"valid", "total_points", "slots", "errors", "warnings", "base_points", "surcharges",
                         "baggage"}


def test_whfb_percentage_limits_only_on_the_standard_chart(anon):
    units = [*EMPIRE, unit("Hellblaster", "rare", 200, "war_machine")]
    en = answer(anon, whfb(units, advanced_rules=ON))
    assert codes(en) == ["slot_above_max_pct"]
    # Rare 500 of 1932 points: 25.9 % (shown rounded down) above 25 %.
    assert en["errors"][0]["params"] == {"points": 500, "percent": 25, "max": 25}
    assert en["errors"][0]["slot"] == "rare"
    assert en["errors"][0]["message"] == "Rare: 500 points (25%); at most 25% allowed."
    fr = answer(anon, whfb(units, advanced_rules=ON), "fr")
    assert "Rares" in fr["errors"][0]["message"] and fr["errors"][0]["message"] != en["errors"][0]["message"]
    assert answer(anon, whfb(units, chart="whfb-open", advanced_rules=ON))["valid"] is True


def test_whfb_core_minimum(anon):
    units = [unit("General", "lords", 200, "character"), unit("Spearmen", "core", 100, models=10),
             unit("Knights", "special", 300, "cavalry", models=5)]
    data = answer(anon, whfb(units, chart="whfb-standard"))
    # Core 100 of 600 points; special at exactly 50 % is allowed.
    assert codes(data) == ["slot_below_min_pct"]
    assert data["errors"][0]["params"] == {"points": 100, "percent": 16, "min": 25}


def test_stakes_only_for_foot_shooters_and_war_machines(anon):
    units = [unit("Knights", "special", 300, "cavalry", models=5, options=["stakes"]),
             unit("Spearmen", "core", 100, models=10, options=["stakes"]),
             unit("Archers", "core", 100, models=10, tags=["shooting"], options=["stakes"]),
             unit("Bolt Thrower", "special", 100, "war_machine", options=["stakes"])]
    data = answer(anon, whfb(units, chart="whfb-open", advanced_rules=ON))
    assert codes(data) == ["option_not_allowed", "option_not_allowed"]
    assert [p["params"]["unit_type"] for p in data["errors"]] == ["cavalry", "infantry"]
    assert data["errors"][0]["message"] == (
        "“Knights”: stakes are only for foot shooting units and war machines, not cavalry.")
    # The surcharge is still shown: 2 per model on every unit that took stakes.
    assert [s["points"] for s in data["surcharges"]] == [10, 20, 20, 2]
    fr = answer(anon, whfb(units, chart="whfb-open", advanced_rules=ON), "fr")
    assert fr["errors"][0]["message"] != data["errors"][0]["message"]


def test_options_the_event_has_not_enabled(anon):
    data = answer(anon, whfb(EMPIRE, faction="empire"))
    assert codes(data) == ["option_disabled", "option_disabled", "option_disabled"]
    assert data["errors"][0]["params"] == {"option": "mantlets", "name": "Spearmen"}


BAGGAGE_ARMY = [unit("General", "lords", 200, "character"), unit("Spearmen", "core", 800, models=40)]


def wagon(points, slot="core"):
    return unit("Baggage train", slot, points, baggage=True)


def test_baggage_extra_allowance_mode(anon):
    rules = {"baggage": True}
    ok = answer(anon, whfb([*BAGGAGE_ARMY, wagon(100)], chart="whfb-open", limit=1000, advanced_rules=rules))
    assert ok["valid"] is True
    assert (ok["base_points"], ok["baggage"], ok["total_points"]) == (1000, {"points": 100, "allowance": 100}, 1100)
    over = answer(anon, whfb([*BAGGAGE_ARMY, wagon(101)], chart="whfb-open", limit=1000, advanced_rules=rules))
    assert codes(over) == ["baggage_over_allowance"]
    assert over["errors"][0]["params"] == {"points": 101, "allowance": 100}


def test_baggage_within_limit_mode(anon):
    rules = {"baggage": True, "baggage_mode": "within_limit"}
    army = [unit("General", "lords", 200, "character"), unit("Spearmen", "core", 700, models=35)]
    ok = answer(anon, whfb([*army, wagon(90)], chart="whfb-open", limit=1000, advanced_rules=rules))
    assert ok["valid"] is True and ok["baggage"] == {"points": 90, "allowance": 90} and ok["total_points"] == 990
    short = answer(anon, whfb([*army, wagon(80)], chart="whfb-open", limit=1000, advanced_rules=rules), "fr")
    assert codes(short) == ["baggage_below_required"]
    assert short["errors"][0]["params"] == {"points": 80, "required": 90}
    assert "90" in short["errors"][0]["message"]
    over = answer(anon, whfb([*army, wagon(150)], chart="whfb-open", limit=1000, advanced_rules=rules))
    assert codes(over) == ["points_over_limit"]
    assert over["errors"][0]["params"] == {"total": 1050, "limit": 1000, "excess": 50}


def test_baggage_must_be_core_and_enabled(anon):
    data = answer(anon, whfb([*BAGGAGE_ARMY, wagon(50, slot="special")], chart="whfb-open", limit=1000))
    assert codes(data) == ["baggage_not_core", "baggage_disabled"]
    assert data["base_points"] == 1000  # baggage entries never count in base_points


@pytest.mark.parametrize("faction", ["vampire-counts", "tomb-kings", "daemons-of-chaos"])
def test_undead_and_daemon_factions_have_no_baggage(anon, faction):
    body = whfb([*BAGGAGE_ARMY, wagon(100)], chart="whfb-open", limit=1000, faction=faction,
                advanced_rules={"baggage": True})
    en, fr = answer(anon, body), answer(anon, body, "fr")
    assert codes(en) == ["baggage_not_allowed"] and en["errors"][0]["params"] == {"faction": faction}
    assert en["errors"][0]["message"] != fr["errors"][0]["message"]
    clean = answer(anon, whfb(BAGGAGE_ARMY, chart="whfb-open", limit=1000, faction=faction,
                             advanced_rules={"baggage": True}))
    assert clean["valid"] is True and clean["baggage"] is None


def test_a_faction_tag_edited_by_staff_changes_the_verdict(anon):
    Faction.objects.filter(game_system__slug="whfb", slug="empire").update(tags=["undead"])
    body = whfb([*BAGGAGE_ARMY, wagon(100)], chart="whfb-open", limit=1000, faction="empire",
                advanced_rules={"baggage": True})
    assert codes(answer(anon, body)) == ["baggage_not_allowed"]


def test_unknown_faction_and_option_are_400(anon):
    en, _fr = refused(anon, whfb(EMPIRE, faction="skaven-clan-pestilens"), "faction_unknown")
    assert "skaven-clan-pestilens" in en["detail"]
    refused(anon, whfb(EMPIRE, faction="viridian"), "faction_unknown")  # an Urban War faction
    en, _fr = refused(anon, whfb([unit("Spearmen", "core", 100, options=["pavise"])]), "option_unknown")
    assert "pavise" in en["detail"] and "Spearmen" in en["detail"]


@pytest.mark.parametrize("body", [
    whfb([{"name": "x", "slot": "core", "points": 10}]),  # unit_type missing
    whfb([unit("x", "core", 10, "dragon")]),
    whfb([unit("x", "core", 10)], advanced_rules={"baggage_mode": "sometimes"}),
    whfb("not a list"),
    {"chart": "whfb-open", "points_limit": 100, "roster": "+ HQ +"},
])
def test_malformed_whfb_bodies_are_400(anon, body):
    assert post(anon, body).status_code == 400


def test_fields_of_other_systems_are_warnings(anon):
    body = whfb(EMPIRE, faction="empire", advanced_rules=ON, models=[{"profile": "43101", "cal": 0}],
                size_min=2)
    body["units"] = [{**u, "cal": 1} for u in body["units"]]
    data = answer(anon, body)
    assert data["valid"] is True
    assert [p["params"]["field"] for p in data["warnings"]] == ["models", "size_min", "units[].cal"]
    assert data["warnings"][0]["message"] == "“models” is not read for the chart whfb-standard; it was ignored."


def test_cities_of_death_lists_ignore_whfb_fields_and_answer_as_before(anon):
    units = [{"name": "Captain", "slot": "hq", "points": 100},
             {"name": "Squad", "slot": "troops", "points": 150, "models": 10},
             {"name": "Squad 2", "slot": "troops", "points": 150, "models": 10}]
    plain = answer(anon, {"chart": "w40k4-standard", "points_limit": 1500, "units": units})
    extra = [{**u, "unit_type": "infantry", "options": ["stakes"]} for u in units]
    mixed = answer(anon, {"chart": "w40k4-standard", "points_limit": 1500, "units": extra,
                         "faction": "empire", "advanced_rules": {"baggage": True}}, "fr")
    assert {k: v for k, v in mixed.items() if k != "warnings"} == {k: v for k, v in plain.items() if k != "warnings"}
    assert plain["warnings"] == []
    assert [p["params"]["field"] for p in mixed["warnings"]] == [
        "faction", "advanced_rules", "units[].options", "units[].unit_type"]
    assert mixed["warnings"][0]["message"] == "«\u00a0faction\u00a0» n'est pas lu pour le schéma w40k4-standard\u00a0; il a été ignoré."


# Urban War ---------------------------------------------------------------------------------------

def marine(cal=0, **extra):
    return {"profile": "43101", "cal": cal, **extra}


def commando(models, limit=250, **extra):
    return {"chart": "urban-war-commando", "points_limit": limit, "models": models, **extra}


SQUAD = [marine(2, commander=True, label="Sgt Rook"), marine(1), marine(1), marine(0), marine(0), marine(0)]


def test_a_legal_commando(anon):
    data = answer(anon, commando(SQUAD))
    assert set(data) == {"valid", "total_points", "models", "follow_up_actions", "commander", "entries",
                         "errors", "warnings"}
    assert data["valid"] is True and data["errors"] == [] and data["warnings"] == []
    assert (data["total_points"], data["models"], data["follow_up_actions"], data["commander"]) == (
        33 + 26 + 26 + 20 * 3, 6, 4, "Sgt Rook")
    assert data["entries"][0] == {"profile": "43101", "label": "Sgt Rook", "cal": 2, "points": 33, "fs": 2, "fu": 2}
    assert data["entries"][1] == {"profile": "43101", "label": "43101-1", "cal": 1, "points": 26, "fs": 1, "fu": 1}
    assert answer(anon, commando(SQUAD), "fr") == data


def test_an_illegal_commando_gives_every_problem(anon):
    models = [marine(3), marine(0, profile=99999), marine(0)]
    en = answer(anon, commando(models, limit=10))
    assert codes(en) == ["points_over_limit", "commando_size_below_min", "commander_missing",
                         "cal_not_available", "unknown_profile"]
    params = {p["code"]: p["params"] for p in en["errors"]}
    # Only the readable cost counts: CAL 3 is N/A and the unknown card costs nothing.
    assert params["points_over_limit"] == {"total": 20, "limit": 10, "excess": 10}
    assert params["commando_size_below_min"] == {"count": 3, "min": 6}
    assert params["cal_not_available"] == {"profile": "43101", "cal": 3, "available": [0, 1, 2]}
    assert params["unknown_profile"] == {"profile": "99999"}
    fr = answer(anon, commando(models, limit=10), "fr")
    assert codes(fr) == codes(en)
    assert all(a["message"] != b["message"] for a, b in zip(en["errors"], fr["errors"], strict=True))
    assert "3" in fr["errors"][1]["message"] and "6" in fr["errors"][1]["message"]


def test_size_bounds_from_the_body_and_commander_multiple(anon):
    models = [marine(0, commander=True), marine(0, commander=True), marine(0)]
    data = answer(anon, commando(models, size_min=2, size_max=2))
    assert codes(data) == ["commando_size_above_max", "commander_multiple"]
    assert data["errors"][0]["params"] == {"count": 3, "max": 2}
    assert data["errors"][1]["params"] == {"count": 2}
    assert answer(anon, commando(models[1:], size_min=2, size_max=2))["valid"] is True
    refused(anon, commando(models, size_min=5, size_max=4), "size_bounds_invalid")


def test_card_options_staff_entered_are_priced(anon):
    ProfileCard.objects.create(
        game_system=GameSystem.objects.get(slug="urban-war"), faction=Faction.objects.get(slug="viridian"),
        card="43102", name_en="Sergeant", name_fr="Sergent",
        stats={"AS": 4, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 5, "SZ": 2, "MV": 4},
        cal_options=[{"cal": 1, "fs": 1, "cost": 30}], options=[{"code": "grenades", "cost": 5}])
    models = [{"profile": "43102", "cal": 1, "options": ["grenades"], "commander": True}, *SQUAD[1:],
              marine(0, options=["grenades"])]
    data = answer(anon, commando(models))
    assert data["entries"][0]["points"] == 35
    assert codes(data) == ["option_not_available"]
    assert data["errors"][0]["params"] == {"profile": "43101", "option": "grenades", "label": "43101-6"}


def test_commando_bodies_of_another_shape(anon):
    assert post(anon, {"chart": "urban-war-commando", "points_limit": 250,
                      "units": [{"name": "x", "slot": None, "points": 10}]}).status_code == 400
    body = commando(SQUAD, faction="viridian", units=[])
    body["models"] = [{**m, "unit_type": "infantry"} for m in SQUAD]
    data = answer(anon, body)
    assert data["valid"] is True
    assert [p["params"]["field"] for p in data["warnings"]] == ["faction", "units", "models[].unit_type"]
    assert post(anon, commando([{"profile": "43101", "cal": -1}])).status_code == 400


def test_the_registry_finds_each_system_by_slug():
    assert systems.rules_for("whfb").slug == "whfb"
    assert systems.rules_for("urban-war").item_key == "models"
    assert systems.rules_for("a-new-chart-game") is systems.DEFAULT
    assert systems.rules_for("w40k4").check.__func__ is systems.DEFAULT.check.__func__  # chart rules
    top, item = systems.foreign_fields(systems.rules_for("w40k4"))
    assert {"faction", "advanced_rules", "models", "size_min", "size_max"} == top
    assert {"unit_type", "tags", "options", "baggage", "profile", "cal", "commander", "label"} == item


@pytest.mark.parametrize("body", [[{"chart": "whfb-open"}], "whfb-open", {"chart": ["whfb-open"]},
                                  {"chart": {"slug": "urban-war-commando"}}, {"chart": "x" * 5000}])
def test_bodies_of_no_known_shape_are_400_not_500(anon, body):
    assert post(anon, body).status_code == 400
