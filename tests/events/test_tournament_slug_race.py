"""Tournaments created at the same moment with one name: each gets its own slug, never a 500.

The slug is picked by looking for a free one, then inserted; two requests can both see the same
slug free, and the unique index refuses the second insert. PostgreSQL runs them truly at once
(SQLite would queue the writers and hide the race)."""
from __future__ import annotations

import pytest

from armylists.models import Chart
from events.audit import SYSTEM
from events.errors import Conflict
from events.models import AuditEntry, Tournament
from events.services import tournaments
from missions.models import Level
from tests.events.test_tournament_concurrency import in_parallel, statuses
from tests.tournament_fixtures import TOURNAMENT, client_for, post

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def test_six_simultaneous_creations_with_one_name_get_six_slugs(staff_user):
    body = {**TOURNAMENT, "name": "Même nom"}
    answers = in_parallel([lambda: post(client_for(staff_user), "/tournaments/", body)] * 6)
    assert statuses(answers) == {201: 6}, answers
    slugs = sorted(answer["slug"] for _status, answer in answers)
    assert slugs == sorted(["meme-nom", *(f"meme-nom-{n}" for n in range(2, 7))])
    assert Tournament.objects.filter(name="Même nom").count() == 6
    # Each is complete: its own dice stream, opened and logged once.
    assert len(set(Tournament.objects.values_list("dice_id", flat=True))) == 6
    assert AuditEntry.objects.filter(action="tournament_created").count() == 6
    assert AuditEntry.objects.filter(action="status_changed").count() == 6


def test_a_slug_asked_for_and_taken_is_a_conflict(staff_user):
    """The admin and the demo may name the slug: a taken one is refused, not renamed."""
    taken = post(client_for(staff_user), "/tournaments/", {**TOURNAMENT, "name": "Demo"}).json()["slug"]
    with pytest.raises(Conflict) as refused:
        tournaments.create_tournament(
            SYSTEM, slug=taken, name="Another demo", chart=Chart.objects.get(slug="w40k4-standard"),
            level=Level.objects.get(slug="alpha"), points_limit=1500, rounds=3)
    assert refused.value.code == "slug_taken"
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Demo"]
