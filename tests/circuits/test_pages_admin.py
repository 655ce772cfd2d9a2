"""The circuit's pages (standings paged and searchable, a person's breakdown, the profile
block), the admin's tools, and the query counts of the reads."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext

from circuits.models import Circuit, Person
from tests.tournament_fixtures import client_for, expect, get, make_user, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit():
    staff = client_for(make_user("page-staff", staff=True))
    make_user("Zed")
    expect(post(staff, "/circuits/", {"name": "Tour de France", "method": "placement", "best_n": 2,
                                      "weights": [100, 50]}), 201)
    placings = [{"player": f"Player {i:02d}", "place": i} for i in range(1, 60)] + [
        {"player": "zed", "place": 60}]
    expect(post(staff, "/circuits/tour-de-france/results/", {
        "name": "Open", "date": "2026-01-10", "rounds": 4, "players": 60, "placings": placings}), 201)
    return Circuit.objects.get()


def test_standings_page_is_paged_and_searchable(circuit):
    page = Client().get("/circuits/tour-de-france/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Player 01" in html and "Player 51" not in html and "Page 1 of 2" in html
    second = Client().get("/circuits/tour-de-france/?page=2").content.decode()
    assert "Player 51" in second and "Player 01" not in second
    found = Client().get("/circuits/tour-de-france/?q=layer 07").content.decode()
    assert "Player 07" in found and "Player 08" not in found
    assert Client().get("/circuits/nope/").status_code == 404


def test_person_page_shows_factor_decay_and_weight(circuit):
    html = Client().get("/circuits/tour-de-france/people/player 01/").content.decode()
    assert "Open" in html and "100 %" in html  # weight of the best result
    assert Client().get("/circuits/tour-de-france/people/nobody/").status_code == 404


def test_profile_block_lists_the_accounts_circuits(circuit):
    zed = Person.objects.get(key="Zed").user
    html = Template("{% load circuit_tags %}{% my_circuits user %}").render(Context({"user": zed}))
    assert "Tour de France" in html and "rank 60" in html
    client = Client()
    client.force_login(zed)
    assert "rank 60" in client.get("/profile/").content.decode()


def test_reads_cost_a_fixed_number_of_queries(circuit):
    client = client_for()
    with CaptureQueriesContext(connection) as page:
        expect(get(client, "/circuits/tour-de-france/standings/?page=1"), 200)
    with CaptureQueriesContext(connection) as everything:
        expect(get(client, "/circuits/tour-de-france/standings/"), 200)
    with CaptureQueriesContext(connection) as breakdown:
        expect(get(client, "/circuits/tour-de-france/players/zed/"), 200)
    with CaptureQueriesContext(connection) as searched:
        expect(get(client, "/circuits/tour-de-france/standings/?search=player 0"), 200)
    assert len(page) == 2  # the circuit, the page (a range of positions: no count)
    assert len(searched) == 3  # the circuit, the count, the page
    assert len(everything) == 2
    assert len(breakdown) == 3  # the circuit, the person, the row


def test_admin_tools(circuit, admin_client):
    assert admin_client.get(f"/admin/circuits/circuit/{circuit.pk}/change/").status_code == 200
    upload = SimpleUploadedFile("r.csv", b"player,rating\nZed,1600\n")
    response = admin_client.post(f"/admin/circuits/circuit/{circuit.pk}/import-ratings/", {"file": upload})
    assert response.status_code == 302
    bad = SimpleUploadedFile("r.csv", b"\x00\x01")
    response = admin_client.post(f"/admin/circuits/circuit/{circuit.pk}/import-results/", {"file": bad})
    assert response.status_code == 200 and "CSV" in response.content.decode()
    response = admin_client.post(f"/admin/circuits/circuit/{circuit.pk}/merge/",
                                 {"keep": "Player 01", "merge": "Player 02"})
    assert response.status_code == 302
    assert Person.objects.get(key="Player 02").merged_into.key == "Player 01"
    response = admin_client.post("/admin/circuits/circuit/add/", {
        "name": "Elo", "slug": "elo", "method": "elo", "settings": '{"k_factor": -3}',
        "events-TOTAL_FORMS": 0, "events-INITIAL_FORMS": 0})
    assert response.status_code == 200 and not Circuit.objects.filter(slug="elo").exists()
    response = admin_client.post("/admin/circuits/circuit/add/", {
        "name": "Elo", "slug": "elo", "method": "elo", "settings": '{"k_factor": 16}',
        "events-TOTAL_FORMS": 0, "events-INITIAL_FORMS": 0})
    assert response.status_code == 302
    created = Circuit.objects.get(slug="elo")
    assert created.settings["k_factor"] == 16 and created.computed_at is not None
