"""Event formats (events/formats.py): a format an app registers takes its settings in the
tournament's creation body, under its own name, and reads them back; core code names none."""
from __future__ import annotations

import pytest
from rest_framework import serializers

from events import formats
from events.models import Tournament
from tests.tournament_fixtures import TOURNAMENT, create_tournament, expect, get, post

STORED: dict[int, dict] = {}


class RelaySettings(serializers.Serializer):
    legs = serializers.IntegerField(min_value=2, max_value=6, default=3)


@pytest.fixture
def relay():
    formats.register(formats.EventFormat(
        "relay", "relay", RelaySettings,
        create=lambda actor, tournament, settings: STORED.__setitem__(tournament.pk, settings),
        read=lambda tournament: STORED.get(tournament.pk)))
    yield
    formats.unregister("relay")
    STORED.clear()


def test_a_tournament_is_an_event_by_default(staff_client):
    body = create_tournament(staff_client, name="Plain")
    assert body["format"] == "event"
    assert Tournament.objects.get(slug=body["slug"]).format == "event"


def test_a_registered_format_stores_and_shows_its_settings(staff_client, relay):
    body = create_tournament(staff_client, name="Relay", format="relay", relay={"legs": 4})
    assert (body["format"], body["relay"]) == ("relay", {"legs": 4})
    assert expect(get(staff_client, f"/tournaments/{body['slug']}/"), 200)["relay"] == {"legs": 4}


def test_left_out_settings_take_their_defaults(staff_client, relay):
    body = create_tournament(staff_client, name="Relay defaults", format="relay")
    assert body["relay"] == {"legs": 3}


def test_an_event_shows_no_settings_of_another_format(staff_client, relay):
    assert create_tournament(staff_client, name="Plain again")["relay"] is None


@pytest.mark.parametrize("body", [
    {"format": "marathon"},
    {"format": "event", "relay": {"legs": 4}},
    {"format": "relay", "relay": {"legs": 9}},
    {"format": "relay", "relay": ["legs"]},
])
def test_bad_formats_and_settings_are_refused_and_nothing_stored(staff_client, relay, body):
    response = post(staff_client, "/tournaments/", {**TOURNAMENT, "name": "Refused", **body})
    assert response.status_code == 400, response.content
    assert not Tournament.objects.filter(name="Refused").exists()
    assert not STORED


def test_a_format_settings_field_class_is_built_once_per_registered_format(relay):
    from events.serializers import TournamentSerializer, format_settings_field

    relay_format = formats.get("relay")
    first, second = format_settings_field(relay_format), format_settings_field(relay_format)
    assert type(first) is type(second)  # not rebuilt for every serializer
    assert first is not second  # each serializer binds a field of its own
    assert type(first).__name__ == "RelaySettings"
    assert type(TournamentSerializer().fields["relay"]) is type(first)
    # The same name registered anew (another format) gets a class of its own.
    formats.register(formats.EventFormat("relay", "relay", RelaySettings))
    assert type(format_settings_field(formats.get("relay"))) is not type(first)
