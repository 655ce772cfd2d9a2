"""API tokens through the plain lookup (config/token_auth.py): the account it names, DRF's
refusals in the reader's language, one query; and the plain rows it is read with
(config/plain_rows.py) are the ORM's own instances, deferred fields and all."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from config.plain_rows import Part, insert, select, split
from config.token_auth import PlainTokenAuthentication
from teams.models import DraftMove

pytestmark = pytest.mark.django_db


def me(key: str, language: str = "en"):
    return APIClient().get("/api/v1/lists/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE=language)


def test_a_token_signs_its_account_in_with_one_query():
    user = get_user_model().objects.create_user("tok", first_name="Éloïse", is_staff=True)
    key = Token.objects.create(user=user).key
    request = Request(APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}"))
    signed, token = PlainTokenAuthentication().authenticate(request)
    assert (signed.pk, signed.first_name, signed.is_staff, token.key, token.user) == (
        user.pk, "Éloïse", True, key, signed)
    with CaptureQueriesContext(connection) as queries:
        response = me(key)
    assert response.status_code == 200  # signed in: the API's "my lists"
    assert sum("authtoken_token" in q["sql"] for q in queries.captured_queries) == 1
    assert APIClient().get("/api/v1/lists/").status_code in (401, 403)


@pytest.mark.parametrize(("language", "invalid", "inactive"), [
    ("en", "Invalid token.", "User inactive or deleted."),
    ("fr", "Jeton non valide.", "Utilisateur inactif ou supprimé."),
])
def test_unknown_and_inactive_tokens_get_drf_refusals_in_the_reader_language(language, invalid, inactive):
    user = get_user_model().objects.create_user("gone", is_active=False)
    key = Token.objects.create(user=user).key
    unknown = me("0" * 40, language)
    assert unknown.status_code == 401 and invalid in unknown.content.decode()
    refused = me(key, language)
    assert refused.status_code == 401 and inactive in refused.content.decode()


def test_plain_rows_are_the_orm_instances_with_other_fields_deferred():
    user = get_user_model().objects.create_user("plain", email="p@example.org")
    part = Part(get_user_model(), "u", ("id", "username", "date_joined", "is_active"))
    with connection.cursor() as cursor:
        cursor.execute(f"{select([part])} FROM {part.table()} WHERE u.id = %s", [user.pk])
        (built,) = split([part], cursor.fetchone())
    assert (built.pk, built.username, built.date_joined, built.is_active) == (
        user.pk, user.username, user.date_joined, True)  # converted: an aware datetime, a bool
    assert built.get_deferred_fields() >= {"email", "password"}
    with CaptureQueriesContext(connection) as queries:
        assert built.email == "p@example.org"  # fetched on first access, as with .only()
    assert len(queries.captured_queries) == 1
    assert Part(DraftMove, "d", ("id",)).build([None]) is None  # a LEFT JOIN's missing row


def test_plain_statements_run_prepared_on_postgresql_and_show_their_values_in_the_query_log():
    """config.plain_rows.cursor: PostgreSQL plans a hot path's statement once per connection
    (a draft read planned in about 0.4 ms, run in 0.1), and query logs still read it whole."""
    user = get_user_model().objects.create_user("prep")
    key = Token.objects.create(user=user).key
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert me(key).status_code == 200
    logged = [q["sql"] for q in queries.captured_queries if "authtoken_token" in q["sql"]]
    assert len(logged) == 3 and all(key in sql for sql in logged)  # the values, not placeholders
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), sum(generic_plans + custom_plans) FROM pg_prepared_statements"
                       " WHERE statement LIKE %s", ["%authtoken_token%"])
        assert cursor.fetchone() == (1, 3)  # one statement, prepared once, run three times


def test_rows_inserted_together_are_saved_each_with_its_key_in_one_statement_on_postgresql():
    from events.audit import SYSTEM, entry
    from events.models import AuditEntry

    user = get_user_model()(username="two", first_name="Zoé")
    audited = entry(SYSTEM, "test_insert", None, "two rows", {"n": 2}, stale=False)
    with CaptureQueriesContext(connection) as queries:
        assert insert(user, audited) is user
    together = connection.vendor == "postgresql"
    assert len(queries.captured_queries) == (1 if together else 2)
    assert user.pk and audited.pk and not audited._state.adding
    stored = AuditEntry.objects.get(pk=audited.pk)
    assert (stored.action, stored.target, stored.data, stored.created_at) == (
        "test_insert", "two rows", {"n": 2}, audited.created_at)  # auto_now_add set and kept
    assert get_user_model().objects.get(pk=user.pk).first_name == "Zoé"
