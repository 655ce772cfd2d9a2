"""Issue #24 ("Second look") on the public site: the home page names every game and chart (never
a key) and has no stray "·"; a favicon on every page; the profile's checkbox inside its label;
an API root; a scoring preset, campaign factions by name; the demo's e-mails link to the served
port, go to files instead of the terminal, and the sample lists hang off an event."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from events.audit import Actor
from events.demo import OPEN_SLUG
from events.management.commands.demo_data import DEMO_MAIL_DIR, SAMPLE_LISTS
from events.models import Player, PlayerList, Tournament
from tests.browser.events import open_event, organiser, system_event, user

ROOT = Path(__file__).resolve().parents[2]
FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture
def two_events(db):
    staff = Actor(user=organiser("desk").user)
    city = open_event(staff, name="Cité en flammes")
    battle = system_event(staff, "whfb", "whfb-open", "Tournoi de Nuln", points_limit=1000,
                          scoring={"mode": "vp_table", "preset": "oms-2011"})
    return city, battle


def test_home_page_names_games_and_charts_and_has_no_stray_dot(client, two_events):
    html = client.get("/").content.decode()
    assert "Cities of Death:" not in html and "tabletop wargames" in html
    for key in ("w40k4-standard", "epic40k-campaign", "whfb-open", "urban-war-commando"):
        assert key not in html, key
    assert "Standard force organisation chart" in html and "Urban War commando" in html
    events = dict(re.findall(r">([^<]+)</a>\s*<span class=\"meta\">([^<]*)</span>", html))
    assert events["Cité en flammes"].startswith("Warhammer 40,000 (4th edition) · ")
    assert events["Tournoi de Nuln"].startswith("Warhammer Battle · ")
    assert all(not meta.strip().endswith("·") for meta in events.values()), events
    french = client.get("/", **FR).content.decode()
    assert "jeux de figurines" in french and "Warhammer 40 000 (4e édition)" in french


def test_every_page_has_a_favicon(client, db):
    html = client.get("/").content.decode()
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', html)
    assert icons and all(client.get(icon).status_code == 200 for icon in icons)
    # Browsers also ask /favicon.ico (the admin's pages have no link): it answers.
    found = client.get("/favicon.ico", follow=True)
    assert found.status_code == 200 and found["Content-Type"] == "image/x-icon"


def test_the_notices_checkbox_is_inside_its_label(client, db):
    client.force_login(user("reader"))
    html = client.get("/profile/").content.decode()
    checkbox = re.search(r'<label[^>]*for="id_notices"[^>]*>\s*<input type="checkbox"[^>]*>'
                         r"\s*E-mail notices</label>", html)
    assert checkbox, html.split('id="id_notices"')[0][-300:]


def test_the_api_root_lists_the_main_collections(client, db):
    root = client.get("/api/v1/")
    assert root.status_code == 200
    links = root.json()
    assert {"tournaments", "campaigns", "game_systems", "charts", "docs"} <= set(links)
    for key in ("tournaments", "campaigns", "game_systems", "charts", "factions", "missions"):
        assert client.get(links[key]).status_code == 200, key
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    description = re.search(r'"description":\s*"([^"]+)"', schema) or re.search(
        r"description: (.+)", schema)
    assert "tabletop wargames" in description.group(1)
    assert "Cities of Death" not in description.group(1)


def test_a_scoring_preset_is_shown_by_its_name(client, two_events):
    _city, battle = two_events
    html = client.get(f"/tournaments/{battle.slug}/").content.decode()
    assert "(ÖMS 2011, the Austrian championship table)" in html and "oms-2011" not in html
    french = client.get(f"/tournaments/{battle.slug}/", **FR).content.decode()
    assert "ÖMS 2011, le barème du championnat d’Autriche" in french


def test_make_run_gives_the_site_address_of_its_port():
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "MAKEFLAGS", "PORT", "HOST")}
    dry = subprocess.run(["make", "-n", "run", "PORT=9123", "HOST=0.0.0.0"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    served = next(line for line in dry.splitlines() if " manage.py runserver " in line)
    assert "SITE_URL=${SITE_URL:-http://127.0.0.1:9123}" in served


# Committed for real: the demo's e-mails leave when its transaction commits, as in `make run`.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_demo_links_its_port_keeps_its_mail_quiet_and_shows_the_sample_lists(
        client, capsys, settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.delenv("SITE_URL", raising=False)
    call_command("demo_data")
    out = capsys.readouterr().out
    # The log-in summary is all the terminal shows; the e-mails are in files, linking to 9123.
    assert len(out.splitlines()) < 20 and "Subject:" not in out and "Admin: " in out
    written = int(re.search(r"(\d+) demo e-mails written to", out).group(1))
    mails = "".join(p.read_text() for p in (tmp_path / DEMO_MAIL_DIR).glob("*.log"))
    assert written > 50 and mails.count("Subject:") == written
    assert "http://127.0.0.1:9123/" in mails and "127.0.0.1:8000" not in mails
    assert settings.SITE_URL != "http://127.0.0.1:9123"  # only while the demo is made

    # demo-player's sample lists are the two versions of their list in the open event.
    assert f"http://127.0.0.1:9123/tournaments/{OPEN_SLUG}/" in out
    player = Player.objects.get(tournament__slug=OPEN_SLUG, user__username="demo-player")
    current = PlayerList.objects.get(player=player, role="").army_list
    assert (current.name, current.valid) == (list(SAMPLE_LISTS)[0], True)
    assert (current.supersedes.name, current.supersedes.valid) == (list(SAMPLE_LISTS)[1], False)
    assert Tournament.objects.get(slug=OPEN_SLUG).status == Tournament.Status.REGISTRATION_OPEN
    client.force_login(player.user)
    page = client.get(f"/tournaments/{OPEN_SLUG}/players/{player.pk}/list/")
    assert page.status_code == 200 and "This list is legal." in page.content.decode()

    # Keys never shown: the campaign's factions, the Warhammer Battle event's scoring preset.
    campaign = client.get("/campaigns/demo-laitus-prime/").content.decode()
    assert "Faction Space Marines" in campaign and "Faction Orks" in campaign
    assert "space-marines" not in campaign and "Faction orks" not in campaign
    nuln = client.get("/tournaments/demo-nuln/").content.decode()
    assert "oms-2011" not in nuln and "(ÖMS 2011, the Austrian championship table)" in nuln
