"""Sign-up, token log-in, session log-in and their rate limits (api-v1 Accounts)."""
import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db
STRONG = "correct-horse-battery-staple-42"


def signup(anon, username="alice", password=STRONG, email="alice@example.org", **headers):
    return anon.post(
        "/api/v1/accounts/", {"username": username, "password": password, "email": email},
        format="json", **headers,
    )


def test_signup_creates_account_and_returns_username(anon):
    response = signup(anon)
    assert response.status_code == 201
    assert response.json() == {"username": "alice"}
    assert get_user_model().objects.get(username="alice").check_password(STRONG)


def test_signup_rejects_weak_password_with_field_error(anon):
    response = signup(anon, password="123")
    assert response.status_code == 400
    assert "password" in response.json()


def test_signup_rejects_taken_username_case_insensitively(anon):
    signup(anon)
    response = signup(anon, username="ALICE", email="other@example.org")
    assert response.status_code == 400
    assert "username" in response.json()


def test_signup_missing_fields_are_field_errors(anon):
    response = anon.post("/api/v1/accounts/", {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"username", "password", "email"}


def test_signup_error_in_french(anon):
    response = signup(anon, email="not-an-email", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    message = response.json()["email"][0]
    assert "adresse" in message.lower()


def test_token_for_good_credentials_and_400_for_bad(anon):
    signup(anon)
    good = anon.post("/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json")
    assert good.status_code == 200
    token = good.json()["token"]
    assert len(token) >= 20
    again = anon.post("/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json")
    assert again.json()["token"] == token
    bad = anon.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert bad.status_code == 400


def test_token_authenticates_requests(anon):
    signup(anon)
    token = anon.post("/api/v1/auth/token/", {"username": "alice", "password": STRONG}, format="json").json()["token"]
    assert anon.get("/api/v1/lists/").status_code == 401
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/v1/lists/").status_code == 200


def test_signup_is_rate_limited_per_ip(anon, settings):
    settings.MUSTER_RATE_LIMITS = "signup=2/hour"
    codes = [signup(anon, username=f"user{i}", email=f"u{i}@example.org").status_code for i in range(3)]
    assert codes == [201, 201, 429]
    body = signup(anon, username="late", email="late@example.org").json()
    assert body["code"] == "throttled"


def test_rate_limits_off_disables_them(anon, settings):
    settings.MUSTER_RATE_LIMITS = "off"
    codes = {signup(anon, username=f"user{i}", email=f"u{i}@example.org").status_code for i in range(5)}
    assert codes == {201}


def test_token_login_is_rate_limited(anon, settings):
    settings.MUSTER_RATE_LIMITS = "login=3/minute"
    codes = [
        anon.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json").status_code
        for _ in range(4)
    ]
    assert codes == [400, 400, 400, 429]


def test_session_login_and_logout(client):
    get_user_model().objects.create_user("bob", "bob@example.org", STRONG)
    page = client.get("/login/")
    assert page.status_code == 200
    response = client.post("/login/", {"username": "bob", "password": STRONG})
    assert response.status_code == 302
    assert client.session.get("_auth_user_id")
    client.post("/logout/")
    assert not client.session.get("_auth_user_id")


def test_session_login_shares_the_login_limit(client, settings):
    settings.MUSTER_RATE_LIMITS = "login=2/minute"
    codes = [client.post("/login/", {"username": "x", "password": "y"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
