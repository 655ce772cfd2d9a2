"""The words as French and English readers expect them: French punctuation (a non-breaking space
before « : ; ! ? »), "d'Alix" not "de Alix", the feminine "aucune", numbers and faction names in
the reader's language, tags typed in French, and English dates day-month on a 24-hour clock."""
from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.formats import date_format

from campaigns.notice_texts import BattleSheet, battle_lines
from config.typography import colon, elide
from events.forms.whfb_units import TagsField
from events.views.event_sections import _number
from printing.services.wall_sheets import faction_names, number_text

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale/fr/LC_MESSAGES/django.po"
NBSP = "\u00a0\u202f"  # a non-breaking space, or its narrow form
# « : ; ! ? » closing a word: followed by a space, the end, a tag or a closing mark. What they
# mean in code (JSON "key": value, "Varro;800" data, "http://", "?next=") is not followed so.
PUNCTUATION = re.compile(r"(.)([:;!?])(?=\s|$|<|\)|»)")
WHEN = datetime(2026, 11, 28, 2, 13, tzinfo=ZoneInfo("Europe/Paris"))


def french_msgstrs(tmp_path: Path) -> dict[str, str]:
    """Every translated string of the catalogue, compiled by msgfmt (plural forms included)."""
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(CATALOGUE)], check=True)
    with compiled.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog  # noqa: SLF001 (the whole catalogue)
    return {str(key): text for key, text in catalogue.items() if key and text}


def typography_problems(text: str) -> list[str]:
    problems = []
    for match in PUNCTUATION.finditer(text):
        before, mark = match.groups()
        if before == " ":
            problems.append(f"ASCII space before {mark!r}")
        elif before not in NBSP and not (mark == ";" or before in "\"'"):
            # A ";" glued to a word is a data separator in the examples ("Varro;800"); a quote
            # before the mark is a JSON key.
            problems.append(f"no non-breaking space before {mark!r}")
    return problems


def test_the_checker_sees_both_mistakes_and_leaves_code_alone():
    assert typography_problems("Alix : 2 stratagèmes") == ["ASCII space before ':'"]
    assert typography_problems("Fortifications: aucune") == ["no non-breaking space before ':'"]
    assert typography_problems("Vraiment ?") == ["ASCII space before '?'"]
    assert typography_problems("Alix\u00a0: 2 ; 3\u00a0!") == ["ASCII space before ';'"]
    assert typography_problems('{"mode": "wdl"} à 14:00, voir /login/?next=/ ; Varro;800') == [
        "ASCII space before ';'"]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext is not installed")
def test_every_french_string_sets_a_non_breaking_space_before_colons_and_the_like(tmp_path):
    found = {msgid: problems for msgid, text in french_msgstrs(tmp_path).items()
             if (problems := typography_problems(text))}
    assert found == {}, f"{len(found)} French strings, e.g. {list(found.items())[:5]}"


def test_de_is_elided_before_a_name_starting_with_a_vowel_in_french_only():
    assert elide("Points de victoire de Alix", "fr") == "Points de victoire d'Alix"
    assert elide("Confirmé\u00a0: victoire de Ouest.", "fr") == "Confirmé\u00a0: victoire d'Ouest."
    assert elide("Stratagèmes de Élodie", "fr") == "Stratagèmes d'Élodie"
    assert elide("Stratagèmes de Bastien", "fr") == "Stratagèmes de Bastien"
    assert elide("De Hugo et de Yann", "fr") == "De Hugo et de Yann"  # h and y: left alone
    assert elide("victory of de Alix", "en") == "victory of de Alix"
    with translation.override("fr"):
        assert Template("{% load typography %}{% filter elide %}victoire de Est{% endfilter %}"
                        ).render(Context()) == "victoire d'Est"


def test_a_label_takes_its_colon_in_the_readers_typography():
    assert colon("Alix", "fr") == "Alix\u00a0:"
    assert colon("Alix", "en") == "Alix:"
    page = Template("{% load typography %}{{ name|colon }} {{ what }}")
    with translation.override("fr"):
        assert page.render(Context({"name": "A<b>", "what": "2 stratagèmes"})) == \
            "A&lt;b&gt;\u00a0: 2 stratagèmes"


def test_a_battle_without_fortifications_says_aucune_with_french_colons():
    sheet = BattleSheet(territory="A", where="Est, ligne 1", mine="", contested=True,
                        attacker="Ouest", attackers=("Aquila",), attacker_points=1000,
                        defender="Est", deployed=("Gork",), reserves=("Mork",), defender_points=900,
                        fortifications=0, at_stake=(2, 1), isolated=(), link="https://x.test/")
    with translation.override("fr"):
        french = "\n".join(battle_lines(sheet))
    assert "Fortifications\u00a0: aucune" in french
    assert "Attaquant\u00a0: Ouest\u00a0: Aquila" in french
    assert not typography_problems(french.replace("https://", "")), french
    with translation.override("en"):
        assert "- Fortifications: none" in battle_lines(sheet)


def test_tags_are_typed_and_shown_in_the_readers_language():
    field = TagsField(required=False)
    with translation.override("fr"):
        assert field.clean("Tir, boucliers") == ["shooting", "boucliers"]
        assert field.prepare_value(["shooting", "boucliers"]) == "tir, boucliers"
        assert "anglais" not in str(gettext_of("Separated by commas, e.g. shooting, shields."))
    with translation.override("en"):
        assert field.clean("shooting") == ["shooting"]


def gettext_of(message: str) -> str:
    return translation.gettext(message)


def test_standings_numbers_are_written_in_the_readers_language():
    cell = Template('{{ value|floatformat:"-2" }}')
    with translation.override("fr"):
        assert cell.render(Context({"value": _number(1 / 3)})) == "0,33"
        assert cell.render(Context({"value": _number(3.0)})) == "3"
        assert number_text(1 / 3) == "0,33"
    with translation.override("en"):
        assert cell.render(Context({"value": _number(1 / 3)})) == "0.33"


@pytest.mark.django_db
def test_wall_sheets_name_factions_as_the_site_does():
    from tests.browser.events import open_event, organiser  # an event of the w40k4 system
    event = open_event(organiser())
    name = faction_names(event)
    with translation.override("fr"):
        assert name("Dark Eldar") == "Eldars Noirs"
        assert name("my own army") == "my own army"
    with translation.override("en"):
        assert name("dark eldar") == "Dark Eldar"


def test_english_dates_put_the_day_first_on_a_24_hour_clock():
    with translation.override("en"):
        assert date_format(WHEN, "SHORT_DATETIME_FORMAT") == "28/11/2026 02:13"
        assert date_format(WHEN, "DATETIME_FORMAT") == "28 November 2026, 02:13"
        assert date_format(WHEN.date()) == "28 November 2026"
        assert Template("{{ when|time }}").render(Context({"when": WHEN})) == "02:13"
    with translation.override("fr"):
        assert date_format(WHEN, "SHORT_DATETIME_FORMAT") == "28/11/2026 02:13"


def test_standings_headers_are_capitalised_and_numbers_localised_on_the_page():
    from django.template.loader import render_to_string

    row = {"rank": 1, "player": {"name": "Alix"}, "points": 3, "wins": 1, "draws": 0, "losses": 0,
           "extras": [], "tiebreakers": [_number(1 / 3), _number(None)]}
    with translation.override("fr"):
        html = render_to_string("league/event/standings.html", {
            "standings": [row], "tiebreak_labels": ["force du calendrier", "écart"],
            "extra_columns": []})
    assert '<th scope="col">Force du calendrier</th><th scope="col">Écart</th>' in html
    assert "<td>0,33</td><td>–</td>" in html
