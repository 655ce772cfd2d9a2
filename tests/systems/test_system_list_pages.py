"""The player's list page for the systems with list rules of their own: a Warhammer Battle army
(type, tags, options, baggage, faction) and an Urban War commando (card, calibre, options,
commander, label), sent through the same check as the API, problems next to the rows, and a
query count that does not grow with the list."""
import re

import pytest
from django.urls import reverse

from armylists.models import Chart, Faction, GameSystem, ProfileCard
from armylists.systems import rules_for
from events.audit import SYSTEM
from events.models import Tournament
from events.services import lists, tournaments
from tests.browser.events import register, user

pytestmark = pytest.mark.django_db

EMPIRE = [
    {"name": "General", "slot": "lords", "points": 150, "unit_type": "character"},
    {"name": "Halberdiers", "slot": "core", "points": 300, "models": 20, "unit_type": "infantry"},
    {"name": "Crossbowmen", "slot": "core", "points": 200, "models": 10, "unit_type": "infantry",
     "tags": ["shooting"], "options": ["stakes"]},
    {"name": "Wagon", "slot": "core", "points": 40, "models": 1, "unit_type": "chariot",
     "baggage": True},
]


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def whfb_event(**fields) -> Tournament:
    values = {"name": "Bataille de Nuln", "advanced_rules": {"stakes": True, "baggage": True},
              **fields}
    return tournaments.create_tournament(
        SYSTEM, game_system=GameSystem.objects.get(slug="whfb"),
        chart=Chart.objects.get(slug="whfb-open"), points_limit=2000, rounds=3,
        status="registration_open", **values)


def urban_war_event(**fields) -> Tournament:
    values = {"name": "Nuit urbaine", "settings": {"size_min": 2, "size_max": 8}, **fields}
    return tournaments.create_tournament(
        SYSTEM, game_system=GameSystem.objects.get(slug="urban-war"),
        chart=Chart.objects.get(slug="urban-war-commando"), points_limit=250, rounds=3,
        status="registration_open", **values)


def sergeant_card() -> ProfileCard:
    """A second card, with an option, beside the seed's 43101 (CAL 0/1/2 cost 20/26/33)."""
    system = GameSystem.objects.get(slug="urban-war")
    return ProfileCard.objects.create(
        game_system=system, faction=Faction.objects.get(game_system=system, slug="viridian"),
        card="43102", name_en="Sergeant", name_fr="Sergent",
        stats={"AS": 4, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 5, "SZ": 2, "MV": 4},
        cal_options=[{"cal": 1, "fs": 1, "cost": 30}, {"cal": 2, "fs": 2, "cost": 38},
                     {"cal": 3, "fs": None, "cost": None}],
        options=[{"code": "grenades", "name_en": "Grenades", "name_fr": "Grenades", "cost": 5}])


def signed_in_player(client, event: Tournament, name: str = "alice", faction: str = ""):
    account = user(name)
    player = register(event, account, name.title(), units=None)
    if faction:
        tournaments.update_player(SYSTEM, player, faction=faction)
    client.force_login(account)
    return player, reverse("player_list", args=[event.slug, player.pk])


def rows_post(prefix: str, rows: list[dict], extra_blank: int = 2, **top) -> dict:
    """The rows form as a browser posts it: unticked boxes absent, lists as repeated fields."""
    data = {"source": prefix, f"{prefix}-TOTAL_FORMS": str(len(rows) + extra_blank),
            f"{prefix}-INITIAL_FORMS": "0", f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "500", **top}
    for i, row in enumerate(rows):
        for key, value in row.items():
            if value is True:
                data[f"{prefix}-{i}-{key}"] = "on"
            elif isinstance(value, list) and key == "tags":
                data[f"{prefix}-{i}-{key}"] = ", ".join(value)
            elif value is not False and value is not None:  # a calibre of 0 is sent
                data[f"{prefix}-{i}-{key}"] = value if isinstance(value, list) else str(value)
    return data


def units_post(units: list[dict], faction: str = "", **extra) -> dict:
    return rows_post("units", units, faction=faction, **extra)


def models_post(models: list[dict], commander: int | None = None, **extra) -> dict:
    top = {"commander": f"models-{commander}"} if commander is not None else {}
    return rows_post("models", models, **top, **extra)


def select(html: str, name: str) -> str:
    return re.search(rf'<select name="{re.escape(name)}".*?</select>', html, re.S).group(0)


# Warhammer Battle -------------------------------------------------------------------------------

def test_the_whfb_form_offers_the_event_options_faction_and_baggage(client):
    event = whfb_event()
    _player, url = signed_in_player(client, event, faction="The Empire")
    html = text(client.get(url))
    assert 'name="units-0-unit_type"' in html and 'name="units-0-tags"' in html
    assert 'name="units-0-options" value="stakes"' in html
    assert 'value="mantlets"' not in html  # the event does not use mantlets
    assert 'name="units-0-baggage"' in html
    factions = select(html, "faction")
    assert '<option value="empire" selected>' in factions and "Tomb Kings" in factions
    assert "Or paste an export" not in html and "Roster files" in html
    plain = whfb_event(name="Sans options", advanced_rules={})
    _p, plain_url = signed_in_player(client, plain, name="bob")
    html = text(client.get(plain_url))
    assert 'name="units-0-options"' not in html and 'name="units-0-baggage"' not in html


def test_a_whfb_player_submits_units_with_options_and_baggage(client):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    page = text(client.post(url, units_post(EMPIRE, faction="empire"), follow=True))
    assert "List saved: it is legal." in page and "This list is legal." in page
    stored = lists.current_list(player)
    assert [e["name"] for e in stored.entries] == [u["name"] for u in EMPIRE]
    crossbows, wagon = stored.entries[2], stored.entries[3]
    assert crossbows["options"] == ["stakes"] and crossbows["tags"] == ["shooting"]
    assert wagon["baggage"] is True and wagon["unit_type"] == "chariot"
    report = stored.report
    assert report["base_points"] == 670 and report["baggage"] == {"points": 40, "allowance": 67}
    assert report["surcharges"] == [{"name": "Crossbowmen", "option": "stakes", "points": 20}]
    assert report["faction"] == "empire"
    # The same check as the API's: the report is what the system's rules answer for this body.
    rules = rules_for("whfb")
    body = lists.system_list_data(event, event.chart, rules, {"units": EMPIRE, "faction": "empire"})
    assert report == {**rules.check(event.chart, body), "faction": "empire",
                      "inputs": {"faction": "empire", "advanced_rules": event.advanced_rules}}
    assert "Army: 670 of 2000 points, of which 20 for options." in page
    assert "Baggage: 40 of 67 points allowed on top of the limit." in page
    assert "Total with the baggage: 710 points." in page
    assert '<option value="empire" selected>' in select(page, "faction")  # kept for the next edit
    assert re.search(r'name="units-2-options" value="stakes"[^>]*checked', page)
    assert re.search(r'name="units-3-baggage"[^>]*checked', page)


def test_whfb_problems_are_shown_next_to_the_rows(client):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    units = [{**EMPIRE[0]}, {**EMPIRE[1]},
             {"name": "Knights", "slot": "special", "points": 200, "models": 5,
              "unit_type": "cavalry", "options": ["stakes"]},
             {"name": "Cart", "slot": "core", "points": 90, "unit_type": "chariot",
              "baggage": True}]
    client.post(url, units_post(units, faction="vampire-counts"))
    stored = lists.current_list(player)
    assert stored.valid is False
    response = client.get(url)
    rows = {form["name"].value(): form.problems for form in response.context["formset"].forms}
    assert rows["Knights"] == [
        "“Knights”: stakes are only for foot shooting units and war machines, not cavalry."]
    assert rows["Cart"] == ["Undead and Daemon armies (vampire-counts) have no baggage."]
    assert rows["General"] == [] and rows["Halberdiers"] == []
    page = text(response)
    assert "This list is not legal." in page and page.count(rows["Cart"][0]) >= 2


def test_a_refused_whfb_submission_is_told_first_and_kept(client):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    too_many = [{**EMPIRE[1], "tags": [f"t{i}" for i in range(21)]}]
    page = text(client.post(url, units_post(too_many, faction="empire")))
    assert "Your list was NOT saved." in page and "At most 20 tags." in page
    assert 'value="t0, t1, t2' in page  # what was typed stays
    unknown = text(client.post(url, units_post(EMPIRE[:2], faction="elves")))
    notice = unknown[unknown.index("Your list was NOT saved."):]
    assert "Select a valid choice. elves is not one of the available choices." in notice
    assert lists.current_list(player) is None


def test_whfb_add_rows_keeps_the_typed_options_and_baggage(client):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    response = client.post(url, {**units_post(EMPIRE[2:], faction="empire", extra_blank=1),
                                 "add_rows": "1"})
    formset = response.context["formset"]
    assert len(formset.forms) == 2 + 1 + 3
    assert formset.forms[0]["options"].value() == ["stakes"]
    assert formset.forms[1]["baggage"].value() is True
    assert '<option value="empire" selected>' in select(text(response), "faction")
    assert lists.current_list(player) is None


def test_a_locked_whfb_list_shows_its_units(client):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    client.post(url, units_post(EMPIRE, faction="empire"))
    tournaments.transition(SYSTEM, event, Tournament.Status.LISTS_LOCKED)
    page = text(client.get(url))
    assert "Lists are locked." in page and "Submit this list" not in page
    assert "Crossbowmen" in page and "wooden stakes" in page and "(baggage)" in page


# Urban War --------------------------------------------------------------------------------------

def test_an_urban_war_player_builds_a_commando(client):
    event = urban_war_event()
    sergeant_card()
    player, url = signed_in_player(client, event)
    html = text(client.get(url))
    assert "43101 · Colonial Marine" in select(html, "models-0-profile")
    blank_cal = select(html, "models-0-cal")
    assert "<optgroup" in blank_cal and "CAL 2 · FS 2 · 33 points" in blank_cal
    assert 'name="commander"' in html and 'value="grenades"' in html
    models = [{"profile": "43102", "cal": 1, "options": ["grenades"], "label": "Sarge"},
              {"profile": "43101", "cal": 2}, {"profile": "43101", "cal": 0}]
    page = text(client.post(url, models_post(models, commander=0), follow=True))
    assert "List saved: it is legal." in page
    stored = lists.current_list(player)
    assert stored.report["total_points"] == 35 + 33 + 20 and stored.report["models"] == 3
    assert stored.report["follow_up_actions"] == 3 and stored.report["commander"] == "Sarge"
    assert [e["label"] for e in stored.entries] == ["Sarge", "43101-1", "43101-2"]
    assert stored.entries[0]["commander"] is True and stored.entries[0]["options"] == ["grenades"]
    assert "Total: 88 of 250 points." in page and "3 models (2 to 8 allowed)" in page
    assert "3 follow-up actions" in page and "commander: Sarge" in page
    assert re.search(r"<td>43101-1</td><td>43101 · Colonial Marine</td><td>2</td><td>33</td>", page)
    chosen_cal = select(page, "models-1-cal")  # a chosen card lists its own calibres only
    assert "CAL 2 · FS 2 · 33 points" in chosen_cal and "<optgroup" not in chosen_cal
    assert "30 points" not in chosen_cal and "CAL 3" not in chosen_cal
    assert re.search(r'name="commander" value="models-0"[^>]*checked', page)
    assert 'value="grenades"' not in select(page, "models-1-cal")


def test_urban_war_problems_are_shown_next_to_the_models(client):
    event = urban_war_event()
    player, url = signed_in_player(client, event)
    models = [{"profile": "43101", "cal": 3, "label": "Rookie"}, {"profile": "43101", "cal": 1}]
    page = text(client.post(url, models_post(models), follow=True))
    assert "List saved, but it is not legal yet" in page and "This list is not legal." in page
    response = client.get(url)
    rows = {form["label"].value(): form.problems for form in response.context["formset"].forms}
    assert len(rows["Rookie"]) == 1 and "3" in rows["Rookie"][0]
    assert rows["43101-1"] == []
    codes = [p["code"] for p in lists.current_list(player).report["errors"]]
    assert "commander_missing" in codes and "cal_not_available" in codes
    assert 'CAL 3 (not on this card)' in select(text(response), "models-0-cal")  # kept, not dropped


def test_an_urban_war_submission_without_models_or_card_is_not_saved(client):
    event = urban_war_event()
    player, url = signed_in_player(client, event)
    empty = text(client.post(url, models_post([])))
    assert "Your list was NOT saved." in empty and "Enter at least one model." in empty
    no_card = text(client.post(url, models_post([{"cal": 1, "label": "Ghost"}])))
    assert "Choose the model&#x27;s card." in no_card
    assert lists.current_list(player) is None


def test_urban_war_add_rows_keeps_the_commander(client):
    event = urban_war_event()
    _player, url = signed_in_player(client, event)
    models = [{"profile": "43101", "cal": 1}, {"profile": "43101", "cal": 2, "label": "Boss"}]
    data = {**models_post(models, commander=1, extra_blank=1), "add_rows": "1",
            "models-0-DELETE": "on"}
    response = client.post(url, data)
    forms = response.context["formset"].forms
    assert [f["label"].value() for f in forms[:1]] == ["Boss"] and forms[0].is_commander
    assert len(forms) == 1 + 2 + 3


# Query budget -----------------------------------------------------------------------------------

@pytest.mark.parametrize("versions", [1, 8])
def test_whfb_list_page_queries_do_not_grow_with_versions_or_units(
        client, versions, django_assert_max_num_queries):
    event = whfb_event()
    player, url = signed_in_player(client, event)
    rules = rules_for("whfb")
    units = EMPIRE + [{"name": f"Spearmen {i}", "slot": "core", "points": 50, "models": 10,
                       "unit_type": "infantry", "options": ["stakes"]} for i in range(versions)]
    for _ in range(versions):
        body = {"units": units, "faction": "empire"}
        data = lists.system_list_data(event, event.chart, rules, body)
        lists.submit_system_list(SYSTEM, player, role="", rules=rules, data=data)
    # session, user, event, player, current list, its history, factions, slot names
    with django_assert_max_num_queries(8):
        page = client.get(url)
    assert "Spearmen 0" in text(page)


@pytest.mark.parametrize("versions", [1, 8])
def test_urban_war_list_page_queries_do_not_grow_with_versions_or_models(
        client, versions, django_assert_max_num_queries):
    event = urban_war_event()
    player, url = signed_in_player(client, event)
    rules = rules_for("urban-war")
    models = [{"profile": "43101", "cal": 0, "commander": i == 0} for i in range(versions + 1)]
    for _ in range(versions):
        data = lists.system_list_data(event, event.chart, rules, {"models": models})
        lists.submit_system_list(SYSTEM, player, role="", rules=rules, data=data)
    # session, user, event, player, current list, its history, profile cards
    with django_assert_max_num_queries(7):
        page = client.get(url)
    assert f"43101-{versions + 1}" in text(page)
