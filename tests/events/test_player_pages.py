"""The player site's pages: who may see what, service refusals shown on the page, query counts."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from armylists.chart_reports import entries_from_units
from events.audit import Actor
from events.models import Game, Player, Tournament
from events.services import lists, results, rounds, tournaments
from tests.browser.events import LEGAL_UNITS, lock_and_pair, open_event, register, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(staff_actor):
    return open_event(staff_actor)


def text(response) -> str:
    return response.content.decode()


def signed_in(client, account):
    client.force_login(account)
    return client


def units_post(units, extra_blank: int = 2) -> dict[str, str]:
    data = {"source": "units", "units-TOTAL_FORMS": str(len(units) + extra_blank),
            "units-INITIAL_FORMS": "0", "units-MIN_NUM_FORMS": "0", "units-MAX_NUM_FORMS": "500"}
    for i, unit in enumerate(units):
        for key, value in unit.items():
            data[f"units-{i}-{key}"] = str(value)
    return data


# --- home and event page ---------------------------------------------------------------------

def test_home_lists_public_events_and_hides_drafts(client, staff_actor, event):
    draft = tournaments.create_tournament(
        staff_actor, name="Brouillon secret", chart=event.chart, points_limit=500, level=event.level, rounds=1)
    page = text(client.get(reverse("home")))
    assert event.name in page and reverse("tournament", args=[event.slug]) in page
    assert draft.name not in page
    assert client.get(reverse("tournament", args=[draft.slug])).status_code == 404
    assert signed_in(client, staff_actor.user).get(reverse("tournament", args=[draft.slug])).status_code == 200


def test_event_page_shows_details_players_and_register_form(client, event):
    register(event, user("alice"), "Alice")
    anonymous = text(client.get(reverse("tournament", args=[event.slug])))
    assert "Alice" in anonymous and "1000" in anonymous and event.level.name in anonymous
    assert 'name="faction"' not in anonymous  # no form for an anonymous visitor
    bob = user("bob")
    page = text(signed_in(client, bob).get(reverse("tournament", args=[event.slug])))
    assert 'name="faction"' in page
    response = client.post(reverse("tournament", args=[event.slug]),
                           {"name": "Bob", "club": "Lyon", "faction": "Orks"}, follow=True)
    assert Player.objects.filter(tournament=event, user=bob, club="Lyon", faction="Orks").exists()
    assert 'name="faction"' not in text(response)  # registered: the form is gone
    assert reverse("player_list", args=[event.slug, Player.objects.get(user=bob).pk]) in text(response)


def test_registration_refused_by_the_service_is_shown_not_a_500(client, staff_actor, event):
    tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    carol = user("carol")
    response = signed_in(client, carol).post(reverse("tournament", args=[event.slug]), {"name": "Carol"})
    assert response.status_code == 200
    assert not Player.objects.filter(user=carol).exists()
    # The service's message: registration closed (the form is not offered, the refusal says why).
    assert "Registration is not open for this tournament." in text(response)


# --- lists ---------------------------------------------------------------------------------

def test_list_page_permissions_before_and_after_publication(client, staff_actor, event):
    alice = user("alice")
    player = register(event, alice, "Alice")
    url = reverse("player_list", args=[event.slug, player.pk])
    assert client.get(url).status_code == 403
    assert signed_in(client, user("mallory")).get(url).status_code == 403
    assert client.post(url, units_post(LEGAL_UNITS)).status_code == 403
    assert signed_in(client, alice).get(url).status_code == 200
    assert signed_in(client, staff_actor.user).get(url).status_code == 200
    assert client.get(reverse("player_list", args=[event.slug, player.pk + 999])).status_code == 404
    tournaments.publish_lists(staff_actor, event, True)
    client.logout()
    page = client.get(url)
    assert page.status_code == 200 and "Captain" in text(page)
    assert "Submit this list" not in text(page)  # readable, not editable


def test_illegal_then_legal_list_through_the_units_form(client, event):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    url = reverse("player_list", args=[event.slug, player.pk])
    signed_in(client, alice)
    illegal = [{"name": "Captain", "slot": "hq", "points": 100, "models": 1}]
    page = text(client.post(url, units_post(illegal), follow=True))
    assert "This list is not legal." in page
    assert "Troops" in page and "has-error" in page  # the slot below its minimum is marked
    page = text(client.post(url, units_post(LEGAL_UNITS), follow=True))
    assert "This list is legal." in page and "List saved: it is legal." in page


def test_add_rows_keeps_typed_rows_and_adds_blank_ones(client, event):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    data = {**units_post(LEGAL_UNITS[:1], extra_blank=1), "add_rows": "1"}
    response = signed_in(client, alice).post(
        reverse("player_list", args=[event.slug, player.pk]), data)
    formset = response.context["formset"]
    assert len(formset.forms) == 1 + 1 + 3
    assert formset.forms[0]["name"].value() == "Captain"
    assert player.lists.count() == 0  # adding rows submits nothing


def test_problems_are_shown_next_to_the_rows_they_concern(client, event):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    url = reverse("player_list", args=[event.slug, player.pk])
    units = [*LEGAL_UNITS, {"name": "Chaplain", "slot": "hq", "points": 90},
             {"name": "Librarian", "slot": "hq", "points": 90},
             {"name": "Servitor", "slot": "troops", "points": 0, "models": 1}]
    signed_in(client, alice).post(url, units_post(units))
    response = client.get(url)
    rows = {form["name"].value(): form.problems for form in response.context["formset"].forms}
    too_many = "HQ: 3 choices (Captain, Chaplain, Librarian); this chart allows at most 2."
    assert [too_many] == rows["Captain"] == rows["Chaplain"] == rows["Librarian"]
    assert rows["Tactical Squad"] == [] and rows["Scout Squad"] == []
    assert len(rows["Servitor"]) == 1 and "Servitor" in rows["Servitor"][0]
    page = text(response)
    assert page.count(too_many) >= 4  # the report, and each of the three HQ rows


def test_a_row_ticked_for_removal_is_dropped(client, event):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    url = reverse("player_list", args=[event.slug, player.pk])
    extra = {"name": "Heavy Bolter Team", "slot": "heavy_support", "points": 90, "models": 3}
    data = units_post([*LEGAL_UNITS, extra])
    signed_in(client, alice)
    grown = client.post(url, {**data, "units-3-DELETE": "on", "add_rows": "1"})
    assert [f["name"].value() for f in grown.context["formset"].forms if f["name"].value()] == [
        u["name"] for u in LEGAL_UNITS]  # "add rows" keeps the removal
    client.post(url, {**data, "units-3-DELETE": "on"})
    names = [entry["name"] for entry in lists.current_list(player).entries]
    assert names == [u["name"] for u in LEGAL_UNITS]
    data = units_post(LEGAL_UNITS)
    removed = {**data, **{f"units-{i}-DELETE": "on" for i in range(len(LEGAL_UNITS))}}
    page = text(client.post(url, removed))
    assert "Enter at least one unit." in page  # removing every row submits nothing
    assert len(lists.history(lists.current_list(player))) == 1


def test_unreadable_roster_and_locked_list_are_shown_as_errors(client, staff_actor, event):
    alice = user("alice")
    player = register(event, alice, "Alice")
    url = reverse("player_list", args=[event.slug, player.pk])
    signed_in(client, alice)
    response = client.post(url, {"source": "paste", "roster": "   ", "roster_format": "auto"})
    assert response.status_code == 200 and "errorlist" in text(response)
    tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    page = text(client.get(url))
    assert "Lists are locked." in page and "Submit this list" not in page
    response = client.post(url, units_post(LEGAL_UNITS), follow=True)
    assert response.status_code == 200
    assert "Lists are locked for this tournament." in text(response)
    assert player.lists.get().army_list.supersedes_id is None  # nothing new stored


def test_a_paste_that_is_not_a_roster_is_reported_first_and_kept(client, event):
    alice = user("alice")
    player = register(event, alice, "Alice")  # a legal list is saved already
    url = reverse("player_list", args=[event.slug, player.pk])
    pasted = "Dear organiser,\nmy list is attached. Cheers!"
    page = text(signed_in(client, alice).post(
        url, {"source": "paste", "roster": pasted, "roster_format": "auto"}))
    failure = page.index("Your list was NOT saved.")
    assert failure < page.index("This list is legal.")  # before the previous version's report
    assert "Saved version:" in page and 'href="#paste-title"' in page
    reason = page[failure:page.index("</div>", failure)]
    assert 'class="errorlist"' in reason  # why, at the top
    assert "Dear organiser,\nmy list is attached. Cheers!</textarea>" in page
    assert len(lists.history(lists.current_list(player))) == 1
    assert "NOT saved" not in text(client.get(url))


# --- games -----------------------------------------------------------------------------------

@pytest.fixture
def paired(staff_actor, event):
    accounts = {name: user(name) for name in ("alice", "bob")}
    players = {name: register(event, account, name.title()) for name, account in accounts.items()}
    round_ = lock_and_pair(staff_actor, event)
    game = round_.games.get()
    return accounts, players, game


def test_game_page_visible_to_its_players_and_staff_only(client, staff_actor, paired):
    accounts, _players, game = paired
    url = reverse("game", args=[game.pk])
    for account in (*accounts.values(), staff_actor.user):
        page = signed_in(client, account).get(url)
        assert page.status_code == 200, account
    assert game.mission.name in text(page)
    assert signed_in(client, user("mallory")).get(url).status_code == 403
    client.logout()
    # A logged-out visitor is sent to log in and back, and nothing is done.
    login = f"{reverse('login')}?next={url}"
    assert client.get(url).url == login and client.post(url, {"action": "confirm"}).url == login
    assert Game.objects.get(pk=game.pk).status == Game.Status.PENDING


def test_draft_round_game_is_404_for_players(client, staff_actor, event):
    alice = user("alice")
    register(event, alice, "Alice")
    register(event, user("bob"), "Bob")
    game = lock_and_pair(staff_actor, event, draft=True).games.get()
    assert signed_in(client, alice).get(reverse("game", args=[game.pk])).status_code == 404
    event_page = text(client.get(reverse("tournament", args=[event.slug])))
    assert reverse("game", args=[game.pk]) not in event_page  # no "my game" link to a draft
    assert signed_in(client, staff_actor.user).get(reverse("game", args=[game.pk])).status_code == 200


def test_report_confirm_and_refusals_on_the_game_page(client, paired):
    accounts, players, game = paired
    a, b = game.player_a, game.player_b
    reporter = next(acc for acc in accounts.values() if acc.pk == a.user_id)
    opponent = next(acc for acc in accounts.values() if acc.pk == b.user_id)
    url = reverse("game", args=[game.pk])
    signed_in(client, reporter)
    # Three stratagems at gamma (2 allowed): the service refuses and its message is shown.
    too_many = {"action": "report", "winner": str(a.pk), "vp_a": "500", "vp_b": "200",
                "stratagems_a": ["piege", "barricades", "sapeurs"]}
    response = client.post(url, too_many)
    assert response.status_code == 200 and "this level and mission allow 2" in text(response)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PENDING
    response = client.post(url, {**too_many, "stratagems_a": ["piege"]}, follow=True)
    assert "your opponent must now confirm it" in text(response)
    assert Game.objects.get(pk=game.pk).status == Game.Status.REPORTED
    assert 'value="confirm"' not in text(response)  # the reporter cannot confirm
    response = client.post(url, {"action": "confirm"}, follow=True)
    assert "Your opponent must confirm the result you reported." in text(response)
    page = text(signed_in(client, opponent).get(url))
    assert 'value="confirm"' in page and 'value="dispute"' in page
    client.post(url, {"action": "confirm"})
    confirmed = Game.objects.get(pk=game.pk)
    assert confirmed.status == Game.Status.CONFIRMED and confirmed.winner_id == a.pk
    standings = text(client.get(reverse("tournament", args=[game.round.tournament.slug])))
    assert standings.index(a.name) < standings.index(b.name, standings.index("Standings"))


def test_opponent_can_dispute(client, paired):
    accounts, _players, game = paired
    by_user = {acc.pk: acc for acc in accounts.values()}
    url = reverse("game", args=[game.pk])
    signed_in(client, by_user[game.player_a.user_id]).post(
        url, {"action": "report", "winner": "draw"})
    signed_in(client, by_user[game.player_b.user_id]).post(
        url, {"action": "dispute", "reason": "I won"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.DISPUTED


# --- sign-up -----------------------------------------------------------------------------------

def test_signup_creates_an_account_and_signs_in(client):
    response = client.post(reverse("signup"), {
        "username": "newbie", "email": "n@example.org",
        "password1": "a-long-pass-4321", "password2": "a-long-pass-4321"}, follow=True)
    assert get_user_model().objects.filter(username="newbie", email="n@example.org").exists()
    assert response.context["user"].username == "newbie"


def test_signup_shares_the_api_rate_limit(client, settings):
    settings.MUSTER_RATE_LIMITS = "signup=2/hour"
    api = client.post("/api/v1/accounts/", {"username": "viaapi", "password": "a-long-pass-4321",
                                            "email": "a@example.org"}, content_type="application/json")
    assert api.status_code == 201
    body = {"username": "page1", "email": "p@example.org",
            "password1": "a-long-pass-4321", "password2": "a-long-pass-4321"}
    assert client.post(reverse("signup"), body).status_code == 302
    assert client.post(reverse("signup"), {**body, "username": "page2"}).status_code == 429
    assert not get_user_model().objects.filter(username="page2").exists()


# --- query counts ------------------------------------------------------------------------------

def _event_with_round(staff_actor, players: int, name: str) -> Tournament:
    event = open_event(staff_actor, name=name)
    model = get_user_model()
    accounts = model.objects.bulk_create(
        [model(username=f"{event.slug[:20]}-{i}") for i in range(players)])
    accounts = list(model.objects.filter(username__startswith=f"{event.slug[:20]}-"))
    Player.objects.bulk_create([Player(tournament=event, user=a, name=a.username) for a in accounts])
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff_actor, event)
    return event


@pytest.mark.parametrize("players", [10, 40])
def test_event_page_queries_do_not_grow_with_players(client, staff_actor, players,
                                                      django_assert_max_num_queries,
                                                      django_assert_num_queries):
    event = _event_with_round(staff_actor, players, f"Ligue {players}")
    account = Player.objects.filter(tournament=event).first().user
    signed_in(client, account)
    url = reverse("tournament", args=[event.slug])
    # session, user, event's id, my registration, my games; not cached yet: the event and its
    # published rounds, then the shared sections: players, played games, awards and
    # penalties, the round's games
    with django_assert_max_num_queries(11):
        page = client.get(url)
    assert page.status_code == 200
    assert text(page).count('<tr class="mine">') == 1
    # The event and the shared sections now come from the cache: only what is mine is read.
    with django_assert_num_queries(5):
        again = client.get(url)
    assert text(again).count('<tr class="mine">') == 1
    assert text(again).count("<tr><td>") == text(page).count("<tr><td>") == players  # standings
    client.logout()
    with django_assert_num_queries(1):  # the event's id
        anonymous = client.get(url)
    assert anonymous.status_code == 200 and '<tr class="mine">' not in text(anonymous)


# --- role lists, versions, past rounds -----------------------------------------------------------

ATTACKER_UNITS = [  # strike-and-withdraw-attacker: hq 1, elites 2, fast attack 1
    {"name": "Captain", "slot": "hq", "points": 100, "models": 1},
    {"name": "Veterans", "slot": "elites", "points": 150, "models": 5},
    {"name": "Terminators", "slot": "elites", "points": 200, "models": 5},
    {"name": "Bikers", "slot": "fast_attack", "points": 120, "models": 3},
]


def test_role_lists_only_in_events_that_can_roll_a_special_mission(client, staff_actor):
    plain = open_event(staff_actor, name="Sans missions spéciales", on_six="reroll")
    alice = user("alice")
    player = register(plain, alice, "Alice")
    signed_in(client, alice)
    url = reverse("player_list", args=[plain.slug, player.pk])
    assert "Attacker list" not in text(client.get(url))
    assert client.get(f"{url}?role=attacker").status_code == 404

    special = open_event(staff_actor, name="Avec missions spéciales", on_six="special")
    player = register(special, alice, "Alice")
    url = reverse("player_list", args=[special.slug, player.pk])
    page = text(client.get(url))
    assert f"{url}?role=attacker" in page and f"{url}?role=defender" in page
    attacker = f"{url}?role=attacker"
    page = text(client.get(attacker))
    assert "Strike and Withdraw (attacker)" in page and "No list submitted yet." in page
    # The attacker chart wants two Elites: the main list's units are illegal here.
    page = text(client.post(attacker, units_post(LEGAL_UNITS), follow=True))
    assert "This list is not legal." in page
    page = text(client.post(attacker, units_post(ATTACKER_UNITS), follow=True))
    assert "This list is legal." in page
    assert lists.current_list(player, "attacker").chart.slug == "strike-and-withdraw-attacker"
    assert lists.current_list(player, "").valid  # the main list is untouched
    assert lists.current_list(player, "defender") is None
    assert client.get(f"{url}?role=general").status_code == 404


def test_list_versions_are_listed_and_an_earlier_one_can_be_read(client, staff_actor, event):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    url = reverse("player_list", args=[event.slug, player.pk])
    signed_in(client, alice)
    client.post(url, units_post([{"name": "Lonely Captain", "slot": "hq", "points": 100}]))
    assert "Versions" not in text(client.get(url))  # one version: no history to show
    client.post(url, units_post(LEGAL_UNITS))
    history = lists.history(lists.current_list(player))
    assert len(history) == 2 and history[0].valid and not history[1].valid
    page = text(client.get(url))
    earlier = f"{url}?version={history[1].pk}"
    assert "Versions" in page and earlier in page
    old = client.get(earlier)
    assert old.status_code == 200
    assert "earlier version" in text(old) and "Lonely Captain" in text(old)
    assert "Submit this list" not in text(old)  # an old version is read, not edited
    assert client.get(f"{url}?version={history[0].pk + 1000}").status_code == 404
    # Another player's list version is not reachable through this page.
    bob = register(event, user("bob"), "Bob")
    assert client.get(f"{url}?version={lists.current_list(bob).pk}").status_code == 404


def test_history_walks_the_whole_chain_in_one_query(django_assert_num_queries, staff_actor, event):
    player = register(event, user("alice"), "Alice")
    for _ in range(5):
        lists.submit_list(staff_actor, player, role="", entries=entries_from_units(LEGAL_UNITS))
    current = lists.current_list(player)
    with django_assert_num_queries(1):
        chain = lists.history(current)
    assert len(chain) == 6 and chain[0].pk == current.pk
    assert [v.supersedes_id for v in chain[:-1]] == [v.pk for v in chain[1:]]
    assert chain[-1].supersedes_id is None
    assert lists.versions(current) == [v.pk for v in chain[1:]]


def test_past_rounds_can_be_shown_and_my_game_is_linked(client, staff_actor, paired):
    accounts, _players, game = paired
    event = game.round.tournament
    account = next(a for a in accounts.values() if a.pk == game.player_a.user_id)
    results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    event.refresh_from_db()
    second = rounds.pair_next_round(staff_actor, event).games.get()
    signed_in(client, account)
    url = reverse("tournament", args=[event.slug])
    latest = text(client.get(url))
    assert "?round=1" in latest and "?round=2" in latest
    assert reverse("game", args=[second.pk]) in latest
    first = text(client.get(f"{url}?round=1"))
    assert reverse("game", args=[game.pk]) in first and reverse("game", args=[second.pk]) in first
    assert 'aria-current="page">Round 1' in first
    stranger = text(signed_in(client, user("mallory")).get(f"{url}?round=1"))
    assert reverse("game", args=[game.pk]) not in stranger  # only players' own games are linked


def test_event_page_shows_confirmed_winner_and_score_only(client, staff_actor, paired):
    accounts, _players, game = paired
    event = game.round.tournament
    a, b = game.player_a, game.player_b
    results.report(staff_actor, game.pk, results.ResultInput(
        winner=a.pk, victory_points={a.pk: 1200, b.pk: 800}))
    event.refresh_from_db()
    second = rounds.pair_next_round(staff_actor, event).games.get()
    reporter = next(acc for acc in accounts.values() if acc.pk == second.player_a.user_id)
    results.report(Actor(user=reporter), second.pk, results.ResultInput(
        winner=second.player_b_id, victory_points={second.player_a_id: 900,
                                                   second.player_b_id: 654321}))
    url = reverse("tournament", args=[event.slug])
    first = text(client.get(f"{url}?round=1"))
    assert f"{a.name} won</strong> · <span class=\"score\">1200–800 VP" in first
    latest = text(client.get(url))
    # A reported result may still be disputed: its status is shown, its score is not.
    assert "reported, to be confirmed" in latest and "654321" not in latest
    assert re.search(r'aria-current="page">Round 2 <span class="meta">\(in play\)', latest)


def test_round_tabs_are_styled_and_mark_the_shown_round():
    css = (Path(settings.BASE_DIR) / "static" / "muster.css").read_text()
    assert ".tabs ul {" in css and '.tabs a[aria-current="page"]' in css


@pytest.mark.parametrize("versions", [1, 8])
def test_list_page_queries_do_not_grow_with_versions_or_units(
        client, staff_actor, event, versions, django_assert_max_num_queries):
    alice = user("alice")
    player = register(event, alice, "Alice", units=None)
    units = LEGAL_UNITS + [{"name": f"Squad {i}", "slot": "troops", "points": 10, "models": 5}
                           for i in range(versions)]
    for _ in range(versions):
        lists.submit_list(staff_actor, player, role="", entries=entries_from_units(units))
    signed_in(client, alice)
    # session, user, event, player, role charts, current list, its history, slot names
    with django_assert_max_num_queries(9):
        page = client.get(reverse("player_list", args=[event.slug, player.pk]))
    assert page.status_code == 200 and "Squad 0" in text(page)


@pytest.mark.parametrize("events", [1, 12])
def test_home_page_queries_do_not_grow_with_events(client, staff_actor, events,
                                                   django_assert_max_num_queries):
    for number in range(events):
        open_event(staff_actor, name=f"Tournoi {number}")
    signed_in(client, user("alice"))
    # session, user, events, charts
    with django_assert_max_num_queries(4):
        page = client.get(reverse("home"))
    assert text(page).count("/tournaments/tournoi-") == events


def test_game_page_in_french_has_french_pre_game_outcomes(client, paired):
    accounts, _players, game = paired
    signed_in(client, accounts["alice"])
    page = text(client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr"))
    assert '<html lang="fr">' in page and "Jets d'avant-partie" in page
    assert "joue en premier" in page and "goes first" not in page
