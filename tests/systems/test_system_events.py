"""Events of every game system through the contract (api-v1-systems "Events of any system"):
creation with the system's fields, lists checked by the system's rules, rounds without rolled
missions, reports with the system's outcome, and standings by a victory-point table."""
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from events.models import Tournament
from tests.tournament_fixtures import (
    TOURNAMENT,
    client_for,
    confirm,
    expect,
    get,
    make_users,
    pair,
    post,
    put,
    register,
)

pytestmark = pytest.mark.django_db

WHFB = {"name": "Bataille de Nuln", "game_system": "whfb", "chart": "whfb-open", "points_limit": 2000,
        "rounds": 3, "advanced_rules": {"stakes": True, "baggage": True},
        "scoring": {"mode": "vp_table", "preset": "oms-2011"}}
URBAN_WAR = {"name": "Nuit urbaine", "game_system": "urban-war", "chart": "urban-war-commando",
             "points_limit": 250, "rounds": 4, "settings": {"size_min": 2, "size_max": 8}}
EMPIRE = [
    {"name": "General", "slot": "lords", "points": 150, "unit_type": "character"},
    {"name": "Halberdiers", "slot": "core", "points": 300, "models": 20, "unit_type": "infantry"},
    {"name": "Crossbowmen", "slot": "core", "points": 200, "models": 10, "unit_type": "infantry",
     "tags": ["shooting"], "options": ["stakes"]},
    {"name": "Wagon", "slot": "core", "points": 40, "unit_type": "chariot", "baggage": True},
]


def create(staff_client, body: dict[str, Any], status: int = 201, **extra: Any) -> dict[str, Any]:
    return expect(post(staff_client, "/tournaments/", body, **extra), status)


def players(staff_client, slug: str, count: int, prefix: str) -> list[tuple[int, Any]]:
    """``count`` self-registered players with their clients."""
    out = []
    for index, user in enumerate(make_users(prefix, count)):
        client = client_for(user)
        out.append((register(client, slug, f"{prefix} {index}")["id"], client))
    return out


def test_a_warhammer_battle_event_shows_its_system_fields(staff_client):
    created = create(staff_client, WHFB)
    assert created["game_system"] == "whfb"
    assert created["level"] is None and created["turn_system"] == "standard"
    assert created["advanced_rules"] == {"mantlets": False, "stakes": True, "baggage": True,
                                         "baggage_mode": "extra_allowance"}
    assert created["scoring"]["mode"] == "vp_table" and created["scoring"]["preset"] == "oms-2011"
    assert created["scoring"]["table"][0] == [0, 200, 10, 10]
    assert created["scoring"]["table"][-1] == [2001, None, 20, 0]
    assert created["settings"] == {}
    assert expect(get(staff_client, f"/tournaments/{created['slug']}/"), 200)["game_system"] == "whfb"


def test_an_event_without_a_system_is_cities_of_death(staff_client):
    created = create(staff_client, {**TOURNAMENT, "name": "Sans système"})
    assert created["game_system"] == "w40k4" and created["level"] == "gamma"
    assert created["scoring"] == {"mode": "wdl"}
    no_level = {k: v for k, v in TOURNAMENT.items() if k != "level"}
    assert "level" in create(staff_client, no_level, 400)


@pytest.mark.parametrize(("body", "field"), [
    ({**WHFB, "chart": "w40k4-standard"}, "chart"),
    ({**WHFB, "turn_system": "dynamics"}, "turn_system"),
    ({**URBAN_WAR, "advanced_rules": {"stakes": True}}, "advanced_rules"),
    ({**URBAN_WAR, "settings": {"size_min": 9, "size_max": 3}}, "settings"),
    ({**WHFB, "scoring": {"mode": "vp_table", "table": [[0, 100, 10, 10], [150, None, 20, 0]]}}, "scoring"),
    ({**WHFB, "scoring": {"mode": "vp_table", "preset": "nowhere"}}, "scoring"),
    ({**WHFB, "game_system": "epic40k", "chart": "whfb-open"}, "game_system"),
])
def test_system_fields_that_do_not_fit_are_field_errors(staff_client, body, field):
    assert field in create(staff_client, body, 400)


def test_a_refused_table_says_why_in_french(staff_client):
    body = {**WHFB, "scoring": {"mode": "vp_table", "table": [[0, 100, 10, 10], [150, None, 20, 0]]}}
    french = create(staff_client, body, 400, HTTP_ACCEPT_LANGUAGE="fr")["scoring"]
    assert french == ["Le décompte est inutilisable\u00a0: la tranche 2 doit commencer juste après la fin "
                      "de la tranche précédente."]
    english = create(staff_client, body, 400, HTTP_ACCEPT_LANGUAGE="en")["scoring"]
    assert english == ["The scoring is not usable: band 2 must start right after the band before it ends."]


def test_urban_war_settings_take_their_defaults(staff_client):
    created = create(staff_client, {**URBAN_WAR, "settings": {}})
    assert created["settings"] == {"size_min": 6, "size_max": 20, "result_mode": "destroyed_or_draw"}


def test_a_warhammer_battle_list_is_checked_with_the_event_rules(staff_client):
    slug = create(staff_client, WHFB)["slug"]
    (pid, client), = players(staff_client, slug, 1, "wfb")
    body = expect(put(client, f"/tournaments/{slug}/players/{pid}/list/",
                      {"faction": "empire", "units": EMPIRE}), 200)
    assert body["valid"] is True, body["errors"]
    assert body["surcharges"] == [{"name": "Crossbowmen", "option": "stakes", "points": 20}]
    assert body["base_points"] == 670 and body["baggage"] == {"points": 40, "allowance": 67}
    assert body["total_points"] == 710 and body["chart"] == "whfb-open"
    stored = expect(get(client, f"/tournaments/{slug}/players/{pid}/list/"), 200)
    assert stored["report"]["base_points"] == 670 and stored["report"]["valid"] is True


def test_a_list_for_a_disabled_option_and_a_foreign_field(staff_client):
    slug = create(staff_client, {**WHFB, "advanced_rules": {}})["slug"]
    (pid, client), = players(staff_client, slug, 1, "off")
    units = [*EMPIRE[:3], {**EMPIRE[3], "profile": "43101"}]
    body = expect(put(client, f"/tournaments/{slug}/players/{pid}/list/",
                      {"units": units, "size_min": 3}), 200)
    codes = {p["code"] for p in body["errors"]}
    assert {"option_disabled", "baggage_disabled"} <= codes and body["valid"] is False
    ignored = {p["params"]["field"] for p in body["warnings"] if p["code"] == "field_ignored"}
    assert ignored == {"size_min", "units[].profile"}
    refused = put(client, f"/tournaments/{slug}/players/{pid}/list/", {"faction": "elves", "units": EMPIRE})
    expect(refused, 400, "faction_unknown")


def commando(count: int, *, commander: bool = True) -> list[dict[str, Any]]:
    return [{"profile": "43101", "cal": 1, "commander": commander and i == 0, "label": f"M{i}"}
            for i in range(count)]


def test_an_urban_war_commando_takes_its_bounds_from_the_event(staff_client):
    slug = create(staff_client, URBAN_WAR)["slug"]
    (pid, client), = players(staff_client, slug, 1, "uw")
    path = f"/tournaments/{slug}/players/{pid}/list/"
    small = expect(put(client, path, {"models": commando(2), "size_min": 0}), 200)
    assert small["valid"] is True and small["total_points"] == 52 and small["follow_up_actions"] == 2
    big = expect(put(client, path, {"models": commando(9)}), 200)
    assert [p["code"] for p in big["errors"]] == ["commando_size_above_max"]
    assert big["errors"][0]["params"] == {"count": 9, "max": 8}


def run_round(staff_client, slug: str) -> dict[str, Any]:
    expect(post(staff_client, f"/tournaments/{slug}/status/", {"status": "lists_locked"}), 200)
    return expect(pair(staff_client, slug), 201)


def test_a_warhammer_battle_event_from_round_to_standings(staff_client):
    slug = create(staff_client, WHFB)["slug"]
    (a, ca), (b, cb) = players(staff_client, slug, 2, "nuln")
    for pid, client in ((a, ca), (b, cb)):
        expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"units": EMPIRE}), 200)
    round_ = run_round(staff_client, slug)
    assert round_["mission"] is None and round_["scenario"] == ""
    game = round_["games"][0]
    assert game["mission"] is None and game["list_problems"] == [] and game["pregame"] == {"rolls": []}
    x, y = game["players"]
    body = {"result": {"winner": None}, "victory_points": {str(x): 900, str(y): 500},
            "outcome": {"baggage_captured_by": x, "looting_units": {str(y): ["Wolf riders"]}}}
    assert expect(post(ca if x == a else cb, f"/games/{game['id']}/report/", body), 200)["status"] == "reported"
    other = cb if x == a else ca
    assert expect(confirm(other, game["id"]), 200)["status"] == "confirmed"
    shown = expect(get(staff_client, f"/games/{game['id']}/"), 200)
    assert shown["result"] == {"winner": x, "victory_points": {str(x): 1100, str(y): 500}}
    assert shown["outcome"]["baggage_bonus"] == {str(x): 200, str(y): 0}
    assert shown["outcome"]["reported_victory_points"] == {str(x): 900, str(y): 500}
    assert shown["outcome"]["looting_units"] == {str(y): ["Wolf riders"]}
    standings = expect(get(staff_client, f"/tournaments/{slug}/standings/"), 200)
    # A difference of 600 is the band [401, 600]: 12 to the winner, 8 to the loser.
    assert [(row["player"]["id"], row["points"], row["wins"]) for row in standings] == [(x, 12, 1), (y, 8, 0)]


def test_a_vp_table_event_needs_both_victory_points_and_a_consistent_winner(staff_client):
    slug = create(staff_client, {**WHFB, "advanced_rules": {}})["slug"]
    (a, ca), (b, cb) = players(staff_client, slug, 2, "vpt")
    game = run_round(staff_client, slug)["games"][0]
    x, y = game["players"]
    client = ca if x == a else cb
    path = f"/games/{game['id']}/report/"
    expect(post(client, path, {"result": {"winner": x}, "victory_points": {str(x): 500}}), 400,
           "victory_points_required")
    expect(post(client, path, {"result": {"winner": y}, "victory_points": {str(x): 900, str(y): 100}}),
           400, "result_inconsistent")
    expect(post(client, path, {"result": {"winner": None}, "victory_points": {str(x): 900, str(y): 100},
                               "outcome": {"baggage_captured_by": x}}), 400, "baggage_disabled")
    expect(post(client, path, {"result": {"winner": None}, "victory_points": {str(x): 900, str(y): 100},
                               "outcome": {"baggage_captured_by": 999999}}), 400, "player_not_in_game")
    # Within the first band (0-200) the game is a draw whatever winner is left out.
    reported = post(client, path, {"result": {"winner": None}, "victory_points": {str(x): 600, str(y): 450}})
    assert expect(reported, 200)["status"] == "reported"


def urban_war_event(staff_client, **settings: Any) -> tuple[str, dict[str, Any], dict[int, Any]]:
    slug = create(staff_client, {**URBAN_WAR, "settings": {"size_min": 2, "size_max": 8, **settings}})["slug"]
    clients = dict(players(staff_client, slug, 2, "uwr"))
    for pid, client in clients.items():
        expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"models": commando(3)}), 200)
    return slug, run_round(staff_client, slug)["games"][0], clients


def test_urban_war_victory_points_come_from_the_models_destroyed(staff_client):
    _slug, game, clients = urban_war_event(staff_client)
    x, y = game["players"]
    path = f"/games/{game['id']}/report/"
    # y's commando destroyed: every one of its models counts as destroyed by x.
    contradiction = {"result": {"winner": y}, "outcome": {"commando_destroyed": y, "destroyed": {str(y): ["M0"]}}}
    expect(post(clients[x], path, contradiction), 400, "winner_contradicts_outcome")
    unknown = {"result": {"winner": x}, "outcome": {"commando_destroyed": y, "destroyed": {str(y): ["M9"]}}}
    expect(post(clients[x], path, unknown), 400, "unknown_model_label")
    body = {"result": {"winner": x}, "outcome": {"commando_destroyed": y, "destroyed": {str(y): ["M0"]}}}
    expect(post(clients[x], path, body), 200)
    expect(confirm(clients[y], game["id"]), 200)
    shown = expect(get(clients[x], f"/games/{game['id']}/"), 200)
    assert shown["result"] == {"winner": x, "victory_points": {str(x): 78, str(y): 26}}
    assert shown["outcome"]["destroyed"] == {str(x): ["M0", "M1", "M2"], str(y): ["M0"]}


@pytest.mark.parametrize(("mode", "winner_is_x"), [("destroyed_or_draw", False), ("most_points_destroyed", True)])
def test_urban_war_time_called_follows_the_result_mode(staff_client, mode, winner_is_x):
    _slug, game, clients = urban_war_event(staff_client, result_mode=mode)
    x, y = game["players"]
    body = {"result": {"winner": None}, "outcome": {"commando_destroyed": None,
                                                     "destroyed": {str(x): ["M0", "M1"], str(y): ["M2"]}}}
    expect(post(clients[x], f"/games/{game['id']}/report/", body), 200)
    expect(confirm(clients[y], game["id"]), 200)
    shown = expect(get(clients[x], f"/games/{game['id']}/"), 200)
    assert shown["result"]["winner"] == (x if winner_is_x else None)
    assert shown["result"]["victory_points"] == {str(x): 52, str(y): 26}


def test_a_cities_of_death_report_refuses_a_system_outcome(staff_client):
    slug = create(staff_client, {**TOURNAMENT, "name": "CoD"})["slug"]
    clients = dict(players(staff_client, slug, 2, "cod"))
    game = run_round(staff_client, slug)["games"][0]
    x, _y = game["players"]
    body = {"result": {"winner": x}, "outcome": {"baggage_captured_by": x}}
    expect(post(clients[x], f"/games/{game['id']}/report/", body), 400, "outcome_not_used")


def test_the_system_and_scoring_are_fixed_once_lists_exist(staff_client):
    slug = create(staff_client, WHFB)["slug"]
    tournament = Tournament.objects.get(slug=slug)
    tournament.scoring = {"mode": "wdl"}
    tournament.full_clean()  # no list yet: allowed
    (pid, client), = players(staff_client, slug, 1, "fix")
    expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"units": EMPIRE}), 200)
    tournament.refresh_from_db()
    tournament.scoring = {"mode": "wdl"}
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert set(refused.value.message_dict) == {"scoring"}
    tournament.refresh_from_db()
    tournament.advanced_rules = {"stakes": False}
    tournament.full_clean()  # advanced rules may still change
    assert tournament.advanced_rules["baggage_mode"] == "extra_allowance"


def test_staff_write_a_rounds_scenario(staff_client):
    slug = create(staff_client, {**WHFB, "advanced_rules": {}})["slug"]
    clients = dict(players(staff_client, slug, 2, "scn"))
    run_round(staff_client, slug)
    path = f"/tournaments/{slug}/rounds/1/"
    player = next(iter(clients.values()))
    expect(player.patch("/api/v1" + path, {"scenario": "Hold the bridge"}, format="json"), 403, "staff_only")
    text = "Bataille rangée: tenir le pont. 6 tours."
    shown = expect(staff_client.patch("/api/v1" + path, {"scenario": f"  {text}\n"}, format="json"), 200)
    assert shown["scenario"] == text
    assert expect(get(player, path), 200)["scenario"] == text
    expect(staff_client.patch("/api/v1" + path, {"scenario": "x" * 5001}, format="json"), 400)


def test_the_event_page_of_a_scenario_round(staff_client, client):
    slug = create(staff_client, WHFB)["slug"]
    players(staff_client, slug, 2, "page")
    run_round(staff_client, slug)
    expect(staff_client.patch(f"/api/v1/tournaments/{slug}/rounds/1/", {"scenario": "Tenir le pont"}, format="json"), 200)
    page = client.get(f"/tournaments/{slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tenir le pont" in page and "Warhammer" in page
    assert ("tournament points from the victory-point difference (ÖMS 2011, the Austrian "
            "championship table)") in page and "oms-2011" not in page
    assert ">Mission<" not in page and "Mission level" not in page
    cod = create(staff_client, {**TOURNAMENT, "name": "Page CoD"})["slug"]
    players(staff_client, cod, 2, "pagecod")
    run_round(staff_client, cod)
    assert ">Mission<" in client.get(f"/tournaments/{cod}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_faction_of_an_api_list_is_kept(staff_client):
    slug = create(staff_client, WHFB)["slug"]
    (pid, client), = players(staff_client, slug, 1, "fac")
    expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"faction": "empire", "units": EMPIRE}), 200)
    stored = expect(get(client, f"/tournaments/{slug}/players/{pid}/list/"), 200)
    assert stored["report"]["faction"] == "empire"


def test_editing_a_warhammer_battle_chart_rechecks_its_lists_with_their_inputs(staff_client):
    from armylists import services as list_services
    from armylists.models import Chart

    chart_slug = "whfb-standard"
    slug = create(staff_client, {**WHFB, "chart": chart_slug})["slug"]
    (pid, client), = players(staff_client, slug, 1, "rck")
    assert expect(put(client, f"/tournaments/{slug}/players/{pid}/list/",
                      {"faction": "empire", "units": EMPIRE}), 200)["valid"] is True
    chart = Chart.objects.get(slug=chart_slug)
    chart.rules = {"percent": {"core": {"min": 90}}}
    chart.save()
    assert list_services.revalidate_chart_lists(chart.pk) == 1
    stored = expect(get(client, f"/tournaments/{slug}/players/{pid}/list/"), 200)
    assert stored["valid"] is False
    # The stored inputs were read again: the baggage (advanced rules) and the faction still count.
    assert stored["report"]["baggage"] == {"points": 40, "allowance": 67}
    assert stored["report"]["faction"] == "empire"
    assert [p["code"] for p in stored["report"]["errors"]] == ["slot_below_min_pct"]
    assert list_services.revalidate_chart_lists(chart.pk) == 0


def test_editing_the_urban_war_chart_rechecks_commandos(staff_client):
    from armylists import services as list_services
    from armylists.models import Chart

    slug = create(staff_client, {**URBAN_WAR, "settings": {"size_min": 2, "size_max": 8}})["slug"]
    (pid, client), = players(staff_client, slug, 1, "rcu")
    assert expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"models": commando(3)}), 200)["valid"]
    chart = Chart.objects.get(slug="urban-war-commando")
    chart.rules = {**chart.rules, "max_copies": 2}
    chart.save()
    assert list_services.revalidate_chart_lists(chart.pk) == 1
    stored = expect(get(client, f"/tournaments/{slug}/players/{pid}/list/"), 200)
    assert [p["code"] for p in stored["report"]["errors"]] == ["profile_copies_above_max"]
    assert stored["report"]["inputs"] == {"size_min": 2, "size_max": 8}


WHFB_ROSTER = """++ Empire (Warhammer Fantasy 7th Edition) [900pts] ++

+ Lords +

General of the Empire [150pts]

+ Core +

Halberdiers [300pts]
. 20x Halberdier

Crossbowmen [200pts]
. 10x Crossbowman

+ Special +

Knights [250pts]
. 5x Knight

++ Total: [900pts] ++
"""


def test_a_warhammer_battle_roster_gives_the_five_slots_and_is_stored_as_units(staff_client):
    slug = create(staff_client, WHFB)["slug"]
    (pid, client), = players(staff_client, slug, 1, "ros")
    body = expect(put(client, f"/tournaments/{slug}/players/{pid}/list/",
                      {"faction": "empire", "roster": WHFB_ROSTER}), 200)
    assert [(u["name"], u["slot"], u["points"]) for u in body["units"]] == [
        ("General of the Empire", "lords", 150), ("Halberdiers", "core", 300),
        ("Crossbowmen", "core", 200), ("Knights", "special", 250)]
    assert body["valid"] is True and body["base_points"] == 900 and body["baggage"] == {"points": 0, "allowance": 90}
    assumed = [w for w in body["warnings"] if w["code"] == "unit_type_assumed"]
    assert assumed and "infantry" in assumed[0]["message"]
    stored = expect(get(client, f"/tournaments/{slug}/players/{pid}/list/"), 200)
    assert [e["unit_type"] for e in stored["entries"]] == ["infantry"] * 4
    assert "roster" not in stored["report"]["inputs"]
    expect(put(client, f"/tournaments/{slug}/players/{pid}/list/", {"roster": "not a roster at all"}),
           400, "roster_unreadable")
    both = put(client, f"/tournaments/{slug}/players/{pid}/list/", {"roster": WHFB_ROSTER, "units": EMPIRE})
    assert "units" in expect(both, 400)


def test_lists_validate_reads_a_warhammer_battle_roster(staff_client):
    body = expect(post(client_for(None), "/lists/validate/", {"chart": "whfb-open", "points_limit": 2000,
                                                            "roster": WHFB_ROSTER}), 200)
    assert [u["slot"] for u in body["units"]] == ["lords", "core", "core", "special"]
    assert body["total_points"] == 900 and body["roster_format"] == "battlescribe_text"
    french = expect(post(client_for(None), "/lists/validate/", {"chart": "whfb-open", "points_limit": 2000,
                                                              "roster": ""}, HTTP_ACCEPT_LANGUAGE="fr"), 400)
    assert "roster" in french
