"""The game page of each game system (architecture "Events of any system", "Player site"): the
Warhammer Battle report (points before the baggage bonus, the captor, units that left to loot),
the Urban War report (the destroyed commando and models; the server derives the points), the
W40K Dynamics panel and morale helper, what the page leaves out without a Cities of Death
mission, and a constant number of queries."""
from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from events.audit import Actor
from events.errors import Conflict
from events.models import Game, Player, Report
from events.services import results, table_rolls
from tests.browser.events import (
    COMMANDO,
    WHFB_UNITS,
    lock_and_pair,
    open_event,
    register,
    register_system,
    system_event,
    user,
)

pytestmark = pytest.mark.django_db
OMS = {"mode": "vp_table", "preset": "oms-2011"}
ALL_RULES = {"mantlets": True, "stakes": True, "baggage": True}


def paired(staff_actor: Actor, event, bodies: dict[str, dict[str, Any] | None]) -> tuple[Game, Any, Any]:
    """Register one account per name with its list body, pair round 1; the game with its first
    player named Alice and its second Bob, and their accounts."""
    for name, body in bodies.items():
        register_system(event, user(f"{event.slug[:12]}-{name}"), name, body)
    found = lock_and_pair(staff_actor, event).games.get()
    Player.objects.filter(pk=found.player_a_id).update(name="Alice")
    Player.objects.filter(pk=found.player_b_id).update(name="Bob")
    game = Game.objects.select_related("round__tournament", "player_a", "player_b").get(pk=found.pk)
    return game, game.player_a.user, game.player_b.user


def whfb_body(*extra: dict[str, Any]) -> dict[str, Any]:
    return {"faction": "empire", "units": [*WHFB_UNITS, *extra]}


@pytest.fixture
def whfb(staff_actor):
    event = system_event(staff_actor, "whfb", "whfb-open", "Bataille de Nuln", points_limit=2000,
                         advanced_rules=ALL_RULES, scoring=OMS)
    return paired(staff_actor, event, {"a": whfb_body(), "b": whfb_body()})


@pytest.fixture
def uw(staff_actor):
    event = system_event(staff_actor, "urban-war", "urban-war-commando", "Zone urbaine", points_limit=250)
    return paired(staff_actor, event, {"a": {"models": COMMANDO}, "b": {"models": COMMANDO}})


@pytest.fixture
def dyn(staff_actor):
    event = open_event(staff_actor, name="Dynamique", turn_system="dynamics", points_limit=1500)
    for name in ("a", "b"):
        register(event, user(f"dyn-{name}"), name)
    found = lock_and_pair(staff_actor, event).games.get()
    Player.objects.filter(pk=found.player_a_id).update(name="Alice")
    Player.objects.filter(pk=found.player_b_id).update(name="Bob")
    game = Game.objects.select_related("round__tournament", "player_a", "player_b").get(pk=found.pk)
    return game, game.player_a.user, game.player_b.user


def get(client, account, game: Game) -> str:
    client.force_login(account)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post(client, account, game: Game, data: dict[str, Any]) -> str:
    client.force_login(account)
    response = client.post(reverse("game", args=[game.pk]), data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    """The page's words without tags, blanks folded (sentences span inline elements)."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def checked(html: str, name: str) -> list[str]:
    """The values of the ticked boxes or radios named ``name``."""
    found = []
    for tag in re.findall(r"<input[^>]*>", html):
        if f'name="{name}"' in tag and " checked" in tag:
            found.append(re.search(r'value="([^"]*)"', tag).group(1))
    return found


# --- Warhammer Battle ---------------------------------------------------------------------------

def test_whfb_form_asks_points_before_the_bonus_the_captor_and_looting_units(client, whfb):
    game, alice, _bob = whfb
    html = get(client, alice, game)
    words = text_of(html)
    assert "Victory points of Alice, before the baggage bonus" in words
    assert "Who captured the enemy baggage?" in words and "Alice (+200 victory points)" in words
    assert "gets +200, added when the result is recorded" in words
    assert "Units of Bob that left by the enemy's edge to loot" in words
    for unit in ("General", "Halberdiers", "Knights", "Baggage wagon"):
        assert f'name="looting_a" value="{unit}"' in html
    assert checked(html, "baggage") == ["none"]
    # Under the ÖMS table the points decide: no result to tick; nothing of Cities of Death.
    assert 'name="winner"' not in html and "Fill in both sides' victory points" in words
    for absent in ('id="vp"', 'id="declarations"', "Stratagem declarations", "Pre-game rolls",
                   "<dt>Mission</dt>", "Objective outcome", 'name="stratagems_a"'):
        assert absent not in html, absent


def test_whfb_report_with_the_baggage_is_previewed_recorded_and_confirmed(client, whfb):
    game, alice, bob = whfb
    data = {"vp_a": "1250", "vp_b": "900", "baggage": str(game.player_a_id),
            "looting_b": ["Knights"]}
    words = text_of(post(client, alice, game, {**data, "action": "preview"}))
    assert "Sending this form records: Alice won." in words
    assert "Alice: 1450 victory points (1250 + 200 for the enemy baggage)." in words
    assert "Bob: 900 victory points." in words
    assert "Tournament points from the table: Alice 12, Bob 8." in words  # 550: the 401–600 band
    assert not Report.objects.filter(game=game).exists()

    words = text_of(post(client, alice, game, {**data, "action": "report"}))
    assert "your opponent must now confirm it" in words
    report = Report.objects.get(game=game)
    assert report.victory_points == {str(game.player_a_id): 1450, str(game.player_b_id): 900}
    assert report.outcome["baggage_captured_by"] == game.player_a_id
    assert report.outcome["looting_units"] == {str(game.player_b_id): ["Knights"]}

    words = text_of(get(client, bob, game))
    assert "Alice captured the baggage of Bob (+200 victory points)." in words
    assert "Units of Bob that left to loot: Knights." in words
    words = text_of(post(client, bob, game, {"action": "confirm"}))
    assert "Result confirmed." in words
    assert "Confirmed result: Alice won." in words
    assert "Alice: 1450 victory points (1250 + 200 for the enemy baggage)." in words
    assert Game.objects.get(pk=game.pk).outcome["baggage_bonus"][str(game.player_a_id)] == 200


def test_whfb_event_without_baggage_or_table_asks_the_result(client, staff_actor):
    event = system_event(staff_actor, "whfb", "whfb-open", "Escarmouche", points_limit=2000)
    units = [u for u in WHFB_UNITS if not u.get("baggage")]
    game, alice, _bob = paired(staff_actor, event, {"a": {"units": units}, "b": {"units": units}})
    html = get(client, alice, game)
    assert 'name="baggage"' not in html and "baggage bonus" not in text_of(html)
    assert 'name="winner"' in html and "Tournament points" not in html
    words = text_of(post(client, alice, game, {"action": "report", "vp_a": "300", "vp_b": "800",
                                                "winner": str(game.player_b_id)}))
    assert "your opponent must now confirm it" in words
    assert Report.objects.get(game=game).winner_id == game.player_b_id


def test_whfb_form_errors_keep_what_was_typed(client, whfb):
    game, alice, _bob = whfb
    html = post(client, alice, game, {"action": "report", "vp_a": "", "vp_b": "700",
                                      "baggage": str(game.player_b_id), "looting_a": ["Knights"]})
    assert "This field is required." in html
    assert 'name="vp_b" value="700"' in html
    assert checked(html, "baggage") == [str(game.player_b_id)]
    assert checked(html, "looting_a") == ["Knights"]
    assert not Report.objects.filter(game=game).exists()


def test_a_refused_report_keeps_what_was_sent_with_the_reason(client, whfb, monkeypatch):
    game, alice, _bob = whfb

    def refuse(*args, **kwargs):
        raise Conflict("Refused for the test.", "refused")

    monkeypatch.setattr(results, "report", refuse)
    html = post(client, alice, game, {"action": "report", "vp_a": "1100", "vp_b": "400",
                                      "baggage": str(game.player_b_id), "looting_b": ["General"]})
    assert "Refused for the test." in html
    assert 'name="vp_a" value="1100"' in html and 'name="vp_b" value="400"' in html
    assert checked(html, "baggage") == [str(game.player_b_id)]
    assert checked(html, "looting_b") == ["General"]


# --- Urban War ----------------------------------------------------------------------------------

def test_urban_war_form_offers_the_opponents_models_and_no_points(client, uw):
    game, alice, _bob = uw
    html = get(client, alice, game)
    words = text_of(html)
    assert "Whose commando was destroyed?" in words and "The commando of Bob" in words
    assert "Models of Bob destroyed by Alice" in words
    points = {e["label"]: e["points"] for e in game.player_b.lists.get(role="").army_list.entries}
    assert f"Sergent ({points['Sergent']} points, commander)" in words
    assert f"Marine 3 ({points['Marine 3']} points)" in words
    assert 'name="destroyed_a" value="Marine 3"' in html
    assert 'name="vp_a"' not in html and 'name="winner"' not in html
    assert "No victory points to type" in words
    # As first shown (nothing destroyed), the line already says what sending records.
    assert "Sending this form records: a draw." in words
    assert "this event scores the game as a draw" in words
    assert 'id="vp"' not in html and 'id="declarations"' not in html


def test_urban_war_destroyed_commando_is_recorded_with_derived_points(client, uw):
    game, alice, bob = uw
    data = {"commando_destroyed": str(game.player_b_id), "destroyed_b": ["Marine 1", "Marine 2"]}
    words = text_of(post(client, alice, game, {**data, "action": "preview"}))
    assert "Sending this form records: Alice won." in words
    assert "Every model of the commando of Bob counts as destroyed." in words
    points = {e["label"]: e["points"] for e in game.player_b.lists.get(role="").army_list.entries}
    total = sum(points.values())
    mine = points["Marine 1"] + points["Marine 2"]
    assert (f"Victory points (the points of the enemy models destroyed): Alice {total}, "
            f"Bob {mine}.") in words

    post(client, alice, game, {**data, "action": "report"})
    report = Report.objects.get(game=game)
    assert report.winner_id == game.player_a_id
    assert report.victory_points == {str(game.player_a_id): total, str(game.player_b_id): mine}
    words = text_of(post(client, bob, game, {"action": "confirm"}))
    assert "Confirmed result: Alice won." in words
    assert "The commando of Bob was destroyed." in words
    assert "Alice destroyed 6 models: Sergent (" in words
    assert f"Bob destroyed 2 models: Marine 1 ({points['Marine 1']} points)" in words


def test_urban_war_refusal_keeps_the_ticked_models_with_the_error(client, uw):
    game, alice, _bob = uw
    every = [m["label"] for m in COMMANDO]
    html = post(client, alice, game, {"action": "report", "commando_destroyed": "none",
                                      "destroyed_a": every})
    assert "commando" in text_of(html).lower() and 'class="errorlist nonfield"' in html
    assert sorted(checked(html, "destroyed_a")) == sorted(every)
    assert checked(html, "commando_destroyed") == ["none"]
    assert not Report.objects.filter(game=game).exists()


def test_urban_war_most_points_mode_gives_the_game_to_the_bigger_killer(client, staff_actor):
    event = system_event(staff_actor, "urban-war", "urban-war-commando", "Zone ouest", points_limit=250,
                         settings={"result_mode": "most_points_destroyed"})
    game, alice, _bob = paired(staff_actor, event, {"a": {"models": COMMANDO}, "b": {"models": COMMANDO}})
    words = text_of(post(client, alice, game, {"action": "preview", "commando_destroyed": "none",
                                                "destroyed_b": ["Sergent"]}))
    assert "the side that destroyed more points wins" in words
    assert "Sending this form records: Bob won." in words


# --- W40K Dynamics ------------------------------------------------------------------------------

def test_dynamics_panel_shows_tokens_orders_and_the_permanent_holder(client, dyn):
    game, alice, _bob = dyn
    Game.objects.filter(pk=game.pk).update(
        pregame={**game.pregame, "permanent_advantage": str(game.player_b_id)})
    html = get(client, alice, game)
    panel = text_of(html[html.index('id="dynamics"'):html.index('id="dice"')])
    # The lists are 380 points (two started blocks of 250) with three units each.
    for line in ("Tokens of each order 2 2", "Tokens in all 10 10", "Sheets of 30 tokens 1 1",
                 "Orders per turn 3 3"):
        assert line in panel, line
    assert "Bob holds the permanent +2 in every advantage test." in panel
    assert "Morale test on 25 % pending casualties (W40K Dynamics)" in panel
    assert "not the Cities of Death 25 % rule" in panel
    assert "25 % or more" in panel
    assert 'value="dynamics_advantage"' in html  # the advantage test is rolled in the dice
    assert 'id="vp"' in html  # the Cities of Death missions and their helper stay


@pytest.mark.parametrize(("rule", "pending", "required"), [
    ("at_least", "3", True), ("more_than", "3", False), ("more_than", "4", True),
    ("at_least", "2", False)])
def test_dynamics_morale_helper_follows_the_events_rule(client, dyn, rule, pending, required):
    game, alice, _bob = dyn
    event = game.round.tournament
    type(event).objects.filter(pk=event.pk).update(settings={**event.settings, "morale_rule": rule})
    words = text_of(post(client, alice, game, {"action": "morale", "models_at_start": "12",
                                                "pending": pending}))
    if required:
        assert f"Morale test required: {pending} pending casualties of 12 models" in words
    else:
        assert f"No morale test: {pending} pending casualties of 12 models" in words
    minimum = 3 if rule == "at_least" else 4
    assert f"From {minimum} pending casualties this unit tests." in words


def test_dynamics_morale_helper_refuses_more_casualties_than_models(client, dyn):
    game, alice, _bob = dyn
    html = post(client, alice, game, {"action": "morale", "models_at_start": "5", "pending": "6"})
    assert "At most the models the unit had at the start of the pass." in html
    assert 'name="pending" value="6"' in html


def test_standard_and_other_systems_have_no_dynamics_panel(client, staff_actor, whfb):
    event = open_event(staff_actor, name="Standard")
    for name in ("s", "t"):
        register(event, user(f"std-{name}"), name)
    found = lock_and_pair(staff_actor, event).games.get()
    assert 'id="dynamics"' not in get(client, found.player_a.user, found)
    game, alice, _bob = whfb
    html = get(client, alice, game)
    assert 'id="dynamics"' not in html and "Morale test" not in html
    html = post(client, alice, game, {"action": "morale", "models_at_start": "4", "pending": "1"})
    assert "morale test" not in text_of(html).lower()  # the helper belongs to Dynamics games
    assert 'name="action" value="vp"' not in html


def test_cities_of_death_confirmed_game_lists_the_victory_points(client, staff_actor):
    event = open_event(staff_actor, name="Cité")
    for name in ("c", "d"):
        register(event, user(f"cod-{name}"), name)
    found = lock_and_pair(staff_actor, event).games.get()
    first, second = found.player_a, found.player_b
    results.report(Actor(user=first.user), found.pk, results.ResultInput(
        winner=first.pk, victory_points={first.pk: 700, second.pk: 300}))
    results.confirm(Actor(user=second.user), found.pk)
    words = text_of(get(client, second.user, found))
    assert f"Confirmed result: {first.name} won." in words
    assert f"{first.name}: 700 victory points" in words
    assert f"{second.name}: 300 victory points" in words


def test_scenario_is_shown_where_there_is_no_mission(client, whfb):
    game, alice, _bob = whfb
    type(game.round).objects.filter(pk=game.round_id).update(scenario="Pitched battle, 6 turns.")
    words = text_of(get(client, alice, game))
    assert "Scenario" in words and "Pitched battle, 6 turns." in words


# --- queries ---------------------------------------------------------------------------------

def whfb_table(staff_actor: Actor, size: int) -> tuple[Game, Any]:
    event = system_event(staff_actor, "whfb", "whfb-open", f"Nuln {size}", points_limit=20_000,
                         advanced_rules=ALL_RULES, scoring=OMS)
    extra = [{"name": f"Spearmen {i}", "slot": "core", "points": 50, "models": 10,
              "unit_type": "infantry"} for i in range(size)]
    game, alice, bob = paired(staff_actor, event, {"a": whfb_body(*extra), "b": whfb_body(*extra)})
    for i in range(size):
        table_rolls.roll(Actor(user=(alice, bob)[i % 2]), game.pk, table_rolls.TableRollRequest("d6"))
    results.report(Actor(user=bob), game.pk, results.ResultInput(
        victory_points={game.player_a_id: 800, game.player_b_id: 950},
        facts={"baggage_captured_by": game.player_b_id}))
    return game, alice


def urban_war_table(staff_actor: Actor, size: int) -> tuple[Game, Any]:
    event = system_event(staff_actor, "urban-war", "urban-war-commando", f"Zone {size}",
                         points_limit=5000, settings={"size_max": 60})
    models = [*COMMANDO, *({"profile": "43101", "cal": 1, "label": f"Extra {i}"}
                           for i in range(size))]
    game, alice, bob = paired(staff_actor, event, {"a": {"models": models}, "b": {"models": models}})
    for i in range(size):
        table_rolls.roll(Actor(user=(alice, bob)[i % 2]), game.pk, table_rolls.TableRollRequest("d10"))
    results.report(Actor(user=bob), game.pk, results.ResultInput(
        facts={"commando_destroyed": None, "destroyed": {str(game.player_b_id): ["Marine 1"]}}))
    return game, alice


# session, user, game, reports, table-roll log and both lists in one; the Urban War form's
# first preview also reads the lists through the service (it scores from the stored commandos).
@pytest.mark.parametrize("size", [2, 30])
@pytest.mark.parametrize(("build", "queries"), [(whfb_table, 6), (urban_war_table, 7)])
def test_system_game_page_queries_do_not_grow(client, staff_actor, size, build, queries,
                                              django_assert_num_queries):
    game, alice = build(staff_actor, size)
    client.force_login(alice)
    with django_assert_num_queries(queries):
        response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    assert response.content.decode().count("<td>Alice</td>") + \
        response.content.decode().count("<td>Bob</td>") == size


@pytest.mark.parametrize("size", [2, 30])
def test_dynamics_game_page_queries_do_not_grow(client, staff_actor, size, django_assert_num_queries):
    event = open_event(staff_actor, name=f"Dynamique {size}", turn_system="dynamics")
    accounts = [user(f"dq{size}a"), user(f"dq{size}b")]
    for i, account in enumerate(accounts):
        register(event, account, f"P{i}")
    found = lock_and_pair(staff_actor, event).games.get()
    for i in range(size):
        table_rolls.roll(Actor(user=accounts[i % 2]), found.pk, table_rolls.TableRollRequest("d6"))
    client.force_login(found.player_a.user)
    # session, user, game, catalogue (3), reports, table-roll log, both main lists in one (the
    # panel), the VP helper's two lists
    with django_assert_num_queries(11):
        response = client.get(reverse("game", args=[found.pk]))
    assert response.status_code == 200 and 'id="dynamics"' in response.content.decode()
