"""Rate limits behind a proxy (TRUSTED_PROXIES) and the per-account limit on failed log-ins,
through the API token endpoint, the site's log-in form and the admin's."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from events.models import AuditEntry
from tests.tournament_fixtures import API, TOURNAMENT, client_for

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.1"
STRONG = "correct-horse-battery-staple-42"
LOCKED = "Too many failed log-ins for this account."


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", "alice@example.org", STRONG)


@pytest.fixture
def proxied(settings):
    """One TLS proxy in front: every request comes from its address."""
    settings.TRUSTED_PROXIES = 1


def via(client_address: str | None = None, remote: str = PROXY) -> dict[str, str]:
    headers = {"REMOTE_ADDR": remote}
    if client_address is not None:
        headers["HTTP_X_FORWARDED_FOR"] = client_address
    return headers


def api_login(username: str, password: str, **headers: str):
    return APIClient().post(f"{API}/auth/token/", {"username": username, "password": password},
                            format="json", **headers)


def site_login(username: str, password: str, client: Client | None = None, **headers: str):
    return (client or Client()).post("/login/", {"username": username, "password": password},
                                     **headers)


def signed_in(client: Client) -> bool:
    return bool(client.session.get("_auth_user_id"))


# Per client address, behind a proxy.

@pytest.mark.parametrize("login", [api_login, site_login])
def test_one_client_over_its_limit_does_not_lock_out_the_others(proxied, settings, alice, login):
    settings.MUSTER_RATE_LIMITS = "login=3/minute"
    codes = [login(f"guess{i}", "wrong", **via("203.0.113.66")).status_code for i in range(4)]
    assert codes[-1] == 429
    assert login("alice", STRONG, **via("198.51.100.7")).status_code in (200, 302)


@pytest.mark.parametrize("login", [api_login, site_login])
def test_without_trusted_proxies_the_header_is_ignored(settings, alice, login):
    settings.MUSTER_RATE_LIMITS = "login=3/minute"
    for i in range(3):
        login(f"guess{i}", "wrong", **via(f"203.0.113.{i}"))
    assert login("alice", STRONG, **via("198.51.100.7")).status_code == 429


def test_a_forged_first_entry_does_not_escape_the_limit(proxied, settings):
    settings.MUSTER_RATE_LIMITS = "login=3/minute"
    codes = [api_login(f"guess{i}", "wrong", **via(f"6.6.6.{i}, 203.0.113.66")).status_code
             for i in range(4)]
    assert codes == [400, 400, 400, 429]


def test_a_malformed_header_falls_back_to_the_proxy_address(proxied, settings):
    settings.MUSTER_RATE_LIMITS = "login=2/minute"
    api_login("x", "wrong", **via("garbage"))
    api_login("y", "wrong", **via(None))
    assert api_login("z", "wrong", **via("not-an-ip")).status_code == 429


@pytest.mark.parametrize(("trusted", "expected"), [(1, "203.0.113.9"), (0, PROXY)])
def test_the_audit_log_records_the_client_address(settings, trusted, expected):
    settings.TRUSTED_PROXIES = trusted
    organiser = get_user_model().objects.create_user("organiser", is_staff=True)
    response = client_for(organiser).post(f"{API}/tournaments/", TOURNAMENT, format="json",
                                          **via("6.6.6.6, 203.0.113.9"))
    assert response.status_code == 201, response.content
    assert AuditEntry.objects.get(action="tournament_created").ip == expected


# Per account, whatever the address.

@pytest.mark.parametrize("login", [api_login, site_login])
def test_failures_from_many_addresses_lock_the_account(settings, alice, login):
    settings.MUSTER_RATE_LIMITS = "login_account=3/15m"
    for index, name in enumerate(["alice", "ALICE", "Alice"]):
        assert login(name, "wrong", **via(remote=f"203.0.113.{index}")).status_code in (200, 400)
    client = Client()
    refused = (api_login("alice", STRONG, **via(remote="198.51.100.7")) if login is api_login
               else site_login("alice", STRONG, client, **via(remote="198.51.100.7")))
    assert refused.status_code == 429
    if login is api_login:
        assert refused.json()["code"] == "throttled"
        assert refused.json()["detail"].startswith(LOCKED)
    else:
        page = refused.content.decode()
        assert LOCKED in page and 'role="alert"' in page and 'value="alice"' in page
        assert not signed_in(client)


def test_a_locked_account_locks_every_way_in(settings, alice):
    settings.MUSTER_RATE_LIMITS = "login_account=2/15m"
    site_login("alice", "wrong")
    api_login("alice", "wrong")
    assert api_login("alice", STRONG).status_code == 429
    assert site_login("alice", STRONG).status_code == 429
    alice.is_staff = True
    alice.save()
    admin = Client()
    admin.post("/admin/login/", {"username": "alice", "password": STRONG})
    assert not signed_in(admin)


def test_below_the_limit_the_right_password_works(settings, alice):
    settings.MUSTER_RATE_LIMITS = "login_account=3/15m"
    api_login("alice", "wrong")
    site_login("alice", "wrong")
    assert api_login("alice", STRONG).status_code == 200
    client = Client()
    assert site_login("alice", STRONG, client).status_code == 302 and signed_in(client)


def test_a_success_does_not_reset_the_count(settings, alice):
    settings.MUSTER_RATE_LIMITS = "login_account=3/15m"
    api_login("alice", "wrong", **via(remote="203.0.113.1"))
    api_login("alice", "wrong", **via(remote="203.0.113.1"))
    assert api_login("alice", STRONG, **via(remote="198.51.100.7")).status_code == 200
    api_login("alice", "wrong", **via(remote="203.0.113.1"))
    assert api_login("alice", STRONG, **via(remote="198.51.100.7")).status_code == 429


def test_another_account_is_not_locked(settings, alice):
    settings.MUSTER_RATE_LIMITS = "login_account=2/15m"
    get_user_model().objects.create_user("bob", "bob@example.org", STRONG)
    for _ in range(3):
        api_login("alice", "wrong")
    assert api_login("bob", STRONG).status_code == 200


def test_rate_limits_off_disables_the_account_limit(settings, alice):
    settings.MUSTER_RATE_LIMITS = "off"
    for _ in range(12):
        api_login("alice", "wrong")
    assert api_login("alice", STRONG).status_code == 200


def test_the_default_locks_after_ten_failures(alice):
    for index in range(10):
        assert api_login("alice", "wrong", **via(remote=f"203.0.113.{index}")).status_code == 400
    assert api_login("alice", STRONG, **via(remote="198.51.100.7")).status_code == 429


def test_a_malformed_token_body_is_still_a_400(alice):
    response = APIClient().post(f"{API}/auth/token/", [1, 2], format="json")
    assert response.status_code == 400
    response = APIClient().post(f"{API}/auth/token/", {"username": ["alice"], "password": 1},
                                format="json")
    assert response.status_code == 400


def test_the_locked_page_is_in_french(settings, alice):
    settings.MUSTER_RATE_LIMITS = "login_account=1/15m"
    site_login("alice", "wrong")
    page = site_login("alice", STRONG, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Trop d" in page and "ce compte" in page
