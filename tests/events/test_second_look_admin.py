"""Issue #24 ("Second look") in the organiser's admin: a dispute's reason, who disputed and when
where the dispute is settled (game page, results grid) and in the audit list; a report's outcome
in sentences with player names (never JSON with ids); every stored key under a name in both
languages (audit actions, charts of list problems)."""
from __future__ import annotations

import re

import pytest

from events.audit import Actor
from events.models import AuditEntry, Game, Report, Round
from events.services import results, rounds
from tests.browser.clock_events import new_event, paired_round
from tests.events.test_league_admin import build, url
from tests.events.test_results_grid import grid_url
from tests.systems.test_results_grid_systems import row

pytestmark = pytest.mark.django_db
REASON = "Il manque un marine"
FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def reports_of(html: str) -> str:
    """The game page's table of reports (the settle form below names its fields)."""
    return html.split('id="reports"')[1].split("</table>")[0]


def text_of(response) -> str:
    """The page's text, tags and runs of white space dropped (sentences span lines)."""
    assert response.status_code == 200
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def disputed():
    """Table 1: Bob reported a win, Alice disputed it with a reason."""
    t, _players = build(2, users=True, names=["Alice", "Bob"])
    round_ = rounds.pair_next_round(Actor(system=True), t, draft=False)
    game = round_.games.get()
    alice, bob = sorted((game.player_a, game.player_b), key=lambda p: p.name)
    results.report(Actor(user=bob.user), game.pk, results.ResultInput(winner=bob.pk))
    results.dispute(Actor(user=alice.user), game.pk, REASON)
    return game


def test_a_dispute_reason_shows_where_it_is_settled_with_who_and_when(admin_client, disputed):
    game_page = text_of(admin_client.get(url("league_game_change", disputed.pk)))
    assert "Disputes" in game_page and "Settle the dispute" in game_page
    assert re.search(rf"Alice disputed the result on .+?: “{REASON}”", game_page)
    grid = text_of(admin_client.get(grid_url(Round.objects.get(pk=disputed.round_id))))
    assert re.search(rf"Alice disputed the result on .+?: “{REASON}”", grid)
    french = text_of(admin_client.get(url("league_game_change", disputed.pk), **FR))
    assert re.search(rf"Alice a contesté le résultat le .+?\u00a0: «\u00a0{REASON}\u00a0»", french)


def test_the_audit_list_names_actions_and_shows_the_dispute_reason(admin_client, disputed):
    listing = admin_client.get(url("league_auditentry_changelist")).content.decode()
    assert REASON in listing and "result disputed" in listing
    for key in ("result_disputed", "result_reported", "tournament_created", "player_registered"):
        assert f">{key}<" not in listing, key  # a key is never a cell's text
    french = admin_client.get(url("league_auditentry_changelist"), **FR).content.decode()
    assert "résultat contesté" in french and "joueur inscrit" in french
    assert REASON in french


def test_a_second_report_that_differs_is_a_dispute_without_reason(admin_client):
    t, _players = build(2, users=True, names=["Alice", "Bob"])
    game = rounds.pair_next_round(Actor(system=True), t, draft=False).games.get()
    a, b = game.player_a, game.player_b
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    results.report(Actor(user=b.user), game.pk, results.ResultInput(winner=b.pk))
    page = text_of(admin_client.get(url("league_game_change", game.pk)))
    assert f"{b.name} disputed the result on" in page and "reported a different result" in page


def test_an_urban_war_outcome_reads_as_sentences_with_names(admin_client, admin_actor):
    round_ = paired_round(admin_actor, new_event(admin_actor, "urban-war", name="Zone",
                                                 language="en"), 2, with_lists=True,
                          names=["Alice", "Bob"])
    game = round_.games.get()
    response = admin_client.post(grid_url(round_), row(game, "none", destroyed_a=["Marine 5"]))
    assert response.status_code == 302
    report = Report.objects.get(game=game)
    assert report.outcome["destroyed"][str(game.player_a_id)] == ["Marine 5"]
    page = reports_of(admin_client.get(url("league_game_change", game.pk)).content.decode())
    first, second = game.player_a.name, game.player_b.name
    assert "No commando was destroyed." in page
    assert re.search(rf"{first} destroyed 1 model: Marine 5 \(\d+ points\)\.", page)
    assert f"{second} destroyed no model." in page
    assert "commando_destroyed" not in page and f'"{game.player_a_id}"' not in page
    french = reports_of(admin_client.get(url("league_game_change", game.pk), **FR).content.decode())
    assert "commando_destroyed" not in french
    assert re.search(rf"{first} a détruit 1 figurine\u00a0: Marine 5", french)


def test_an_objective_and_a_campaign_outcome_read_as_sentences(admin_client):
    t, _players = build(2, names=["Alice", "Bob"])
    game = rounds.pair_next_round(Actor(system=True), t, draft=False).games.get()
    a, b = game.player_a, game.player_b
    Report.objects.create(game=game, winner=a, victory_points={str(a.pk): 3, str(b.pk): 1},
                          outcome={"flags": {str(a.pk): 2, str(b.pk): 0}, "holder": b.pk,
                                   "campaign": {"swept": ["Guard"], "destroyed": ["Titan"]}})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.REPORTED)
    page = text_of(admin_client.get(url("league_game_change", game.pk)))
    assert f"Flags planted at the end of the game: {a.name} 2, {b.name} 0." in page
    assert f"Player occupying the building at the end: {b.name}." in page
    assert "Detachments swept from the field: Guard." in page
    assert "Detachments destroyed: Titan." in page
    raw = reports_of(admin_client.get(url("league_game_change", game.pk)).content.decode())
    assert "&quot;flags&quot;" not in raw and '"flags"' not in raw and "&quot;swept" not in raw
    french = text_of(admin_client.get(url("league_game_change", game.pk), **FR))
    assert "Détachements détruits\u00a0: Titan." in french


def test_list_problems_name_the_chart_in_both_languages(admin_client):
    t, _players = build(4)
    round_ = rounds.pair_next_round(Actor(system=True), t, draft=False)
    game = round_.games.exclude(player_b=None).first()
    for page in (url("league_round_change", round_.pk), url("league_game_change", game.pk)):
        english = admin_client.get(page).content.decode()
        assert "for the chart Standard force organisation chart." in english
        french = admin_client.get(page, **FR).content.decode()
        assert "Schéma de structure d&#x27;armée standard" in french
        assert "w40k4-standard" not in english + french


def test_every_recorded_action_has_a_name():
    """Each action a service records (read from the sources) is named in ACTION_NAMES."""
    from pathlib import Path

    from events.admin.audit import ACTION_NAMES

    root = Path(__file__).resolve().parents[2]
    found = set()
    for package in ("events", "venue", "campaigns", "accounts", "printing", "systems"):
        for path in (root / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found |= set(re.findall(r'\brecord\(\s*\w+,\s*"([a-z_.]+)"', text))
            found |= set(re.findall(r'^(?:ACTION|FORCED_ACTION) = "([a-z_.]+)"', text, re.M))
    found |= {f"result_{status}" for status in ("reported", "disputed")}
    found |= {f"clock_{move}" for move in ("start", "pause", "resume", "extend", "end")}
    assert len(found) > 40
    assert sorted(found - set(ACTION_NAMES)) == []
    assert AuditEntry._meta.get_field("action").max_length >= max(map(len, ACTION_NAMES))
