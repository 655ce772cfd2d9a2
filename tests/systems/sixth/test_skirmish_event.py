"""A sixth game system, registered from the test only (tests/systems/sixth/system.py), runs an
event end to end without a core file naming it: a list, a round paired, a report through the
player's game page, a table roll (page and API), corrections through the admin results grid and
the admin game page, the standings, and its table sheet's box."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse

from armylists.chart_reports import entries_from_units
from armylists.models import Chart, ChartSlot, Slot
from armylists.models import GameSystem as SystemRow
from events.audit import Actor
from events.models import Round, Tournament
from events.services import lists, rounds, standings, table_rolls, tournaments
from printing.services import mission_pack
from systems import registry
from tests.browser.events import user
from tests.events.test_results_grid import grid_url
from tests.systems.sixth.system import HELD, NERVE, SLUG, SYSTEM, TallyBox
from tests.systems.test_results_grid_systems import row
from tests.tournament_fixtures import client_for, expect, post

pytestmark = pytest.mark.django_db
BAND = [{"name": "Captain", "slot": "leader", "points": 50, "models": 1},
        {"name": "Warriors", "slot": "troops", "points": 100, "models": 6}]


@pytest.fixture
def skirmish() -> Iterator[Chart]:
    """The system registered, and its reference rows: the game system, two slots, a chart."""
    registry.register(SYSTEM)
    row = SystemRow.objects.create(slug=SLUG, name_en="Skirmish", name_fr="Escarmouche")
    chart = Chart.objects.create(slug="skirmish-band", game_system=row, name_en="Band",
                                 name_fr="Bande", points_max=200)
    for order, code in enumerate(("leader", "troops")):
        slot = Slot.objects.create(game_system=row, code=code, name_en=code, name_fr=code,
                                   order=order)
        ChartSlot.objects.create(chart=chart, slot=slot, compulsory=1, optional=1)
    yield chart
    registry.unregister(SLUG)


@pytest.fixture
def round_(admin_user, skirmish) -> Round:
    staff = Actor(user=admin_user)
    event = tournaments.create_tournament(
        staff, name="Skirmish night", game_system=skirmish.game_system, chart=skirmish,
        points_limit=200, rounds=2, seed=11, language="en")
    event = tournaments.transition(staff, event, Tournament.Status.REGISTRATION_OPEN)
    for name in ("Alix", "Basile"):
        account = user(name.lower())
        player = tournaments.register_player(Actor(user=account), event, name=name)
        lists.submit_list(Actor(user=account), player, role="", entries=entries_from_units(BAND))
    event = tournaments.transition(staff, event, Tournament.Status.LISTS_LOCKED)
    return rounds.pair_next_round(staff, event)


def test_a_skirmish_event_runs_end_to_end(client, admin_client, round_):
    game = round_.games.select_related("player_a__user", "player_b__user").get()
    a, b = game.player_a, game.player_b
    assert lists.current_list(a).valid and lists.current_list(b).valid
    page = reverse("game", args=[game.pk])

    # The player's game page: the system's report form, its roll kind and nothing else.
    client.force_login(a.user)
    html = client.get(page).content.decode()
    assert 'name="objective"' in html and "Who held the centre objective?" in html
    assert f'value="{NERVE}"' in html and 'value="d6"' not in html
    response = client.post(page, {"action": "roll", "kind": NERVE, "nonce": "ab" * 8})
    assert response.status_code == 302
    assert "Nerve test" in client.get(page).content.decode()
    made = expect(post(client_for(b.user), f"/games/{game.pk}/rolls/", {"kind": NERVE}), 201)
    assert made["kind"] == NERVE and len(made["rolls"]) == 2 and "total" in made
    expect(post(client_for(b.user), f"/games/{game.pk}/rolls/", {"kind": "d6"}), 400,
           "roll_kind_not_available")
    assert len(table_rolls.log(game)) == 2

    # Alix reports a win and that she held the objective; Basile confirms.
    response = client.post(page, {"action": "report", "winner": str(a.pk), "objective": str(a.pk)})
    assert response.status_code == 302
    client.force_login(b.user)
    assert "Centre objective held by Alix." in client.get(page).content.decode()
    assert client.post(page, {"action": "confirm"}).status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner_id, game.outcome[HELD]) == ("confirmed", a.pk, a.pk)

    # The results grid: the row asks the system's objective field; a draw, Basile held it.
    grid = admin_client.get(grid_url(round_)).content.decode()
    assert f'name="g{game.pk}-objective"' in grid and "objective held by" in grid
    response = admin_client.post(grid_url(round_), row(game, "draw", objective="b"))
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.winner_id, game.outcome[HELD]) == (None, b.pk)

    # The admin game page: the same system form; Basile won, nobody held the objective.
    change = admin_client.get(reverse("admin:league_game_change", args=[game.pk])).content.decode()
    assert 'name="objective"' in change
    response = admin_client.post(reverse("admin:league_game_settle", args=[game.pk]),
                                 {"winner": str(b.pk), "objective": "none"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner_id, game.outcome[HELD]) == ("confirmed", b.pk, None)
    response = admin_client.post(reverse("admin:league_game_settle", args=[game.pk]),
                                 {"winner": str(a.pk), "objective": str(b.pk)})
    game.refresh_from_db()
    assert (game.winner_id, game.outcome[HELD]) == (a.pk, b.pk)

    # The standings: win/draw/loss from the confirmed result.
    table = {player.name: row_ for row_, player in standings.standings(round_.tournament)}
    assert (table["Alix"].wins, table["Basile"].losses) == (1, 1)

    # The table sheet prints the system's box after the scenario.
    sheet = mission_pack.pack_content(Round.objects.get(pk=round_.pk)).sheets[0]
    assert sheet.blocks == ("scenario", "skirmish_tally", "result")
    assert any(isinstance(box, TallyBox) for box in sheet.boxes)


def test_the_system_leaves_with_its_registration(skirmish):
    assert registry.game_system(SLUG) is SYSTEM
    registry.unregister(SLUG)
    assert registry.game_system(SLUG) is None
    registry.register(SYSTEM)  # the fixture's teardown unregisters it again
