"""The admin's event form per game system: it shows only what the system uses (no JavaScript: a
new event asks for its system first), saves the system's switches, settings and scoring through
the model's checks, and shows the model's refusals on the page; staff write a round's scenario."""
import re

import pytest
from django.urls import reverse

from armylists.models import Chart, GameSystem
from armylists.systems import rules_for
from events.audit import SYSTEM
from events.models import AuditEntry, Tournament
from events.scoring import PRESETS, as_rows
from events.services import lists, rounds, tournaments
from missions.models import Level
from tests.browser.events import user

pytestmark = pytest.mark.django_db

ADD = reverse("admin:league_tournament_add")
LIST_REFUSAL = "Lists or rounds already exist: this can no longer change."
WHFB_ONLY = ["advanced_rules_mantlets", "advanced_rules_stakes", "advanced_rules_baggage",
             "advanced_rules_baggage_mode"]
URBAN_WAR_ONLY = ["settings_size_min", "settings_size_max", "settings_result_mode"]
W40K4_ONLY = ["level", "on_six", "missions", "turn_system", "settings_token_rounding"]
EVERY_SYSTEM = ["game_system", "chart", "points_limit", "rounds", "scoring_mode", "scoring_table"]


def change_url(t: Tournament) -> str:
    return reverse("admin:league_tournament_change", args=[t.pk])


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def field_names(html: str) -> set[str]:
    return set(re.findall(r'name="([^"]+)"', html))


def assert_fields(html: str, shown: list[str], hidden: list[str]) -> None:
    names = field_names(html)
    assert set(shown) <= names, sorted(set(shown) - names)
    assert not set(hidden) & names, sorted(set(hidden) & names)


def system(slug: str) -> GameSystem:
    return GameSystem.objects.get(slug=slug)


def form_data(slug: str, **overrides) -> dict:
    """The add form of ``slug`` as a browser posts it (unticked boxes are not sent)."""
    charts = {"w40k4": "w40k4-standard", "whfb": "whfb-open", "urban-war": "urban-war-commando"}
    data = {
        "name": "Printemps", "slug": "", "starts_on": "", "language": "fr", "game_system": slug,
        "chart": Chart.objects.get(slug=charts[slug]).pk, "points_limit": 2000, "rounds": 3,
        "list_deadline_0": "", "list_deadline_1": "", "club_weight": "avoid",
        "faction_weight": "ignore", "bye_priority": "strict", "scoring_mode": "wdl",
        "scoring_table": "", "win_points": 3, "draw_points": 1, "loss_points": 0,
        "bye_points": "win", "tiebreaks": "sos, vp_diff", "seed": "",
    }
    if slug == "w40k4":
        data.update(level=Level.objects.get(slug="gamma").pk, on_six="reroll", missions="per_round",
                    turn_system="standard", settings_token_rounding="ceil",
                    settings_morale_rule="at_least")
    if slug == "whfb":
        data["advanced_rules_baggage_mode"] = "extra_allowance"
    if slug == "urban-war":
        data.update(points_limit=250, settings_size_min=6, settings_size_max=20,
                    settings_result_mode="destroyed_or_draw")
    return {**data, **overrides}


def whfb_event(**fields) -> Tournament:
    return tournaments.create_tournament(
        SYSTEM, name="Bataille de Nuln", game_system=system("whfb"),
        chart=Chart.objects.get(slug="whfb-open"), points_limit=2000, rounds=3,
        advanced_rules={"stakes": True, "baggage": True}, status="registration_open", **fields)


def change_data(t: Tournament, **overrides) -> dict:
    """The change form of a saved event as its page posts it (no players inline)."""
    data = form_data(t.game_system.slug, name=t.name, points_limit=t.points_limit, rounds=t.rounds,
                     chart=t.chart_id, tiebreaks=", ".join(t.tiebreaks))
    del data["slug"], data["seed"]
    data.update({"players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 0,
                 "players-MIN_NUM_FORMS": 0, "players-MAX_NUM_FORMS": 1000})
    rules = t.advanced_rules or {}
    data.update({f"advanced_rules_{key}": "on" for key in ("mantlets", "stakes", "baggage")
                 if rules.get(key)})
    return {**data, **overrides}


# The add form, one system at a time ------------------------------------------------------------

def test_a_new_event_asks_for_its_game_system_first(admin_client):
    html = page(admin_client.get(ADD))
    assert 'id="choose-system"' in html and 'method="get"' in html
    options = re.findall(r'<option value="([^"]+)"', html)
    assert set(options) == {"w40k4", "whfb", "urban-war"}  # Epic 40,000 is a campaign
    assert "name" not in field_names(html) - {"game_system"}
    refused = page(admin_client.get(ADD, {"game_system": "epic40k"}))
    assert 'id="choose-system"' in refused and "campaign game is not run as a tournament" in refused


def test_the_warhammer_battle_form_shows_its_switches_only(admin_client):
    html = page(admin_client.get(ADD, {"game_system": "whfb"}))
    assert_fields(html, EVERY_SYSTEM + WHFB_ONLY, W40K4_ONLY + URBAN_WAR_ONLY)
    assert 'type="checkbox" name="advanced_rules_stakes"' in html
    assert 'value="within_limit"' in html  # the baggage mode is a select, not raw JSON
    assert 'name="advanced_rules"' not in html and 'name="scoring"' not in html
    assert "Warhammer Battle advanced rules" in html and "Not used in pitched battles" in html
    charts = re.search(r'<select name="chart".*?</select>', html, re.S).group(0)
    assert "Warhammer Battle" in charts and "Cities" not in charts and "commando" not in charts
    assert 'value="preset:oms-2011"' in html and 'value="table"' in html
    assert "Choose another game system" in html


def test_the_urban_war_form_suggests_250_points_and_shows_the_commando_settings(admin_client):
    html = page(admin_client.get(ADD, {"game_system": "urban-war"}))
    assert_fields(html, EVERY_SYSTEM + URBAN_WAR_ONLY, W40K4_ONLY + WHFB_ONLY)
    assert re.search(r'name="points_limit" value="250"', html)
    assert re.search(r'name="settings_size_min" value="6"', html)
    assert re.search(r'name="settings_size_max" value="20"', html)
    assert "250 points is the usual size for this game." in html
    chart = Chart.objects.get(slug="urban-war-commando")
    assert f'<option value="{chart.pk}" selected>' in html  # its only chart


def test_the_cities_of_death_form_keeps_level_and_turn_system(admin_client):
    html = page(admin_client.get(ADD, {"game_system": "w40k4"}))
    assert_fields(html, EVERY_SYSTEM + W40K4_ONLY, WHFB_ONLY + URBAN_WAR_ONLY)
    assert 'value="dynamics"' in html


def test_saving_a_warhammer_battle_event_with_advanced_rules_and_a_preset(admin_client):
    data = form_data("whfb", advanced_rules_stakes="on", advanced_rules_baggage="on",
                     advanced_rules_baggage_mode="within_limit", scoring_mode="preset:oms-2011")
    response = admin_client.post(ADD, data)
    assert response.status_code == 302, page(response)[:3000]
    t = Tournament.objects.get(name="Printemps")
    assert t.game_system.slug == "whfb" and t.level is None and t.turn_system == "standard"
    assert t.advanced_rules == {"mantlets": False, "stakes": True, "baggage": True,
                                "baggage_mode": "within_limit"}
    assert t.scoring == {"mode": "vp_table", "preset": "oms-2011",
                         "table": as_rows(PRESETS["oms-2011"])}
    assert t.settings == {} and t.status == "draft"
    assert AuditEntry.objects.filter(action="tournament_created", tournament=t).exists()


def test_a_typed_table_is_saved_as_rows_and_a_bad_one_is_refused_on_the_page(admin_client):
    typed = "0 100 10 10\n101, 500, 15, 5\n\n501 - 20 0\n"
    response = admin_client.post(ADD, form_data("whfb", scoring_mode="table", scoring_table=typed))
    assert response.status_code == 302, page(response)[:3000]
    assert Tournament.objects.get(name="Printemps").scoring == {
        "mode": "vp_table", "table": [[0, 100, 10, 10], [101, 500, 15, 5], [501, None, 20, 0]]}
    uneven = page(admin_client.post(ADD, form_data("whfb", name="Bis", scoring_mode="table",
                                                    scoring_table="0 100 12 8\n101 - 20 0")))
    assert "The scoring is not usable: the first band is a draw" in uneven
    garbled = page(admin_client.post(ADD, form_data("whfb", name="Bis", scoring_mode="table",
                                                     scoring_table="0 100 10\n")))
    assert "Line 1: write four whole numbers" in garbled
    empty = page(admin_client.post(ADD, form_data("whfb", name="Bis", scoring_mode="table")))
    assert "Type the table&#x27;s bands, one per line." in empty
    assert not Tournament.objects.filter(name="Bis").exists()


def test_urban_war_settings_are_checked_together(admin_client):
    reversed_bounds = page(admin_client.post(ADD, form_data(
        "urban-war", settings_size_min=12, settings_size_max=8)))
    assert "The smallest commando size is above the largest." in reversed_bounds
    response = admin_client.post(ADD, form_data(
        "urban-war", settings_size_min=4, settings_result_mode="most_points_destroyed"))
    assert response.status_code == 302
    t = Tournament.objects.get(name="Printemps")
    assert t.settings == {"size_min": 4, "size_max": 20, "result_mode": "most_points_destroyed"}
    assert t.points_limit == 250 and t.level is None


def test_a_chart_of_another_system_is_a_field_error(admin_client):
    wrong = form_data("whfb", chart=Chart.objects.get(slug="w40k4-standard").pk)
    assert "Select a valid choice." in page(admin_client.post(ADD, wrong))


def test_a_form_without_a_system_is_a_cities_of_death_event(admin_client):
    data = form_data("w40k4")
    del data["game_system"], data["turn_system"], data["scoring_mode"]
    assert admin_client.post(ADD, data).status_code == 302
    t = Tournament.objects.get(name="Printemps")
    assert (t.game_system.slug, t.level.slug, t.scoring) == ("w40k4", "gamma", {"mode": "wdl"})


# The change form -------------------------------------------------------------------------------

def test_the_change_form_shows_the_saved_system_and_its_values(admin_client):
    t = whfb_event(scoring={"mode": "vp_table", "table": [[0, 100, 10, 10], [101, None, 20, 0]]})
    html = page(admin_client.get(change_url(t)))
    assert_fields(html, EVERY_SYSTEM + WHFB_ONLY, W40K4_ONLY + URBAN_WAR_ONLY)
    assert re.search(r'type="checkbox" name="advanced_rules_stakes"[^>]*checked', html)
    assert not re.search(r'type="checkbox" name="advanced_rules_mantlets"[^>]*checked', html)
    assert '<option value="table" selected>' in html
    assert "0 100 10 10\n101 - 20 0</textarea>" in html
    assert '<option value="whfb" selected>' in html
    w40k = tournaments.create_tournament(
        SYSTEM, name="Cité", chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="alpha"), rounds=3, turn_system="dynamics")
    html = page(admin_client.get(change_url(w40k)))
    assert_fields(html, EVERY_SYSTEM + W40K4_ONLY, WHFB_ONLY + URBAN_WAR_ONLY)
    assert '<option value="dynamics" selected>' in html


def test_changing_the_advanced_rules_saves_and_logs_only_them(admin_client):
    t = whfb_event()
    data = change_data(t, advanced_rules_mantlets="on")
    del data["advanced_rules_baggage"]
    response = admin_client.post(change_url(t), data)
    assert response.status_code == 302, page(response)[:3000]
    t.refresh_from_db()
    assert t.advanced_rules == {"mantlets": True, "stakes": True, "baggage": False,
                                "baggage_mode": "extra_allowance"}
    entry = AuditEntry.objects.filter(action="settings_changed").latest("pk")
    assert entry.data == {"fields": ["advanced_rules"]}


def test_the_system_and_scoring_cannot_change_once_a_list_exists(admin_client):
    t = whfb_event()
    player = tournaments.register_player(SYSTEM, t, name="Alice")
    response = admin_client.post(change_url(t), change_data(t, scoring_mode="preset:oms-2011"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.scoring["mode"] == "vp_table"  # no list yet: the scoring may still change
    rules = rules_for("whfb")
    units = [{"name": "Halberdiers", "slot": "core", "points": 300, "models": 20,
              "unit_type": "infantry"}]
    lists.submit_system_list(SYSTEM, player, role="", rules=rules,
                             data=lists.system_list_data(t, t.chart, rules, {"units": units}))
    other = change_data(t, game_system="w40k4", chart=Chart.objects.get(slug="w40k4-standard").pk,
                        level=Level.objects.get(slug="gamma").pk, on_six="reroll",
                        missions="per_round", turn_system="standard")
    html = page(admin_client.post(change_url(t), other))
    assert LIST_REFUSAL in html
    html = page(admin_client.post(change_url(t), change_data(t, scoring_mode="wdl")))
    assert LIST_REFUSAL in html
    t.refresh_from_db()
    assert t.game_system.slug == "whfb" and t.scoring["preset"] == "oms-2011"
    # What the lists do not depend on still changes.
    assert admin_client.post(change_url(t), change_data(
        t, scoring_mode="preset:oms-2011", rounds=5)).status_code == 302
    t.refresh_from_db()
    assert t.rounds == 5


def test_saving_with_another_system_shows_that_systems_fields(admin_client):
    t = whfb_event()
    data = change_data(t, game_system="urban-war")
    html = page(admin_client.post(change_url(t), data))
    assert_fields(html, URBAN_WAR_ONLY, WHFB_ONLY)  # the chart must now be chosen again
    assert "Select a valid choice." in html
    t.refresh_from_db()
    assert t.game_system.slug == "whfb"
    data = change_data(t, game_system="urban-war",
                       chart=Chart.objects.get(slug="urban-war-commando").pk, settings_size_max=12)
    assert admin_client.post(change_url(t), data).status_code == 302
    t.refresh_from_db()
    assert (t.game_system.slug, t.advanced_rules, t.settings["size_max"]) == ("urban-war", {}, 12)


# Rounds: the organisers' scenario ------------------------------------------------------------

def test_staff_write_a_rounds_scenario_on_the_round_page(admin_client):
    t = whfb_event()
    for name in ("Alice", "Bob"):
        tournaments.register_player(SYSTEM, t, name=name)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=True)
    round_url = reverse("admin:league_round_change", args=[round_.pk])
    html = page(admin_client.get(round_url))
    assert 'name="scenario"' in html and "played with the organisers&#x27; scenario" in html
    text = "Bataille rangée : déploiement en longueur, 6 tours."
    response = admin_client.post(reverse("admin:league_round_scenario", args=[round_.pk]),
                                 {"scenario": text})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.scenario == text
    assert AuditEntry.objects.filter(action__startswith="round_scenario").exists()
    assert text in page(admin_client.get(change_url(t)))  # the cockpit's rounds overview
    too_long = admin_client.post(reverse("admin:league_round_scenario", args=[round_.pk]),
                                 {"scenario": "x" * 5001}, follow=True)
    assert "at most 5000 characters" in page(too_long)


def test_players_cannot_write_a_scenario(client):
    t = whfb_event()
    for name in ("Alice", "Bob"):
        tournaments.register_player(SYSTEM, t, name=name)
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    client.force_login(user("mallory"))
    response = client.post(reverse("admin:league_round_scenario", args=[round_.pk]),
                           {"scenario": "x"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    round_.refresh_from_db()
    assert round_.scenario == ""
