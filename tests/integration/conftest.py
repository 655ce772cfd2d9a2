"""Fixtures of the tournament API tests (helpers live in tournament_fixtures.py)."""
import pytest

from tests.integration.tournament_fixtures import client_for, make_user


@pytest.fixture
def staff_user(db):
    return make_user("organiser", staff=True)


@pytest.fixture
def staff(staff_user):
    """An API client signed in as an organiser."""
    return client_for(staff_user)


@pytest.fixture
def anon():
    return client_for(None)
