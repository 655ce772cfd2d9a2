"""French elision where a sentence meets a player's name (config/typography.elide), in each place
that builds one: the results grid, the Warhammer Battle and Urban War report forms and result
words, an Urban War card's problems, the event pages' templates and every e-mail. Alix (a vowel)
reads "d'Alix", Bastien keeps "de Bastien"; English is unchanged."""
from __future__ import annotations

from html import unescape

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from events.models import Game, PlayerList, Round
from notices import texts
from systems.reports import report_form_class, result_lines
from systems.urban_war.card_messages import render_problem
from systems.urban_war.profile_cards import CardProblem
from systems.whfb.victory import BAGGAGE_BONUS
from tests.browser.clock_events import new_event, paired_round
from tests.events.test_results_grid import grid_url

pytestmark = pytest.mark.django_db
NAMES = ("Alix", "Bastien")


def one_table(admin_actor, system: str, **fields) -> Game:
    event = new_event(admin_actor, system, name="Open", **fields)
    round_ = paired_round(admin_actor, event, 2, names=NAMES, with_lists=system != "w40k4")
    return Game.objects.select_related("player_a", "player_b").get(round=round_)


def by_name(game: Game) -> dict[str, object]:
    return {p.name: p for p in (game.player_a, game.player_b)}


def lists_of(game: Game) -> dict[int, list]:
    return {row.player_id: row.army_list.entries for row in PlayerList.objects.filter(
        player_id__in=game.player_ids, role="").select_related("army_list")}


def french_form(game: Game):
    """The game's report form built in French (call under ``translation.override("fr")``)."""
    return report_form_class(game)(game=game, lists=lists_of(game))


def labels_of(form) -> set[str]:
    return {str(field.label) for field in form.fields.values()}


def grid(admin_client, game: Game, language: str) -> str:
    round_ = Round.objects.get(pk=game.round_id)
    return unescape(admin_client.get(grid_url(round_), HTTP_ACCEPT_LANGUAGE=language)
                    .content.decode())


def test_the_results_grid_elides_before_a_name(admin_client, admin_actor):
    game = one_table(admin_actor, "w40k4")
    french = grid(admin_client, game, "fr")
    assert f"Points de victoire d'Alix, table {game.table}" in french
    assert f"Points de victoire de Bastien, table {game.table}" in french
    assert "de Alix" not in french
    assert f"Victory points of Alix, table {game.table}" in grid(admin_client, game, "en")


def test_whfb_grid_and_report_form_and_result_words(admin_client, admin_actor):
    game = one_table(admin_actor, "whfb", advanced_rules={"baggage": True})
    alix, bastien = (by_name(game)[n] for n in NAMES)
    french = grid(admin_client, game, "fr")
    assert f"Unités d'Alix parties piller, table {game.table}" in french
    assert f"Unités de Bastien parties piller, table {game.table}" in french
    with translation.override("fr"):
        labels = labels_of(french_form(game))
        assert "Points de victoire d'Alix, avant le bonus des bagages" in labels
        assert "Points de victoire de Bastien, avant le bonus des bagages" in labels
        assert any(label.startswith("Unités d'Alix sorties") for label in labels)
        outcome = {"baggage_captured_by": bastien.pk,
                   "looting_units": {str(alix.pk): ["Chevaliers"], str(bastien.pk): ["Lanciers"]}}
        lines = result_lines(game, outcome, {}, {})
    assert f"Bastien a capturé les bagages d'Alix (+{BAGGAGE_BONUS} points de victoire)." in lines
    assert "Unités d'Alix parties piller\u00a0: Chevaliers." in lines
    assert "Unités de Bastien parties piller\u00a0: Lanciers." in lines
    with translation.override("en"):
        assert "Units of Alix that left to loot: Chevaliers." in result_lines(game, outcome, {}, {})


def test_urban_war_grid_and_report_form_and_result_words(admin_client, admin_actor):
    game = one_table(admin_actor, "urban-war")
    alix, bastien = (by_name(game)[n] for n in NAMES)
    french = grid(admin_client, game, "fr")
    assert f"Figurines de Bastien détruites par Alix, table {game.table}" in french
    assert f"Figurines d'Alix détruites par Bastien, table {game.table}" in french
    with translation.override("fr"):
        form = french_form(game)
        commandos = {str(label) for _value, label in form.fields["commando_destroyed"].choices}
        assert {"Le commando d'Alix", "Le commando de Bastien"} <= commandos
        labels = labels_of(form)
        assert {"Figurines de Bastien détruites par Alix",
                "Figurines d'Alix détruites par Bastien"} <= labels
        assert result_lines(game, {"commando_destroyed": alix.pk}, {}, {})[0] == \
            "Le commando d'Alix a été détruit."
        assert result_lines(game, {"commando_destroyed": bastien.pk}, {}, {})[0] == \
            "Le commando de Bastien a été détruit."
    with translation.override("en"):
        assert result_lines(game, {"commando_destroyed": alix.pk}, {}, {})[0] == \
            "The commando of Alix was destroyed."


def test_an_urban_war_card_problem_names_the_option():
    with translation.override("fr"):
        assert render_problem(CardProblem("cost_negative", {"what": "AP"})).startswith(
            "Le coût d'AP doit")
        assert render_problem(CardProblem("cost_negative", {"what": "CAL3"})).startswith(
            "Le coût de CAL3 doit")


def test_the_event_pages_elide_before_a_winner():
    result = {"winner": "Alix", "score": ""}
    with translation.override("fr"):
        row = render_to_string("league/event/pairing_row.html", {"result": result})
        assert "victoire d&#x27;Alix" in row or "victoire d'Alix" in row
        row = render_to_string("league/event/pairing_row.html",
                               {"result": {**result, "winner": "Bastien"}})
        assert "victoire de Bastien" in row
        preview = render_to_string("league/report_preview.html",
                                   {"preview": {"winner": {"name": "Ulrich"}, "known": True}})
        assert "enregistre\u00a0: victoire d'Ulrich." in unescape(preview)
    with translation.override("en"):
        row = render_to_string("league/event/pairing_row.html", {"result": result})
        assert "Alix won" in row


def test_every_e_mail_is_elided_once_written():
    body = "Les organisateurs de Open de Lyon vous ont inscrit sous le nom Bastien."
    mail = texts.Mail(subject="[Open] Ronde 1 de Open", body=body, html=f"<p>{body}</p>")
    with translation.override("fr"):
        assert texts.elided(("[Open] victoire de Alix", body)) == (
            "[Open] victoire d'Alix",
            "Les organisateurs d'Open de Lyon vous ont inscrit sous le nom Bastien.")
        written = texts.elided(mail)
        assert written.subject == "[Open] Ronde 1 d'Open"
        assert "organisateurs d'Open de Lyon" in written.html
    with translation.override("en"):
        assert texts.elided(mail) == mail
