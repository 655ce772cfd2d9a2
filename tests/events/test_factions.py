"""Factions: registration picks one of the system's factions (unless the event allows free text),
the event page and the projector show them in the reader's language, and the faction table."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from armylists.models import Faction
from events.models import Player, Tournament
from events.services import factions
from tests.tournament_fixtures import (
    build_event,
    client_for,
    create_tournament,
    expect,
    make_user,
    pair,
    post,
    register,
    set_status,
    settle_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def slug(staff_user):
    slug = create_tournament(client_for(staff_user), name="Guerre des codex")["slug"]
    set_status(client_for(staff_user), slug, "registration_open")
    return slug


def test_w40k4_has_its_fourth_edition_codex_armies():
    armies = {f.slug: f for f in Faction.objects.filter(game_system__slug="w40k4")}
    assert len(armies) == 15 and "chaos-daemons" not in armies
    assert armies["imperial-guard"].name_fr == "Garde Impériale"
    assert armies["daemonhunters"].name_fr == "Chasseurs de Démons"


def test_the_api_refuses_an_unknown_faction(slug):
    body = expect(post(client_for(make_user("ann")), f"/tournaments/{slug}/players/",
                       {"name": "Ann", "faction": "Squats"}), 400, "faction_unknown")
    assert "Squats" in body["detail"] and "Blood Angels" in body["detail"]
    assert not Player.objects.filter(tournament__slug=slug).exists()


@pytest.mark.parametrize("given", ["imperial-guard", "Imperial Guard", "garde impériale",
                                   "GARDE IMPÉRIALE"])
def test_the_api_accepts_a_slug_or_a_name_and_stores_the_english_name(slug, given):
    player = register(client_for(make_user("bob")), slug, "Bob", faction=given)
    assert player["faction"] == "Imperial Guard"


def test_staff_follow_the_same_rule_and_blank_stays_allowed(slug, staff_user):
    staff = client_for(staff_user)
    expect(post(staff, f"/tournaments/{slug}/players/", {"name": "Walk-in", "faction": "Votann"}),
           400, "faction_unknown")
    assert register(staff, slug, "Walk-in")["faction"] == ""


def test_free_faction_accepts_any_text(slug):
    Tournament.objects.filter(slug=slug).update(free_faction=True)
    assert register(client_for(make_user("cy")), slug, "Cy", faction="Squats")["faction"] == "Squats"


def test_a_system_without_factions_accepts_any_text(slug):
    Faction.objects.filter(game_system__slug="w40k4").delete()
    assert register(client_for(make_user("di")), slug, "Di", faction="Squats")["faction"] == "Squats"


def test_the_site_form_offers_a_select_and_refuses_an_unknown_faction(client, slug):
    client.force_login(make_user("eve"))
    url = reverse("tournament", args=[slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert re.search(r'<select name="faction"', page)
    assert '<option value="Imperial Guard">Garde Impériale</option>' in page
    refused = client.post(url, {"name": "Eve", "faction": "Squats"})
    assert refused.status_code == 200
    assert "Squats" in refused.content.decode() and "errorlist" in refused.content.decode()
    assert not Player.objects.filter(tournament__slug=slug).exists()
    assert client.post(url, {"name": "Eve", "faction": "Imperial Guard"}).status_code == 302
    assert Player.objects.get(tournament__slug=slug).faction == "Imperial Guard"


def test_the_site_form_is_free_text_with_free_faction(client, slug):
    Tournament.objects.filter(slug=slug).update(free_faction=True)
    client.force_login(make_user("fay"))
    url = reverse("tournament", args=[slug])
    assert '<select name="faction"' not in client.get(url).content.decode()
    assert client.post(url, {"name": "Fay", "faction": "Squats"}).status_code == 302
    assert Player.objects.get(tournament__slug=slug).faction == "Squats"


def test_the_faction_table_counts_games_without_byes():
    orks, tau = (SimpleNamespace(pk=1, slug="orks", name_en="Orks", name_fr="Orks", name="Orks"),
                 SimpleNamespace(pk=2, slug="tau", name_en="Tau", name_fr="Tau", name="Tau"))
    by_key = factions.keys([orks, tau])

    def line(faction, wins, draws, losses, byes, points):
        return (SimpleNamespace(wins=wins, draws=draws, losses=losses, byes=byes, points=points),
                SimpleNamespace(faction=faction))

    ranked = [line("Orks", 2, 0, 0, 1, 9), line("orks", 0, 1, 1, 0, 1), line("Tau", 1, 0, 1, 0, 3),
              line("", 3, 0, 0, 0, 9), line("Squats", 1, 0, 0, 1, 3)]
    rows = factions.table(ranked, by_key, "win")
    assert [(r["name"], r["players"], r["games"]) for r in rows] == [
        ("Orks", 2, 3), ("Squats", 1, 0), ("Tau", 1, 2)]
    assert rows[0]["win_rate"] == pytest.approx(100 * 1.5 / 3) and rows[0]["average_points"] == 5
    assert rows[1]["win_rate"] is None and rows[2]["win_rate"] == 50


def _factions_section(page: str) -> list[tuple[str, ...]]:
    section = page.split('id="factions-title"', 1)[1].split("</section>", 1)[0]
    body = section.split("<tbody>", 1)[1]
    return [tuple(re.findall(r"<td>(.*?)</td>", row)) for row in body.split("</tr>") if "<td>" in row]


def test_the_event_page_shows_the_faction_table_in_the_readers_language(client, staff_user):
    event = build_event(staff_user, 4, prefix="f", lock=False)
    armies = ["Orks", "Orks", "Eldar", "Imperial Guard"]
    ids = sorted(event.names)
    for pid, army in zip(ids, armies, strict=True):
        Player.objects.filter(pk=pid).update(faction=army)
    set_status(event.staff, event.slug, "lists_locked")
    round_body = expect(pair(event.staff, event.slug), 201)
    settle_round(event, round_body)  # the first player of each game wins
    faction_of = dict(zip(ids, armies, strict=True))
    tally: dict[str, list[int]] = {}  # faction -> [players, wins, games, points]
    for game in round_body["games"]:
        a, b = game["players"]
        for pid, won in ((a, True), (b, False)):
            row = tally.setdefault(faction_of[pid], [0, 0, 0, 0])
            row[0] += 1
            row[1] += won
            row[2] += 1
            row[3] += 3 if won else 0
    names_fr = {"Orks": "Orks", "Eldar": "Eldars", "Imperial Guard": "Garde Impériale"}
    expected = sorted(
        ((names_fr[f], str(p), f"{100 * w / g:.0f}", f"{pts / p:.1f}".replace(".", ","))
         for f, (p, w, g, pts) in tally.items()),
        key=lambda r: (-int(r[1]), r[0].casefold()))

    page = client.get(reverse("tournament", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="fr")
    html = page.content.decode()
    assert _factions_section(html) == expected
    assert "· Garde Impériale" in html and "· Eldars" in html

    projector = client.get(reverse("projector", args=[event.slug])).content.decode()
    assert '<span class="faction">· Garde Impériale</span>' in projector  # the event is French


@pytest.mark.parametrize("players", [6, 20])
def test_the_event_page_with_factions_keeps_a_constant_query_count(
        client, staff_user, players, django_assert_max_num_queries):
    event = build_event(staff_user, players, prefix=f"q{players}", lists=False)
    Player.objects.filter(tournament__slug=event.slug).update(faction="Orks")
    expect(pair(event.staff, event.slug), 201)
    client.force_login(next(iter(event.users.values())))
    # the 11 of a page without factions (cache empty), plus the system's factions
    with django_assert_max_num_queries(12):
        page = client.get(reverse("tournament", args=[event.slug]))
    assert page.status_code == 200 and 'id="factions-title"' in page.content.decode()
