"""The game page: table rolls (logged, shared, idempotent per form), the VP helper (25% rule),
objective outcomes in the report form, stratagem declarations, and a constant query count."""
from __future__ import annotations

import re
from html import escape

import pytest
from django.urls import reverse

from events.audit import Actor
from events.errors import Conflict, Forbidden, Invalid
from events.models import AuditEntry, Game, Player, Report
from events.services import declarations, results, table_rolls
from missions.dice import Roller
from missions.models import DiceRoll, Mission, Stratagem
from tests.browser.events import LEGAL_UNITS, lock_and_pair, open_event, register, user

pytestmark = pytest.mark.django_db
NONCE_A, NONCE_B = "0123456789abcdef", "fedcba9876543210"


@pytest.fixture
def table(staff_actor):
    """A published gamma game between Alice and Bob; returns (game, alice's, bob's account)."""
    event = open_event(staff_actor)
    accounts = {name: user(name) for name in ("alice", "bob")}
    for name, account in accounts.items():
        register(event, account, name.title())
    found = lock_and_pair(staff_actor, event).games.get()
    # Pairing order is the seed's: name the first player Alice, whoever registered first.
    by_user = {a.pk: a for a in accounts.values()}
    first, second = by_user[found.player_a.user_id], by_user[found.player_b.user_id]
    Player.objects.filter(pk=found.player_a_id).update(name="Alice")
    Player.objects.filter(pk=found.player_b_id).update(name="Bob")
    return Game.objects.get(pk=found.pk), first, second


def set_mission(found: Game, slug: str, **fields) -> Game:
    """Give the game another mission (pairing rolled one at random); roles for role missions."""
    mission = Mission.objects.get(slug=slug)
    if mission.roles and "roles" not in fields:
        fields["roles"] = {str(found.player_a_id): "attacker", str(found.player_b_id): "defender"}
    Game.objects.filter(pk=found.pk).update(mission=mission, **fields)
    return Game.objects.select_related("round__tournament__level", "mission", "player_a",
                                       "player_b").get(pk=found.pk)


def page(client, account, found: Game, data: dict | None = None, follow: bool = True):
    client.force_login(account)
    url = reverse("game", args=[found.pk])
    response = client.get(url) if data is None else client.post(url, data, follow=follow)
    return response, response.content.decode()


def roll_post(kind: str, nonce: str = "", **extra) -> dict:
    return {"action": "roll", "kind": kind, "nonce": nonce, **{k: str(v) for k, v in extra.items()}}


# --- table rolls -----------------------------------------------------------------------------

def test_every_roll_kind_is_stored_with_its_roller_and_shown_to_both(client, table):
    found, alice, bob = table
    # Le Défi has Random Game Length and Reserves at every level; night fell on turn 1.
    found = set_mission(found, "le-defi", pregame={"dawn_dusk": "turn_1"})
    posts = [roll_post("game_length", turn=6), roll_post("reserves", turn=2, what="Bikers"),
             roll_post("night_fighting"), roll_post("d6", what="Morale check"),
             roll_post("2d6"), roll_post("d3")]
    for data in posts:
        response, _text = page(client, alice, found, data)
        assert response.status_code == 200
    rolls = list(DiceRoll.objects.filter(stream__key=f"game:{found.pk}").order_by("sequence"))
    assert [r.purpose for r in rolls] == ["game_length", "reserves", "night_fighting",
                                          "table", "table", "table"]
    assert [r.expression for r in rolls] == ["1D6", "1D6", "2D6x3", "1D6", "2D6", "1D3"]
    assert all(r.actor_id == alice.pk for r in rolls)
    entries = AuditEntry.objects.filter(action="table_roll", data__game=found.pk)
    assert entries.count() == 6 and all(e.actor_id == alice.pk for e in entries)
    _response, seen_by_bob = page(client, bob, found)
    for words in ("Random game length, end of turn 6", "Reserves, start of turn 2 (arrives on 4+)",
                  "Bikers", "Night fighting range", "Morale check", "2D6", "D3"):
        assert words in seen_by_bob, words
    assert seen_by_bob.count("<td>Alice</td>") == 6
    # Newest first: the D3 roll is the first row of the log.
    log = seen_by_bob[seen_by_bob.index('class="table-rolls"'):]
    assert log.index("D3") < log.index("Random game length")


def test_rolls_replay_from_the_tournament_seed(table):
    found, alice, _bob = table
    seed = table_rolls.table_seed(found.round.tournament.seed, found.pk)
    assert seed == table_rolls.table_seed(found.round.tournament.seed, found.pk)
    assert seed != table_rolls.table_seed(found.round.tournament.seed, found.pk + 1)
    made = [table_rolls.roll(Actor(user=alice), found.pk, table_rolls.TableRollRequest("2d6"))
            for _ in range(3)]
    replay = Roller(seed)
    assert [m.dice for m in made] == [replay.roll("2D6", "table").dice for _ in range(3)]


def test_game_length_and_reserves_words_follow_the_engine(client, table):
    found, alice, _bob = table
    found = set_mission(found, "le-defi")
    for _ in range(4):
        page(client, alice, found, roll_post("game_length", turn=7))
        page(client, alice, found, roll_post("reserves", turn=3))
    _response, text = page(client, alice, found)
    for line in table_rolls.log(found):
        if line.kind == "game_length":
            assert line.details["extra_turn"] == (line.total >= 4)
        else:
            assert line.details["target"] == 3 and line.details["arrives"] == (line.total >= 3)
    extra = text.count("4+: one more turn is played (turn 8).")
    ends = text.count("1–3: the game ends after turn 7.")
    assert extra + ends == 4
    assert text.count("The unit arrives.") + text.count("The unit stays in reserve.") == 4


def test_resubmitted_form_returns_the_earlier_roll(client, table):
    found, alice, bob = table
    for _ in range(2):
        page(client, alice, found, roll_post("d6", NONCE_A))
    assert DiceRoll.objects.filter(stream__key=f"game:{found.pk}").count() == 1
    page(client, alice, found, roll_post("2d6", NONCE_A))  # the same form's other button
    assert DiceRoll.objects.filter(stream__key=f"game:{found.pk}").count() == 2
    page(client, alice, found, roll_post("d6", NONCE_B))
    page(client, bob, found, roll_post("d6"))  # no nonce: every post rolls
    page(client, bob, found, roll_post("d6"))
    assert DiceRoll.objects.filter(stream__key=f"game:{found.pk}").count() == 5


def test_strangers_and_anonymous_cannot_roll(client, table):
    found, _alice, _bob = table
    url = reverse("game", args=[found.pk])
    assert client.post(url, roll_post("d6")).status_code == 302  # to the log-in page
    client.force_login(user("mallory"))
    assert client.post(url, roll_post("d6")).status_code == 403
    with pytest.raises(Forbidden):
        table_rolls.roll(Actor(user=user("eve")), found.pk, table_rolls.TableRollRequest("d6"))
    assert not DiceRoll.objects.filter(stream__key=f"game:{found.pk}").exists()


def test_staff_may_roll_and_is_named_as_organiser(client, staff_actor, table):
    found, alice, _bob = table
    page(client, staff_actor.user, found, roll_post("d6"))
    _response, text = page(client, alice, found)
    assert "organiser (organiser)" in text


def test_rolls_refused_on_a_confirmed_game_and_for_missing_rules(client, staff_actor, table):
    found, alice, _bob = table
    found = set_mission(found, "accrochage")  # gamma: no Random Game Length, no Reserves
    _response, text = page(client, alice, found, roll_post("game_length", turn=6))
    assert "This mission has no such roll." in text
    _response, text = page(client, alice, found)
    assert 'value="game_length"' not in text and 'value="reserves"' not in text
    results.report(staff_actor, found.pk, results.ResultInput(winner=found.player_a_id))
    _response, text = page(client, alice, found, roll_post("d6"))
    assert "no more dice can be rolled" in text
    with pytest.raises(Conflict):
        table_rolls.roll(Actor(user=alice), found.pk, table_rolls.TableRollRequest("d6"))
    assert not DiceRoll.objects.filter(stream__key=f"game:{found.pk}").exists()
    assert 'value="roll"' not in text


def test_roll_refused_on_a_draft_round(staff_actor):
    event = open_event(staff_actor)
    register(event, user("alice"), "Alice")
    register(event, user("bob"), "Bob")
    found = lock_and_pair(staff_actor, event, draft=True).games.get()
    with pytest.raises(Conflict, match="not published"):
        table_rolls.roll(staff_actor, found.pk, table_rolls.TableRollRequest("d6"))


# --- victory-points helper -------------------------------------------------------------------

def vp_post(rows_a: list[dict], rows_b: list[dict], **extra) -> dict:
    data = {"action": "vp", "vp_compute": "1", **extra}
    for prefix, rows in (("vpa", rows_a), ("vpb", rows_b)):
        data.update({f"{prefix}-TOTAL_FORMS": str(len(rows) + 1), f"{prefix}-INITIAL_FORMS": "0",
                     f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "500"})
        for i, row in enumerate(rows):
            unit = {"type": "infantry", "vehicle_damage": "none", **row}
            data.update({f"{prefix}-{i}-{k}": str(v) for k, v in unit.items()})
        data[f"{prefix}-{len(rows)}-type"] = "infantry"
        data[f"{prefix}-{len(rows)}-vehicle_damage"] = "none"
    return data


def unit(name: str, points: int, start: int, left: int, **extra) -> dict:
    return {"name": name, "points": points, "starting_models": start, "remaining_models": left, **extra}


def test_vp_helper_is_prefilled_from_the_lists(client, table):
    found, alice, _bob = table
    _response, text = page(client, alice, found)
    for name in ("Tactical Squad", "Scout Squad"):
        assert f'value="{name}"' in text
    row = re.search(r'name="vpa-1-name"[^>]*value="([^"]+)"', text) or re.search(
        r'value="([^"]+)"[^>]*name="vpa-1-name"', text)
    assert row and row.group(1) == LEGAL_UNITS[1]["name"]
    assert 'name="vpa-1-remaining_models" value="10"' in text
    assert re.search(r'<option value="character" selected>', text)  # the single-model HQ


def test_vp_helper_applies_the_25_percent_rule(client, table):
    """§5.2: below 25% of its models a unit gives half its points; exactly 25% gives nothing.

    Alice's units give Bob: Tactical 2/10 (8 < 10: half of 180 = 90), Scout 0/5 (all: 100),
    Veterans 2/8 (exactly 25%: 0), Captain alive (0): Bob scores 190.
    Bob's units give Alice: Captain dead (100), Tactical 3/10 (12 >= 10: 0), Scout 1/5 (4 < 5:
    half of 100 = 50): Alice scores 150. Accrochage scores no own units."""
    found, alice, _bob = table
    found = set_mission(found, "accrochage")
    rows_a = [unit("Captain", 100, 1, 1, type="character"), unit("Tactical Squad", 180, 10, 2),
              unit("Scout Squad", 100, 5, 0), unit("Veterans", 100, 8, 2)]
    rows_b = [unit("Captain", 100, 1, 0, type="character"), unit("Tactical Squad", 180, 10, 3),
              unit("Scout Squad", 100, 5, 1)]
    response, text = page(client, alice, found, vp_post(rows_a, rows_b))
    result = response.context["vp_result"]
    assert [s.victory_points for s in result.sides] == [150, 190]
    assert [u.conceded for u in result.sides[0].units] == [0, 90, 100, 0]
    assert [u.operational for u in result.sides[0].units] == [True, False, False, True]
    assert "Alice: 150 victory points" in text and "Bob: 190 victory points" in text
    form = response.context["report_form"]
    assert (form["vp_a"].value(), form["vp_b"].value()) == (150, 190)
    assert not Report.objects.filter(game=found).exists()  # computing sends nothing


def test_vp_helper_shows_impossible_rows_as_errors(client, table):
    found, alice, _bob = table
    rows_a = [unit("Tactical Squad", 180, 10, 12)]
    rows_b = [unit("Rhino", 50, 1, 1, vehicle_damage="damaged")]
    response, text = page(client, alice, found, vp_post(rows_a, rows_b))
    assert response.context["vp_result"] is None
    assert "“Tactical Squad”: 12 models remaining, but it started with 10." in text
    assert "“Rhino”: only a vehicle can be damaged or destroyed as a vehicle." in text
    assert text.count("unit vp has-error") == 2


def test_vp_helper_add_rows_keeps_what_was_typed(client, table):
    found, alice, _bob = table
    data = vp_post([unit("Ogryns", 120, 3, 1)], [], vp_add_rows="1")
    del data["vp_compute"]
    response, text = page(client, alice, found, data)
    sets = {s["player"].pk: s["formset"] for s in response.context["vp_sides"]}
    grown = sets[found.player_a_id]
    assert len(grown.forms) == 1 + 1 + 3 and grown.forms[0]["name"].value() == "Ogryns"


# --- objective outcome -----------------------------------------------------------------------

def test_flags_outcome_decides_the_winner(client, table):
    found, alice, _bob = table
    found = set_mission(found, "accrochage")
    a, b = found.player_a_id, found.player_b_id
    _response, text = page(client, alice, found)
    assert 'name="out_flags_a"' in text
    assert re.search(r'value="objective"[^>]*checked', text)
    # A draw ticked with an outcome is refused: the objective gives draws itself.
    response, text = page(client, alice, found, {"action": "report", "winner": "draw",
                                                 "out_flags_a": "3", "out_flags_b": "1"})
    assert "Decided by the objective" in text and not Report.objects.filter(game=found).exists()
    response, text = page(client, alice, found, {"action": "report", "winner": "objective",
                                                 "out_flags_a": "3"})
    assert "Fill this in to let the objective decide." in text
    page(client, alice, found, {"action": "report", "winner": "objective",
                                "out_flags_a": "1", "out_flags_b": "3"})
    reported = Report.objects.get(game=found)
    assert reported.winner_id == b and reported.outcome == {"flags": {str(a): 1, str(b): 3}}


def test_outcome_against_the_ticked_winner_is_refused(client, table):
    found, alice, _bob = table
    found = set_mission(found, "accrochage")
    _response, text = page(client, alice, found, {
        "action": "report", "winner": str(found.player_a_id), "out_flags_a": "0", "out_flags_b": "2"})
    assert "The winner does not match the objective outcome." in text
    assert not Report.objects.filter(game=found).exists()


def test_capture_building_nobody_is_a_draw(client, table):
    found, alice, _bob = table
    found = set_mission(found, "position-strategique")
    page(client, alice, found, {"action": "report", "winner": "objective", "out_holder": "none"})
    reported = Report.objects.get(game=found)
    assert reported.winner_id is None and reported.outcome == {"holder": None}


def test_missions_without_outcome_keep_the_plain_form(client, table):
    found, alice, _bob = table
    found = set_mission(found, "offensive-majeure")
    _response, text = page(client, alice, found)
    assert 'value="objective"' not in text and 'name="out_' not in text


# --- what a report records, said before it is sent --------------------------------------------

def preview_line(text: str) -> str:
    start = text.index('id="report-preview"')
    return text[start:text.index("</div>", start)]


def test_objective_draw_against_the_vp_needs_a_confirmation(client, table):
    """Assaut Urbain with nothing ticked is a draw: 1200–800 VP must not make it one silently."""
    found, alice, _bob = table
    found = set_mission(found, "assaut-urbain")
    _response, text = page(client, alice, found)
    assert "Sending this form records: a draw." in preview_line(text)  # said before sending
    sent = {"action": "report", "winner": "objective", "vp_a": "1200", "vp_b": "800"}
    _response, text = page(client, alice, found, sent)
    line = preview_line(text)
    assert "records a draw, but the victory points (1200–800) say Alice won" in line
    assert "I confirm: the objective decided the game, not the victory points" in line
    assert not Report.objects.filter(game=found).exists()
    page(client, alice, found, {**sent, "confirm_vp": "on"})
    reported = Report.objects.get(game=found)
    assert reported.winner_id is None and reported.victory_points == {
        str(found.player_a_id): 1200, str(found.player_b_id): 800}


def test_preview_button_says_what_would_be_recorded_and_sends_nothing(client, table):
    found, alice, _bob = table
    found = set_mission(found, "assaut-urbain")
    _response, text = page(client, alice, found, {
        "action": "preview", "winner": "objective", "out_occupies_enemy_ruin_b": "on",
        "vp_a": "300", "vp_b": "500"})
    line = preview_line(text)
    assert "Sending this form records: Bob won." in line and "objective outcome decides" in line
    assert "I confirm" not in line  # the VP agree
    assert not Report.objects.filter(game=found).exists()
    assert 'value="preview"' in text and "report-preview.js" in text


def test_winner_with_fewer_vp_on_a_vp_mission_is_refused(client, table):
    found, alice, _bob = table
    found = set_mission(found, "offensive-majeure")  # most VP wins (§6.4)
    sent = {"action": "report", "winner": str(found.player_a_id), "vp_a": "200", "vp_b": "900",
            "confirm_vp": "on"}
    _response, text = page(client, alice, found, sent)
    assert "On this mission the victory points decide" in preview_line(text)
    assert "I confirm" not in preview_line(text)  # no way round it
    assert not Report.objects.filter(game=found).exists()
    page(client, alice, found, {**sent, "winner": str(found.player_b_id)})
    assert Report.objects.get(game=found).winner_id == found.player_b_id


def test_consistent_reports_need_no_confirmation(client, table):
    found, alice, _bob = table
    found = set_mission(found, "accrochage")
    page(client, alice, found, {"action": "report", "winner": "objective", "out_flags_a": "2",
                                "out_flags_b": "0", "vp_a": "700", "vp_b": "100"})
    assert Report.objects.get(game=found).winner_id == found.player_a_id


def test_pending_confirmation_comes_first_on_the_opponents_page(client, table):
    found, alice, bob = table
    _response, text = page(client, alice, found)
    assert text.index("Your game is on.") < text.index('id="mission-title"')
    page(client, alice, found, {"action": "report", "winner": str(found.player_a_id)})
    _response, text = page(client, bob, found)
    confirm = text.index('value="confirm"')
    assert confirm < text.index('class="facts"') and confirm < text.index('id="mission-title"')
    assert "Your opponent reported this result" in text
    _response, text = page(client, alice, found)
    assert "Waiting for the opponent to confirm." in text and "Your game is on." not in text


def test_logged_out_visitor_is_sent_to_log_in_and_back(client, table):
    found, alice, _bob = table
    url = reverse("game", args=[found.pk])
    response = client.get(url)
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={url}"
    response = client.post(response.url, {"username": alice.username,
                                          "password": "player-pass-1234"})
    assert response.url == url


# --- stratagem declarations ------------------------------------------------------------------

def test_declaration_stored_replaced_then_closed(table):
    found, alice, bob = table
    a = found.player_a_id
    declarations.declare(Actor(user=alice), found.pk, a, ["piege"])
    declarations.declare(Actor(user=alice), found.pk, a, ["barricades", "sapeurs"])
    assert Game.objects.get(pk=found.pk).declarations == {str(a): ["barricades", "sapeurs"]}
    audit = list(AuditEntry.objects.filter(action="stratagems_declared").order_by("pk"))
    assert [(e.data["old"], e.data["new"]) for e in audit] == [
        (None, ["piege"]), (["piege"], ["barricades", "sapeurs"])]
    with pytest.raises(Forbidden):
        declarations.declare(Actor(user=bob), found.pk, a, [])
    results.report(Actor(user=alice), found.pk, results.ResultInput(winner=a))
    with pytest.raises(Conflict):
        declarations.declare(Actor(user=alice), found.pk, a, ["piege"])
    assert Game.objects.get(pk=found.pk).declarations == {str(a): ["barricades", "sapeurs"]}


def test_illegal_declaration_refused_with_the_stratagem_message(client, table):
    found, alice, _bob = table
    with pytest.raises(Invalid, match="this level and mission allow 2"):
        declarations.declare(Actor(user=alice), found.pk, found.player_a_id,
                             ["piege", "barricades", "sapeurs"])
    _response, text = page(client, alice, found, {
        "action": "declare", "player": str(found.player_a_id),
        "stratagems": ["piege", "barricades", "sapeurs"]})
    assert "this level and mission allow 2" in text
    assert Game.objects.get(pk=found.pk).declarations == {}


def test_declarations_shown_to_both_and_prefill_the_report(client, table):
    found, alice, bob = table
    a = found.player_a_id
    _response, text = page(client, alice, found, {"action": "declare", "player": str(a),
                                                  "stratagems": ["piege"]})
    assert "Stratagems declared." in text
    response, text = page(client, bob, found)
    name = escape(Stratagem.objects.get(slug="piege").name)
    assert f"<strong>Alice</strong>: {name}" in text and "<strong>Bob</strong>: <span" in text
    form = response.context["report_form"]
    assert form["stratagems_a"].value() == ["piege"]
    assert re.search(r'value="piege"[^>]*id="id_stratagems_a_\d+" checked', text)
    # Bob may declare only his own side.
    forms = response.context["declare_forms"]
    assert [f["player"].pk for f in forms] == [found.player_b_id]


def test_declaration_choices_leave_out_forbidden_categories(client, table):
    found, alice, _bob = table
    found = set_mission(found, "attaque-eclair")
    response, _text = page(client, alice, found)
    choices = [slug for slug, _label in
               response.context["declare_forms"][0]["form"].fields["stratagems"].choices]
    deployment = set(Stratagem.objects.filter(category__slug="deploiement")
                     .values_list("slug", flat=True))
    assert deployment and not deployment & set(choices) and len(choices) == 23 - len(deployment)


# --- query count -----------------------------------------------------------------------------

@pytest.mark.parametrize("size", [2, 30])
def test_game_page_queries_do_not_grow(client, staff_actor, size, django_assert_max_num_queries):
    event = open_event(staff_actor, name=f"Ligue {size}")
    accounts = [user(f"q{size}a"), user(f"q{size}b")]
    units = [*LEGAL_UNITS, *({"name": f"Squad {i}", "slot": "troops", "points": 10, "models": 5}
                             for i in range(size - 2))]
    for i, account in enumerate(accounts):
        register(event, account, f"P{i}", units=units)
    found = lock_and_pair(staff_actor, event).games.get()
    found = set_mission(found, "le-defi", pregame={"dawn_dusk": "turn_1"})
    by_user = {a.pk: a for a in accounts}
    first = by_user[found.player_a.user_id]
    for i in range(size):
        table_rolls.roll(Actor(user=accounts[i % 2]), found.pk, table_rolls.TableRollRequest("d6"))
    declarations.declare(Actor(user=first), found.pk, found.player_a_id, ["piege"])
    client.force_login(first)
    # session, user, game, catalogue (3), reports, stratagems, table-roll log, two lists (x2)
    with django_assert_max_num_queries(13):
        response = client.get(reverse("game", args=[found.pk]))
    assert response.status_code == 200
    assert response.content.decode().count("<td>P0</td>") + \
        response.content.decode().count("<td>P1</td>") == size
