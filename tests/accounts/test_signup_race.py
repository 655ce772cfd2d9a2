"""Six sign-ups with one username (in three cases) at the same moment, on PostgreSQL: one
account, one 201 (or redirect), and a field error for every other, never a 500."""
from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.events.test_tournament_concurrency import in_parallel
from tests.tournament_fixtures import API, client_for

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]
STRONG = "correct-horse-battery-staple-42"
NAMES = ["Mixd8", "mixd8", "MIXD8"] * 2


def test_parallel_api_sign_ups_make_one_account():
    def sign_up(index: int):
        body = {"username": NAMES[index], "email": f"{index}@example.org", "password": STRONG}
        return lambda: client_for().post(f"{API}/accounts/", body, format="json")

    answers = in_parallel([sign_up(i) for i in range(len(NAMES))])
    assert Counter(status for status, _body in answers) == {201: 1, 400: 5}
    refusals = [body for status, body in answers if status == 400]
    assert all(body == {"username": ["This username is already taken."]} for body in refusals)
    assert get_user_model().objects.filter(username__iexact="mixd8").count() == 1


class PageAnswer:
    """The site answers HTML: in_parallel wants a status and a JSON body."""

    def __init__(self, response):
        self.status_code = response.status_code
        self.text = response.content.decode()

    def json(self) -> str:
        return self.text


def test_parallel_site_sign_ups_make_one_account():
    def sign_up(index: int):
        form = {"username": NAMES[index], "email": f"{index}@example.org",
                "password1": STRONG, "password2": STRONG}
        return lambda: PageAnswer(Client().post("/signup/", form))

    answers = in_parallel([sign_up(i) for i in range(len(NAMES))])
    assert Counter(status for status, _page in answers) == {302: 1, 200: 5}
    taken = ("This username is already taken.", "A user with that username already exists.")
    assert all(any(words in page for words in taken)
               for status, page in answers if status == 200)
    assert get_user_model().objects.filter(username__iexact="mixd8").count() == 1
