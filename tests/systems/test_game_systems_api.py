"""Game systems, factions, profile cards and the charts filter (api-v1-systems "Common to every
system", "Urban War"), and the reference data the 0004 migration loads."""
import pytest

from armylists.models import Chart, Faction, GameSystem, ProfileCard

pytestmark = pytest.mark.django_db

CARD_43101 = {
    "card": "43101", "name": "Colonial Marine", "faction": "viridian",
    "stats": {"AS": 3, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 4, "SZ": 2, "MV": 4},
    "cal_options": [{"cal": 0, "fs": 0, "cost": 20}, {"cal": 1, "fs": 1, "cost": 26},
                    {"cal": 2, "fs": 2, "cost": 33}, {"cal": 3, "fs": None, "cost": None}],
    "options": [],
}
CONTRACT_FACTIONS = {
    "empire": [], "bretonnia": [], "orcs-and-goblins": [], "high-elves": [], "dwarfs": [],
    "vampire-counts": ["undead"], "tomb-kings": ["undead"], "daemons-of-chaos": ["daemon"],
}


def get(anon, url, lang="en"):
    return anon.get(url, HTTP_ACCEPT_LANGUAGE=lang)


def test_game_systems_list_the_four_systems_with_their_kind(anon):
    answer = get(anon, "/api/v1/game-systems/")
    assert answer.status_code == 200
    assert [(s["slug"], s["kind"]) for s in answer.json()] == [
        ("epic40k", "campaign"), ("urban-war", "commando"), ("w40k4", "chart"), ("whfb", "chart")]
    assert all(set(s) == {"slug", "name", "kind"} for s in answer.json())
    names = {s["slug"]: s["name"] for s in answer.json()}
    names_fr = {s["slug"]: s["name"] for s in get(anon, "/api/v1/game-systems/", "fr").json()}
    assert names["w40k4"] == "Warhammer 40,000 (4th edition)"
    assert names_fr["w40k4"] == "Warhammer 40 000 (4e édition)"
    assert names["whfb"] == "Warhammer Battle"


def test_whfb_factions_hold_the_contract_ones_with_their_tags(anon):
    answer = get(anon, "/api/v1/factions/?game_system=whfb")
    assert answer.status_code == 200
    factions = {f["slug"]: f for f in answer.json()}
    assert {slug: factions[slug]["tags"] for slug in CONTRACT_FACTIONS} == CONTRACT_FACTIONS
    assert all(set(f) == {"slug", "name", "tags"} for f in answer.json())
    assert factions["empire"]["name"] == "The Empire"
    french = {f["slug"]: f["name"] for f in get(anon, "/api/v1/factions/?game_system=whfb", "fr").json()}
    assert french["empire"] == "L'Empire" and french["orcs-and-goblins"] == "Orques & Gobelins"


def test_factions_are_filtered_by_game_system(anon):
    epic = {f["slug"]: f["tags"] for f in get(anon, "/api/v1/factions/?game_system=epic40k").json()}
    assert epic["tyranids"] == ["supreme_commander_exception"] == epic["eldar"]
    assert epic["space-marines"] == [] and epic["orks"] == []
    assert [f["slug"] for f in get(anon, "/api/v1/factions/?game_system=urban-war").json()] == ["viridian"]
    # The 4th edition armies (armylists 0005): organisers may still allow free text.
    w40k4 = {f["slug"] for f in get(anon, "/api/v1/factions/?game_system=w40k4").json()}
    assert {"space-marines", "imperial-guard", "eldar", "orks", "tyranids", "tau", "necrons"} <= w40k4
    every = get(anon, "/api/v1/factions/").json()
    assert len(every) == Faction.objects.count() > len(epic)


def test_profiles_give_card_43101_exactly_as_the_seed(anon):
    answer = get(anon, "/api/v1/profiles/?game_system=urban-war")
    assert answer.status_code == 200
    assert answer.json() == [CARD_43101]
    assert get(anon, "/api/v1/profiles/?game_system=urban-war", "fr").json() == [CARD_43101]
    assert get(anon, "/api/v1/profiles/?game_system=whfb").json() == []


def test_a_card_staff_add_is_served_with_its_options(anon):
    system = GameSystem.objects.get(slug="urban-war")
    ProfileCard.objects.create(
        game_system=system, faction=Faction.objects.get(slug="viridian"), card="43102",
        name_en="Marine Sergeant", name_fr="Sergent marine",
        stats={"AS": 4, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 5, "SZ": 2, "MV": 4},
        cal_options=[{"cal": 1, "fs": 1, "cost": 30}, {"cal": 2, "fs": 2, "cost": None}],
        options=[{"code": "grenades", "name_en": "Grenades", "name_fr": "Grenades à main", "cost": 5},
                 {"code": "jetpack", "name_en": "Jet pack", "name_fr": "Réacteur dorsal", "cost": None}],
    )
    cards = {c["card"]: c for c in get(anon, "/api/v1/profiles/?game_system=urban-war", "fr").json()}
    assert list(cards) == ["43101", "43102"]
    assert cards["43102"]["name"] == "Sergent marine"
    assert cards["43102"]["options"] == [{"code": "grenades", "name": "Grenades à main", "cost": 5},
                                         {"code": "jetpack", "name": "Réacteur dorsal", "cost": None}]
    assert cards["43102"]["cal_options"][1] == {"cal": 2, "fs": 2, "cost": None}


def test_charts_filter_by_game_system(anon):
    def slugs(system):
        return [c["slug"] for c in get(anon, f"/api/v1/charts/?game_system={system}").json()]

    assert slugs("whfb") == ["whfb-open", "whfb-standard"]
    assert slugs("urban-war") == ["urban-war-commando"]
    assert slugs("w40k4") == ["strike-and-withdraw-attacker", "strike-and-withdraw-defender", "w40k4-standard"]
    assert slugs("epic40k") == []
    every = [c["slug"] for c in get(anon, "/api/v1/charts/").json()]
    assert len(every) == 6 and set(every) == {*slugs("whfb"), *slugs("urban-war"), *slugs("w40k4")}
    standard = next(c for c in get(anon, "/api/v1/charts/?game_system=whfb").json() if c["slug"] == "whfb-open")
    assert standard["slots"] == [{"slot": s, "min": 0, "max": None}
                                 for s in ("lords", "heroes", "core", "special", "rare")]


@pytest.mark.parametrize("url", ["/api/v1/charts/", "/api/v1/factions/", "/api/v1/profiles/"])
def test_an_unknown_game_system_is_a_400_in_the_readers_language(anon, url):
    en, fr = get(anon, f"{url}?game_system=warmachine"), get(anon, f"{url}?game_system=warmachine", "fr")
    assert (en.status_code, fr.status_code) == (400, 400)
    assert en.json()["code"] == fr.json()["code"] == "game_system_unknown"
    assert "warmachine" in en.json()["detail"] and en.json()["detail"] != fr.json()["detail"]


def test_migrations_load_the_chart_rules_and_slots():
    standard = Chart.objects.get(slug="whfb-standard")
    assert standard.rules["percent"] == {"lords": {"max": 50}, "heroes": {"max": 50}, "core": {"min": 25},
                                         "special": {"max": 50}, "rare": {"max": 25}}
    assert "Outside the seeds" in standard.rules["source"]
    assert Chart.objects.get(slug="whfb-open").rules == {}
    assert Chart.objects.get(slug="urban-war-commando").rules == {
        "size_min": 6, "size_max": 20, "commander": "exactly_one", "max_copies": None}
    whfb = GameSystem.objects.get(slug="whfb")
    slots = {s.code: (s.name_en, s.name_fr) for s in whfb.slots.all()}
    assert slots == {"lords": ("Lords", "Seigneurs"), "heroes": ("Heroes", "Héros"), "core": ("Core", "Base"),
                     "special": ("Special", "Spéciales"), "rare": ("Rare", "Rares")}
    assert "unités de base" in whfb.slots.get(code="core").aliases
    assert GameSystem.objects.get(slug="w40k4").kind == "chart"
    assert Faction.objects.filter(game_system__slug="w40k4").count() == 15
