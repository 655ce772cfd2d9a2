"""Issue #24: saving an award or penalty in the admin leads back to its event's awards grid,
where its values are entered (not to the list of every event's components)."""
from __future__ import annotations

import pytest
from django.urls import reverse

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events.audit import Actor
from tests.browser.events import open_event, organiser
from venue.admin.awards import grid_url
from venue.award_models import ScoreComponent

pytestmark = pytest.mark.django_db


def test_saving_an_award_goes_back_to_the_awards_grid(admin_client):
    event = open_event(Actor(user=organiser("desk").user), name="Peinture")
    added = admin_client.post(reverse("admin:venue_scorecomponent_add"), {
        "tournament": event.pk, "name": "Painting", "kind": "award", "weight": 2, "counts": "on"})
    component = ScoreComponent.objects.get()
    assert added.status_code == 302 and added["Location"] == grid_url(event)
    changed = admin_client.post(reverse("admin:venue_scorecomponent_change", args=[component.pk]),
                                {"name": "Painting", "kind": "award", "weight": 3})
    assert changed.status_code == 302 and changed["Location"] == grid_url(event)
    grid = admin_client.get(changed["Location"])
    assert grid.status_code == 200 and "Painting" in grid.content.decode()
    # "Save and continue editing" still stays on the component.
    kept = admin_client.post(reverse("admin:venue_scorecomponent_change", args=[component.pk]),
                             {"name": "Painting", "kind": "award", "weight": 4, "_continue": "1"})
    assert kept["Location"] == reverse("admin:venue_scorecomponent_change", args=[component.pk])
