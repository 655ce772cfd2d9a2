"""Fixtures of the campaign tests: the two sides' players (and a stranger), the organiser's desk."""
from typing import Any

import pytest
from django.test import Client

from tests.browser.events import user


@pytest.fixture
def people(db) -> dict[str, Any]:
    """The accounts of the west and east players, and of a visitor who plays neither side."""
    return {"west": user("marcus"), "east": user("grukk"), "stranger": user("visitor")}


@pytest.fixture
def desk(staff_actor) -> Client:
    """The organiser's browser, signed in with the admin's permissions (Django's model rule)."""
    staff_actor.user.is_superuser = True
    staff_actor.user.save()
    client = Client()
    client.force_login(staff_actor.user)
    return client
