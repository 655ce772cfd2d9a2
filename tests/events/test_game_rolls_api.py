"""Table rolls through the API and per game system (api-v1-systems "Table rolls through the API",
"W40K Dynamics", "Urban War"): every kind, entered dice and their source, the once-per-turn +1,
kinds a system does not use, who may roll, French messages, ``table_rolls`` and ``dynamics`` in
``GET games/{id}/``, and the game page's advantage and initiative forms."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armylists.models import Chart, GameSystem
from events.audit import Actor
from events.models import AuditEntry, Game, Player, Tournament
from events.services import results, rounds, table_rolls, tournaments
from events.systems import DEFAULT, all_event_rules
from missions.dice import EnteredRoller, Roller
from missions.models import DiceRoll, Mission
from systems.rolls import roll_kinds
from systems.urban_war import table_rules as urban_war
from systems.w40k4 import dynamics
from tests.browser.events import lock_and_pair, open_event, register, user
from tests.tournament_fixtures import client_for, expect, get, list_path, post, put

pytestmark = pytest.mark.django_db
COMMANDO = {"models": [{"profile": "43101", "cal": 2, "commander": True, "label": "Sergent"},
                       *({"profile": "43101", "cal": 1, "label": f"Marine {i}"} for i in range(5))]}


# --- events of each system -------------------------------------------------------------------

def _named(found: Game) -> tuple[Game, Any, Any]:
    """The game re-read as the services read it, and the accounts of its first and second player."""
    Player.objects.filter(pk=found.player_a_id).update(name="Alice")
    Player.objects.filter(pk=found.player_b_id).update(name="Bob")
    game = Game.objects.select_related("round__tournament__level", "mission", "player_a",
                                       "player_b").get(pk=found.pk)
    return game, game.player_a.user, game.player_b.user


def chart_game(staff_actor: Actor, prefix: str, **fields: Any) -> tuple[Game, Any, Any]:
    """A published game of a chart event (w40k4 by default) between two registered players."""
    event = open_event(staff_actor, name=f"Event {prefix}", **fields)
    for name in ("a", "b"):
        register(event, user(f"{prefix}-{name}"), name)
    return _named(lock_and_pair(staff_actor, event).games.get())


@pytest.fixture
def w40k(staff_actor):
    return chart_game(staff_actor, "std")


@pytest.fixture
def dyn(staff_actor):
    return chart_game(staff_actor, "dyn", turn_system="dynamics")


@pytest.fixture
def whfb(staff_actor):
    event = tournaments.create_tournament(
        staff_actor, name="Bataille", game_system=GameSystem.objects.get(slug="whfb"),
        chart=Chart.objects.get(slug="whfb-open"), points_limit=2000, rounds=3, seed=7)
    event = tournaments.transition(staff_actor, event, Tournament.Status.REGISTRATION_OPEN)
    for name in ("a", "b"):
        register(event, user(f"whfb-{name}"), name, units=None)
    return _named(lock_and_pair(staff_actor, event).games.get())


@pytest.fixture
def uw(staff_actor):
    event = tournaments.create_tournament(
        staff_actor, name="Zone urbaine", game_system=GameSystem.objects.get(slug="urban-war"),
        chart=Chart.objects.get(slug="urban-war-commando"), points_limit=200, rounds=3, seed=11)
    event = tournaments.transition(staff_actor, event, Tournament.Status.REGISTRATION_OPEN)
    for name in ("a", "b"):
        account = user(f"uw-{name}")
        player = tournaments.register_player(Actor(user=account), event, name=name)
        expect(put(client_for(account), list_path(event.slug, player.pk), COMMANDO), 200)
    return _named(lock_and_pair(staff_actor, event).games.get())


def roll(account: Any, game: Game, **body: Any):
    return post(client_for(account), f"/games/{game.pk}/rolls/", body)


def stored(game: Game) -> tuple[int, int]:
    """(audit entries, DiceRoll rows) of the game's table rolls: nothing may appear on a refusal."""
    return (AuditEntry.objects.filter(action="table_roll", data__game=game.pk).count(),
            DiceRoll.objects.filter(stream__key=table_rolls.stream_key(game.pk)).count())


def with_permanent(game: Game, holder: int | None) -> Game:
    Game.objects.filter(pk=game.pk).update(pregame={**game.pregame, "permanent_advantage":
                                                    None if holder is None else str(holder)})
    return Game.objects.select_related("round__tournament", "player_a", "player_b").get(pk=game.pk)


# --- the systems' kinds ----------------------------------------------------------------------

def test_every_system_roll_kind_is_a_kind_the_service_rolls():
    for rules in (*all_event_rules().values(), DEFAULT):
        for kinds in rules.roll_kinds.values():
            assert kinds and set(kinds) <= {kind.name for kind in roll_kinds()}, rules
    assert all_event_rules()["w40k4"].table_roll_kinds("dynamics")[-1] == "dynamics_advantage"
    assert "dynamics_advantage" not in all_event_rules()["w40k4"].table_roll_kinds("standard")
    assert all_event_rules()["urban-war"].table_roll_kinds("standard") == (
        "d10", "urban_war_side", "urban_war_start", "urban_war_initiative", "urban_war_command_test")
    assert all_event_rules()["whfb"].table_roll_kinds("standard") == ("d6", "2d6", "d3")


@pytest.mark.parametrize(("kind", "faces", "count"), [("d6", 6, 1), ("2d6", 6, 2), ("d3", 3, 1)])
def test_plain_rolls_come_from_the_game_stream_and_are_logged(w40k, kind, faces, count):
    game, alice, _bob = w40k
    body = expect(roll(alice, game, kind=kind, note="  Morale   check "), 201)
    assert body["kind"] == kind and body["source"] == "server" and body["note"] == "Morale check"
    assert len(body["rolls"]) == count and all(1 <= r["die"] <= faces for r in body["rolls"])
    assert set(body["rolls"][0]) == {"die"} and body["total"] == sum(r["die"] for r in body["rolls"])
    assert body["asked_by"] == {"player": game.player_a_id, "username": alice.username}
    assert body["rolled_at"] and "unused_dice" not in body
    replay = Roller(table_rolls.table_seed(game.round.tournament.seed, game.pk))
    assert [r["die"] for r in body["rolls"]] == list(replay.roll(table_rolls.PLAIN[kind], "t").dice)
    made = DiceRoll.objects.get(stream__key=table_rolls.stream_key(game.pk))
    assert made.actor_id == alice.pk and made.purpose == "table"
    entry = AuditEntry.objects.get(pk=body["id"])
    assert entry.actor_id == alice.pk and entry.data["source"] == "server"


def test_cities_of_death_rolls_where_the_mission_offers_them(w40k):
    game, alice, _bob = w40k
    Game.objects.filter(pk=game.pk).update(mission=Mission.objects.get(slug="le-defi"),
                                           pregame={**game.pregame, "dawn_dusk": "turn_1"})
    length = expect(roll(alice, game, kind="game_length", turn=6), 201)
    assert length["turn"] == 6 and length["extra_turn"] == (length["total"] >= 4)
    reserves = expect(roll(alice, game, kind="reserves", turn=2, note="Bikers"), 201)
    assert reserves["target"] == 4 and reserves["arrives"] == (reserves["total"] >= 4)
    night = expect(roll(alice, game, kind="night_fighting"), 201)
    assert len(night["rolls"]) == 2 and night["total"] == 3 * sum(r["die"] for r in night["rolls"])
    expect(roll(alice, game, kind="reserves", turn=1), 400, "table_roll_turn")
    Game.objects.filter(pk=game.pk).update(mission=Mission.objects.get(slug="accrochage"),
                                           pregame={})
    expect(roll(alice, game, kind="game_length", turn=6), 400, "table_roll_unknown")
    expect(roll(alice, game, kind="night_fighting"), 400, "table_roll_unknown")


@pytest.mark.parametrize("kind", ["d10", "dynamics_advantage", "urban_war_initiative", "d20", ""])
def test_kinds_a_standard_w40k_event_does_not_use(w40k, kind):
    game, alice, _bob = w40k
    if kind == "":
        assert roll(alice, game, kind=kind).status_code == 400  # a malformed body
    else:
        expect(roll(alice, game, kind=kind, turn=1, **{"pass": 1}), 400, "roll_kind_not_available")
    assert stored(game) == (0, 0)


def test_warhammer_battle_rolls_plain_dice_only(whfb):
    game, alice, _bob = whfb
    for kind in ("d6", "2d6", "d3"):
        expect(roll(alice, game, kind=kind), 201)
    for kind in ("d10", "game_length", "reserves", "night_fighting", "dynamics_advantage",
                 "urban_war_initiative"):
        expect(roll(alice, game, kind=kind, turn=6), 400, "roll_kind_not_available")


def test_urban_war_rolls_d10s_only(uw):
    game, alice, _bob = uw
    body = expect(roll(alice, game, kind="d10"), 201)
    assert len(body["rolls"]) == 1 and 1 <= body["total"] <= 10
    assert expect(roll(alice, game, kind="d10", dice=[10]), 201)["total"] == 10
    for kind in ("d6", "2d6", "d3", "game_length", "dynamics_advantage"):
        expect(roll(alice, game, kind=kind, turn=6), 400, "roll_kind_not_available")


# --- dice thrown at the table ----------------------------------------------------------------

def test_entered_dice_are_answered_as_the_server_would_and_marked_entered(w40k):
    game, alice, bob = w40k
    body = expect(roll(alice, game, kind="2d6", dice=[3, 5, 6]), 201)
    assert body["rolls"] == [{"die": 3}, {"die": 5}] and body["total"] == 8
    assert body["source"] == "entered" and body["unused_dice"] == [6]
    assert expect(roll(alice, game, kind="d3", dice=[3]), 201)["total"] == 3  # a D3 face is 1–3
    # Entered dice never touch the seeded stream: the next server roll is still roll 0.
    assert stored(game) == (2, 0)
    server = expect(roll(bob, game, kind="d6"), 201)
    replay = Roller(table_rolls.table_seed(game.round.tournament.seed, game.pk))
    assert server["source"] == "server" and server["total"] == replay.roll("D6", "t").total
    sources = [r["source"] for r in expect(get(client_for(bob), f"/games/{game.pk}/"), 200)["table_rolls"]]
    assert sources == ["entered", "entered", "server"]


@pytest.mark.parametrize(("kind", "dice", "code"), [
    ("2d6", [4], "dice_missing"), ("d6", [], "dice_missing"), ("d6", [7], "dice_invalid"),
    ("d6", [0], "dice_invalid"), ("d3", [4], "dice_invalid"), ("2d6", [2, 9], "dice_invalid"),
])
def test_entered_dice_that_do_not_fit_are_refused_and_nothing_stored(w40k, kind, dice, code):
    game, alice, _bob = w40k
    expect(roll(alice, game, kind=kind, dice=dice), 400, code)
    assert stored(game) == (0, 0)


def test_entered_dice_must_be_integers(w40k):
    game, alice, _bob = w40k
    assert roll(alice, game, kind="d6", dice=["six"]).status_code == 400
    assert stored(game) == (0, 0)


# --- W40K Dynamics: the advantage test -------------------------------------------------------

def test_advantage_test_with_bonus_permanent_and_a_re_rolled_tie(dyn):
    game, alice, bob = dyn
    a, b = game.player_a_id, game.player_b_id
    game = with_permanent(game, b)
    # a: 3 + 1 = 4, b: 2 + 2 = 4, a tie; then a: 5 + 1 = 6, b: 1 + 2 = 3.
    body = expect(roll(alice, game, kind="dynamics_advantage", turn=1, bonus_now=a,
                       dice=[3, 2, 5, 1], **{"pass": 4}), 201)
    assert body["rolls"] == [
        {"player": a, "die": 3, "modifier": 1, "score": 4}, {"player": b, "die": 2, "modifier": 2, "score": 4},
        {"player": a, "die": 5, "modifier": 1, "score": 6}, {"player": b, "die": 1, "modifier": 2, "score": 3}]
    assert body["winner"] == a and body["turn"] == 1 and body["pass"] == 4
    assert body["bonus_now"] == a and body["permanent_advantage"] == b and body["source"] == "entered"
    # The same faces through the engine itself give the same answer.
    test = dynamics.advantage_test(EnteredRoller([3, 2, 5, 1]), (str(a), str(b)), bonus_now=str(a),
                                   permanent=str(b))
    assert str(body["winner"]) == test.winner and len(test.rolls) == 4
    seen = expect(get(client_for(bob), f"/games/{game.pk}/"), 200)["table_rolls"]
    assert seen == [body]


def test_advantage_server_roll_replays_from_the_game_stream(dyn):
    game, _alice, bob = dyn
    game = with_permanent(game, None)
    body = expect(roll(bob, game, kind="dynamics_advantage", turn=2, **{"pass": 10}), 201)
    replay = dynamics.advantage_test(Roller(table_rolls.table_seed(game.round.tournament.seed, game.pk)),
                                     ("a", "b"))
    assert [r["die"] for r in body["rolls"]] == [r.total for r in replay.rolls]
    assert all(r["modifier"] == 0 for r in body["rolls"]) and body["permanent_advantage"] is None
    assert body["bonus_now"] is None and body["source"] == "server"
    assert stored(game) == (1, len(replay.rolls))


def test_advantage_bonus_once_per_player_per_turn(dyn):
    game, alice, bob = dyn
    a, b = game.player_a_id, game.player_b_id

    def advantage(account, turn, pass_, bonus):
        return roll(account, game, kind="dynamics_advantage", turn=turn, bonus_now=bonus, **{"pass": pass_})

    expect(advantage(alice, 1, 1, a), 201)
    expect(advantage(bob, 1, 2, a), 409, "advantage_bonus_used")  # whoever asks for it
    assert stored(game)[0] == 1
    expect(advantage(bob, 1, 2, b), 201)  # the other player's +1 of the same turn
    expect(advantage(alice, 1, 3, None), 201)  # no bonus: any number of tests
    expect(advantage(alice, 2, 1, a), 201)  # a new turn, a new +1
    expect(advantage(bob, 2, 2, a), 409, "advantage_bonus_used")


@pytest.mark.parametrize(("body", "code"), [
    ({"turn": 1, "pass": 0}, "table_roll_pass"), ({"turn": 1, "pass": 11}, "table_roll_pass"),
    ({"turn": 1}, "table_roll_pass"), ({"turn": 0, "pass": 1}, "table_roll_turn"),
    ({"turn": 10**9, "pass": 1}, "table_roll_turn"), ({"pass": 1}, "table_roll_turn"),
    ({"turn": 1, "pass": 1, "bonus_now": 999_999}, "player_not_in_game"),
    ({"turn": 1, "pass": 1, "dice": [6]}, "dice_missing"),
])
def test_advantage_bad_input_is_refused_with_a_code(dyn, body, code):
    game, alice, _bob = dyn
    expect(roll(alice, game, kind="dynamics_advantage", **body), 400, code)
    assert stored(game) == (0, 0)


def test_game_shows_the_dynamics_block_only_in_a_dynamics_event(dyn, w40k):
    game, alice, _bob = dyn
    data = expect(get(client_for(alice), f"/games/{game.pk}/"), 200)
    a, b = str(game.player_a_id), str(game.player_b_id)
    # 380-point lists in a 1,000-point event: 2 tokens per order, 3 units.
    assert data["dynamics"]["tokens"][a] == {"per_order": 2, "total": 10, "sheets": 1}
    assert data["dynamics"]["orders_per_turn"] == {a: 3, b: 3}
    assert "permanent_advantage" in data["dynamics"]
    standard, player, _other = w40k
    assert "dynamics" not in expect(get(client_for(player), f"/games/{standard.pk}/"), 200)


# --- Urban War: the initiative ---------------------------------------------------------------

def test_urban_war_initiative_with_a_commander_down_and_a_tie(uw):
    game, alice, bob = uw
    a, b = game.player_a_id, game.player_b_id
    # a: 5 − 1 = 4, b: 4, a tie; then a: 7 − 1 = 6, b: 3.
    body = expect(roll(bob, game, kind="urban_war_initiative", turn=3, commander_down=[a, a],
                       dice=[5, 4, 7, 3, 9]), 201)
    assert body["rolls"] == [
        {"player": a, "die": 5, "modifier": -1, "score": 4}, {"player": b, "die": 4, "modifier": 0, "score": 4},
        {"player": a, "die": 7, "modifier": -1, "score": 6}, {"player": b, "die": 3, "modifier": 0, "score": 3}]
    assert body["winner"] == a and body["turn"] == 3 and body["commander_down"] == [a]
    assert body["unused_dice"] == [9] and body["source"] == "entered"
    engine = urban_war.initiative(EnteredRoller([5, 4, 7, 3]), (str(a), str(b)), 3, (str(a),))
    assert engine.to_dict()["rolls"] == [{**r, "player": str(r["player"])} for r in body["rolls"]]
    server = expect(roll(alice, game, kind="urban_war_initiative", turn=1), 201)
    assert all(1 <= r["die"] <= 10 and r["modifier"] == 0 for r in server["rolls"])
    assert server["winner"] in (a, b) and server["commander_down"] == []


@pytest.mark.parametrize("kind", ["urban_war_side", "urban_war_start"])
def test_urban_war_set_up_rolls_are_d10_roll_offs(uw, kind):
    game, alice, _bob = uw
    a, b = game.player_a_id, game.player_b_id
    body = expect(roll(alice, game, kind=kind, dice=[6, 6, 2, 9]), 201)
    assert body["rolls"] == [
        {"player": a, "die": 6, "modifier": 0, "score": 6}, {"player": b, "die": 6, "modifier": 0, "score": 6},
        {"player": a, "die": 2, "modifier": 0, "score": 2}, {"player": b, "die": 9, "modifier": 0, "score": 9}]
    assert body["winner"] == b and body["source"] == "entered"
    expect(roll(alice, game, kind=kind, dice=[11, 2]), 400, "dice_invalid")
    server = expect(roll(alice, game, kind=kind), 201)
    assert all(1 <= r["die"] <= 10 for r in server["rolls"]) and server["winner"] in (a, b)


@pytest.mark.parametrize(("body", "code"), [
    ({"turn": 1, "commander_down": [123456]}, "player_not_in_game"), ({}, "table_roll_turn"),
    ({"turn": -1}, "table_roll_turn"), ({"turn": 1, "dice": [11, 2]}, "dice_invalid"),
    ({"turn": 1, "dice": [4, 4]}, "dice_missing"),
])
def test_urban_war_initiative_bad_input(uw, body, code):
    game, alice, _bob = uw
    expect(roll(alice, game, kind="urban_war_initiative", **body), 400, code)
    assert stored(game) == (0, 0)


# --- who may roll ----------------------------------------------------------------------------

def test_permissions_anonymous_stranger_player_staff(w40k, staff_actor):
    game, alice, bob = w40k
    path = f"/games/{game.pk}/rolls/"
    assert post(client_for(), path, {"kind": "d6"}).status_code == 401
    stranger = user("mallory")
    expect(roll(stranger, game, kind="d6"), 403, "not_your_game")
    expect(roll(stranger, game, kind="nonsense", dice="x"), 403, "not_your_game")  # before the body
    assert stored(game) == (0, 0)
    expect(roll(alice, game, kind="d6"), 201)
    expect(roll(bob, game, kind="d6"), 201)
    by_staff = expect(roll(staff_actor.user, game, kind="d6"), 201)
    assert by_staff["asked_by"] == {"player": None, "username": staff_actor.user.username}
    expect(roll(alice, Game(pk=game.pk + 10_000), kind="d6"), 404, "game_not_found")


def test_a_draft_round_game_is_unknown_and_a_confirmed_or_bye_game_rolls_nothing(staff_actor):
    event = open_event(staff_actor, name="Brouillon")
    accounts = [user("draft-a"), user("draft-b"), user("draft-c")]
    for i, account in enumerate(accounts):
        register(event, account, f"P{i}")
    round_ = lock_and_pair(staff_actor, event, draft=True)
    game = round_.games.exclude(player_b=None).select_related("player_a").get()
    expect(roll(game.player_a.user, game, kind="d6"), 404, "game_not_found")
    expect(roll(staff_actor.user, game, kind="d6"), 409, "round_not_published")
    rounds.publish_round(staff_actor, round_.tournament, round_.number)
    bye = round_.games.get(player_b=None)
    expect(roll(staff_actor.user, bye, kind="d6"), 409, "game_is_bye")
    results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    expect(roll(game.player_a.user, game, kind="d6"), 409, "game_confirmed")
    assert stored(game) == (0, 0)


# --- messages in French ----------------------------------------------------------------------

def test_refusals_in_french(w40k, dyn):
    game, alice, _bob = w40k
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    path = f"/games/{game.pk}/rolls/"
    body = expect(post(client_for(user("eve")), path, {"kind": "d6"}, **french), 403, "not_your_game")
    assert body["detail"] == "Seuls les joueurs de cette partie ou un organisateur peuvent faire cela."
    body = expect(post(client_for(alice), path, {"kind": "2d6", "dice": [3]}, **french), 400, "dice_missing")
    assert body["detail"] == "Pas assez de dés saisis\u00a0: 1 donnés, il en faut au moins 2."
    body = expect(post(client_for(alice), path, {"kind": "d6", "dice": [9]}, **french), 400, "dice_invalid")
    assert body["detail"].startswith("Le dé n° 1 indique 9")
    dyn_game, dyn_alice, _dyn_bob = dyn
    body = expect(post(client_for(dyn_alice), f"/games/{dyn_game.pk}/rolls/",
                       {"kind": "dynamics_advantage", "turn": 99, "pass": 1}, **french), 400, "table_roll_turn")
    assert body["detail"] == "Aucun dé n'est lancé pour cela à ce tour."
    body = expect(post(client_for(dyn_alice), f"/games/{dyn_game.pk}/rolls/",
                       {"kind": "dynamics_advantage", "turn": 1, "pass": 1, "bonus_now": 424242},
                       **french), 400, "player_not_in_game")
    assert body["detail"] == "Le joueur 424242 n'a pas joué cette partie."
    body = expect(post(client_for(alice), f"/games/{game.pk + 10_000}/rolls/", {"kind": "d6"}, **french),
                  404, "game_not_found")
    assert body["detail"] == "Cette partie n'existe pas."


# --- the game's GET --------------------------------------------------------------------------

def test_table_rolls_are_shown_to_both_players_and_staff_only(w40k, staff_actor):
    game, alice, bob = w40k
    first = expect(roll(alice, game, kind="d6", note="Morale"), 201)
    second = expect(roll(bob, game, kind="2d6", dice=[1, 2]), 201)
    path = f"/games/{game.pk}/"
    for account in (alice, bob, staff_actor.user):
        assert expect(get(client_for(account), path), 200)["table_rolls"] == [first, second]
    assert "table_rolls" not in expect(get(client_for(user("eve")), path), 200)
    assert "table_rolls" not in expect(get(client_for(), path), 200)


def test_game_get_runs_a_constant_number_of_queries(dyn):
    game, alice, _bob = dyn
    client = client_for(alice)
    counts = []
    for more in (1, 20):
        for pass_ in range(more):
            expect(roll(alice, game, kind="dynamics_advantage", turn=len(counts) + 1,
                        **{"pass": pass_ % 10 + 1}), 201)
        with CaptureQueriesContext(connection) as queries:
            expect(get(client, f"/games/{game.pk}/"), 200)
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- the game page ---------------------------------------------------------------------------

def page_post(client, account, game: Game, data: dict[str, str]) -> str:
    client.force_login(account)
    response = client.post(reverse("game", args=[game.pk]), data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_game_page_posts_the_advantage_form(client, dyn):
    game, alice, bob = dyn
    game = with_permanent(game, game.player_b_id)
    client.force_login(alice)
    text = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="dynamics_advantage"' in text and 'name="pass_number"' in text
    assert 'name="bonus_now"' in text and "Bob holds the permanent +2." in text
    data = {"action": "roll", "kind": "dynamics_advantage", "nonce": "0123456789abcdef",
            "turn": "2", "pass_number": "3", "bonus_now": str(game.player_a_id)}
    text = page_post(client, alice, game, data)
    line = table_rolls.log(game)[0]
    assert line.kind == "dynamics_advantage" and line.details["bonus_now"] == "a"
    assert line.details["turn"] == 2 and line.details["pass"] == 3 and line.details["permanent"] == "b"
    assert "Advantage test, turn 2, pass 3 (+1 for Alice)" in text and "wins the advantage." in text
    page_post(client, alice, game, data)  # the same form sent twice: the same roll
    assert len(table_rolls.log(game)) == 1
    text = page_post(client, bob, game, {**data, "nonce": "fedcba9876543210"})
    assert "already used the +1" in text and len(table_rolls.log(game)) == 1
    both = {**data, "nonce": "00112233445566778899", "bonus_now": [str(game.player_a_id),
                                                                    str(game.player_b_id)]}
    text = page_post(client, bob, game, both)
    assert "Only one player can have finished placing orders first." in text
    assert len(table_rolls.log(game)) == 1


def test_game_page_offers_the_urban_war_initiative(client, uw):
    game, alice, bob = uw
    client.force_login(bob)
    text = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="urban_war_initiative"' in text and 'name="commander_down"' in text
    assert 'value="d10"' in text and 'value="d6"' not in text and 'name="pass_number"' not in text
    text = page_post(client, bob, game, {"action": "roll", "kind": "urban_war_initiative", "turn": "1",
                                         "commander_down": str(game.player_b_id)})
    line = table_rolls.log(game)[0]
    assert line.details["commander_down"] == ["b"] and line.winner in ("a", "b")
    assert "Initiative, turn 1" in text and "wins the initiative." in text
    assert "Bob " in text and "-1 = " in text


def test_standard_game_page_has_no_system_forms(client, w40k):
    game, alice, _bob = w40k
    client.force_login(alice)
    text = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="d6"' in text and 'value="dynamics_advantage"' not in text
    assert 'value="urban_war_initiative"' not in text and 'value="d10"' not in text


def test_the_game_page_logs_the_set_up_rolls_in_words(uw, client):
    game, alice, _bob = uw
    expect(roll(alice, game, kind="urban_war_side", dice=[3, 8]), 201)
    expect(roll(alice, game, kind="urban_war_start", dice=[9, 1]), 201)
    client.force_login(game.player_a.user)
    page = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{game.player_b.name} chooses the table edge" in page
    assert f"{game.player_a.name} chooses who plays first." in page
    assert "Roll for who starts (after deployment)" in page


@pytest.mark.parametrize(("dice", "body", "total", "passed", "automatic"), [
    ([6, 3], {"cd": 4, "cal": 2}, 9, True, False),            # 9 + 4 + 2 = 15: passed
    ([6, 3], {"cd": 4, "cal": 2, "modifiers": [-1]}, 9, False, False),  # 14
    ([2, 3], {"cd": 10, "cal": 9}, 5, False, True),           # an unmodified 5 always fails
])
def test_urban_war_command_test(uw, dice, body, total, passed, automatic):
    game, alice, _bob = uw
    answer = expect(roll(alice, game, kind="urban_war_command_test", dice=dice, **body), 201)
    assert answer["rolls"] == [{"die": dice[0]}, {"die": dice[1]}] and answer["total"] == total
    assert answer["passed"] is passed and answer["automatic_failure"] is automatic
    assert answer["cd"] == body["cd"] and answer["modifier"] == sum(body.get("modifiers", []))
    engine = urban_war.command_test(dice, body["cd"], body["cal"], body.get("modifiers", []))
    assert (engine.passed, engine.automatic_failure) == (passed, automatic)


@pytest.mark.parametrize(("body", "code"), [
    ({"cal": 1}, "cd_out_of_range"), ({"cd": 11, "cal": 1}, "cd_out_of_range"),
    ({"cd": 4, "cal": -1}, "cal_out_of_range"), ({"cd": 4}, "cal_out_of_range"),
])
def test_urban_war_command_test_bad_input(uw, body, code):
    game, alice, _bob = uw
    expect(roll(alice, game, kind="urban_war_command_test", **body), 400, code)


def test_the_game_page_rolls_a_command_test(uw, client):
    game, _alice, _bob = uw
    client.force_login(game.player_a.user)
    page = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Roll a command test" in page and 'name="cd"' in page
    client.post(f"/games/{game.pk}/", {"action": "roll", "kind": "urban_war_command_test", "cd": "4",
                                       "cal": "2", "modifier": "0", "nonce": "ab" * 8},
                HTTP_ACCEPT_LANGUAGE="en")
    page = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Command test: CD 4, CAL 2, modifiers +0" in page
    assert "against 15: passed." in page or "against 15: failed." in page or "always fails" in page
