"""CSV imports of results and starting ratings: documented columns, all or nothing."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from circuits.models import ExternalResult, StartingRating
from tests.tournament_fixtures import client_for, expect, get, make_user, post

pytestmark = pytest.mark.django_db

RESULTS = """event;date;rounds;players;player;place
Open de Lyon;2026-01-10;3;10;Alice;1
Open de Lyon;2026-01-10;3;10;Bob;2
GT Paris;2026-02-01;5;40;Bob;1
"""


@pytest.fixture
def staff():
    client = client_for(make_user("csv-staff", staff=True))
    expect(post(client, "/circuits/", {"name": "Csv", "method": "placement"}), 201)
    return client


def test_results_csv_makes_one_result_per_event(staff):
    upload = SimpleUploadedFile("results.csv", RESULTS.encode("utf-8-sig"), content_type="text/csv")
    response = staff.post("/api/v1/circuits/csv/results/import/", {"file": upload}, format="multipart")
    assert len(expect(response, 201)["ids"]) == 2
    rows = {r["player"]["key"]: r["points"] for r in
            expect(get(client_for(), "/circuits/csv/standings/"), 200)["results"]}
    assert rows == {"Bob": pytest.approx(100 + 58.5), "Alice": 65}


def test_ratings_csv(staff):
    text = "player,rating,deviation\nAlice,1650,120\nBob,1400,\n"
    expect(post(staff, "/circuits/csv/ratings/import/", {"csv": text}), 200)
    assert sorted(StartingRating.objects.values_list("rating", "deviation")) == [(1400, None), (1650, 120)]


@pytest.mark.parametrize(("data", "code"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "circuit_csv_unreadable"),
    ("name,when\nx,y\n", "circuit_csv_unreadable"),
    (RESULTS + "Open de Lyon;2026-01-10;3;10;Carol;11\n", "circuit_place_beyond_players"),
    (RESULTS + "Open de Lyon;2026-01-10;3;10;Carol;third\n", "circuit_csv_value_invalid"),
])
def test_a_bad_csv_stores_nothing(staff, data, code):
    upload = SimpleUploadedFile("results.csv", data if isinstance(data, bytes) else data.encode())
    response = staff.post("/api/v1/circuits/csv/results/import/", {"file": upload}, format="multipart")
    expect(response, 400, code)
    assert not ExternalResult.objects.exists()
