"""The admin speaks Muster's words in both languages: a game's pre-game rolls as the sentences the
player's page and the pack print (not raw keys), and "Muster" in the header, not Django."""
import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from armylists.models import Chart
from events.audit import SYSTEM
from events.models import Game
from events.services import rounds, tournaments
from missions.models import Level
from printing.services.mission_pack import NIGHT, PURPOSES, dice_text

pytestmark = pytest.mark.django_db

RAW_KEYS = ["declaration_chooser", "declares_first", "goes_first", "dawn_dusk", "from_turn_6",
            "turn_1", "first_turn", "stratagem_declaration", "deployment_chooser", "1D6 → ["]


def paired_game() -> Game:
    """A published game at level gamma (Dawn & Dusk is rolled) with its pre-game dice."""
    t = tournaments.create_tournament(
        SYSTEM, name="Nuit", chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="gamma"), rounds=3, seed=7)
    tournaments.transition(SYSTEM, t, "registration_open")
    for name in ("Anne", "Bruno"):
        tournaments.register_player(SYSTEM, t, name=name)
    tournaments.transition(SYSTEM, t, "lists_locked")
    round_ = rounds.pair_next_round(SYSTEM, t, draft=False)
    game = round_.games.select_related("player_a", "player_b").get(player_b__isnull=False)
    assert game.pregame.get("dawn_dusk") and game.pregame.get("goes_first")
    return game


def page(client, name: str, pk: int, language: str) -> str:
    response = client.get(reverse(f"admin:league_{name}_change", args=[pk]),
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_game_page_shows_pre_game_sentences_not_keys(admin_client, language):
    game = paired_game()
    html = page(admin_client, "game", game.pk, language)
    names = {str(p.pk): p.name for p in (game.player_a, game.player_b)}
    with translation.override(language):
        expected = [
            str(PURPOSES["first_turn"]), str(PURPOSES["dawn_dusk"]),
            str(PURPOSES["stratagem_declaration"]),
            gettext("%(player)s goes first") % {"player": names[game.pregame["goes_first"]]},
            gettext("%(player)s declares first") % {"player": names[game.pregame["declares_first"]]},
            str(NIGHT[game.pregame["dawn_dusk"]]),
        ]
    for sentence in expected:
        assert escape(sentence) in html, sentence
    for key in RAW_KEYS:
        assert key not in html, key
    if language == "fr":
        assert "Premier tour" in html and "joue en premier" in html


@pytest.mark.parametrize("language", ["en", "fr"])
def test_round_page_names_the_mission_roll(admin_client, language):
    game = paired_game()
    html = page(admin_client, "round", game.round_id, language)
    with translation.override(language):
        line = f"{PURPOSES['mission']}: {dice_text(game.round.rolls)} → {game.round.mission.name}"
    assert escape(line) in html
    assert "mission: 1D6 →" not in html


@pytest.mark.parametrize("language, header", [("en", "Muster administration"),
                                              ("fr", "Administration de Muster")])
def test_the_header_says_muster(admin_client, language, header):
    response = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert header in html and "Django" not in html
    assert "| Muster</title>" in html
