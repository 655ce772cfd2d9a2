"""Hostile input is a 400, never a 500, and a body is never read past the size cap.

NUL characters (PostgreSQL refuses them), JSON nested past the recursion limit, oversized
uploads, and usernames that differ only in case (the database enforces it)."""
from __future__ import annotations

import base64
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadhandler import MemoryFileUploadHandler, TemporaryFileUploadHandler
from django.db import IntegrityError, transaction
from django.http.multipartparser import MultiPartParser
from django.test import Client

from accounts.forms import SignupForm
from accounts.services import UsernameTaken, create_account
from config.input_checks import MAX_JSON_DEPTH
from config.request_limits import CappedUploadHandler, RequestTooLarge
from tests.site.hostile_bodies import BIG, MULTIPART, MadeUpBody, deep
from tests.tournament_fixtures import API, ROSTER_TEXT, build_event, client_for, expect, make_user

pytestmark = pytest.mark.django_db
STRONG = "correct-horse-battery-staple-42"
CAP = 4 * 1024 * 1024  # settings.MUSTER_MAX_REQUEST_BYTES


def named_file(content: bytes, name: str) -> io.BytesIO:
    upload = io.BytesIO(content)
    upload.name = name
    return upload


def oversized(client, path: str, body: MadeUpBody, **extra):
    return client.generic("POST", path, b"", CONTENT_LENGTH=str(body.size),
                          CONTENT_TYPE=MULTIPART, **{"wsgi.input": body}, **extra)


# --- NUL characters ------------------------------------------------------------------------

def test_nul_in_a_json_value_is_a_400_for_anonymous_callers():
    response = client_for().post(f"{API}/missions/roll/", {"level": "\u0000"}, format="json")
    expect(response, 400, "nul_character")


def test_nul_in_a_json_key_or_deep_inside_is_a_400():
    api = client_for()
    expect(api.post(f"{API}/missions/roll/", {"le\u0000vel": "gamma"}, format="json"), 400,
           "nul_character")
    body = {"chart": "w40k4-standard", "points_limit": 1500,
            "units": [{"name": "Cap\u0000tain", "slot": "hq", "points": 100}]}
    expect(api.post(f"{API}/lists/validate/", body, format="json"), 400, "nul_character")


def test_nul_in_a_chart_slug_is_a_400_in_the_readers_language():
    body = {"chart": "w40k\u0000", "points_limit": 1500, "units": []}
    response = client_for().post(f"{API}/lists/validate/", body, format="json",
                                 HTTP_ACCEPT_LANGUAGE="fr")
    assert "caractère NUL" in expect(response, 400, "nul_character")["detail"]


def test_a_raw_nul_in_json_text_is_a_400():
    response = client_for().post(f"{API}/missions/roll/", b"{\"level\": \"\x00\"}",
                                 content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "parse_error"


@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_nul_in_a_put_form_field_is_a_400(encoding, staff_user):
    """PUT bodies are read by the API's parsers only (Django reads a form only for POST)."""
    event = build_event(staff_user, 1, lock=False, lists=False)
    [(player_id, api)] = event.clients.items()
    path = f"{API}/tournaments/{event.slug}/players/{player_id}/list/"
    if encoding == "multipart":
        response = api.put(path, {"roster": "Cap\x00tain", "roster_format": "auto"},
                           format="multipart")
    else:
        response = api.put(path, "roster=Cap%00tain", content_type="application/x-www-form-urlencoded")
    expect(response, 400, "nul_character")


@pytest.mark.parametrize("how", ["base64", "file", "json escape"])
def test_a_roster_that_decodes_to_a_nul_is_unreadable_not_a_500(how, staff_user):
    """The NUL arrives inside a file or base64 text: only the decoded roster shows it."""
    event = build_event(staff_user, 1, lock=False, lists=False)
    [(player_id, api)] = event.clients.items()
    path = f"{API}/tournaments/{event.slug}/players/{player_id}/list/"
    raw = ROSTER_TEXT.replace("Captain", "Cap\x00tain").encode()
    if how == "base64":
        response = api.put(path, {"roster": base64.b64encode(raw).decode()}, format="json")
    elif how == "file":
        response = api.put(path, {"roster_file": named_file(raw, "army.txt")}, format="multipart")
    else:
        newrecruit = json.dumps({"roster": {"name": "Army\x00", "forces": []}}).encode()
        response = api.put(path, {"roster": base64.b64encode(newrecruit).decode()},
                           format="json")
    expect(response, 400, "roster_unreadable")


def test_a_roster_file_with_a_nul_on_the_list_page_is_a_message(staff_user):
    event = build_event(staff_user, 1, lock=False, lists=False)
    [(player_id, user)] = event.users.items()
    page = Client()
    page.force_login(user)
    raw = ROSTER_TEXT.replace("Captain", "Cap\x00tain").encode()
    response = page.post(f"/tournaments/{event.slug}/players/{player_id}/list/",
                         {"source": "file", "roster_format": "auto",
                          "roster_file": named_file(raw, "army.txt")})
    assert response.status_code == 200
    assert "The roster could not be read as text or as a file." in response.content.decode()


@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_nul_in_a_form_field_is_a_400(encoding):
    api = client_for(make_user("former"))
    if encoding == "multipart":
        response = api.post(f"{API}/missions/roll/", {"level": "\x00"})
    else:
        response = api.post(f"{API}/missions/roll/", "level=%00",
                            content_type="application/x-www-form-urlencoded")
    expect(response, 400, "nul_character")


def test_nul_in_a_tournament_body_slug_is_a_400(staff_client):
    body = {"name": "Nul", "chart": "\x00", "points_limit": 1500, "level": "gamma", "rounds": 3}
    expect(staff_client.post(f"{API}/tournaments/", body, format="json"), 400, "nul_character")


@pytest.mark.parametrize("path", [
    "/missions/a%00b/", "/tournaments/a%00b/", "/tournaments/a%00b/players/1/list/",
    "/tournaments/?status=%00", "/missions/?x%00=1", "/charts/?q=%00",
])
def test_nul_in_an_api_path_or_query_is_a_json_400(path, staff_client):
    expect(staff_client.get(API + path), 400, "nul_character")


@pytest.mark.parametrize("path", ["/tournaments/a%00b/", "/?round=%00",
                                  "/password-reset/MQ%00/abc-def/", "/login/?next=%00"])
def test_nul_in_a_page_path_or_query_is_an_html_400(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert b"NUL" in response.content


def test_nul_in_a_page_form_field_is_a_400_not_a_500(client):
    response = client.post("/signup/", {"username": "a\x00b", "email": "a@example.org",
                                        "password1": STRONG, "password2": STRONG})
    assert response.status_code == 400
    assert not get_user_model().objects.exists()


def test_nul_in_the_session_cookie_or_a_token_is_a_400(client):
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/").status_code == 400
    response = Client().get(f"{API}/tournaments/", HTTP_AUTHORIZATION="Token abc\x00def")
    expect(response, 400, "nul_character")


def test_ordinary_text_still_passes(staff_client):
    body = {"level": "gamma", "on_six": "reroll", "seed": 7}
    assert staff_client.post(f"{API}/missions/roll/", body, format="json").status_code == 200
    response = staff_client.post(f"{API}/missions/roll/", {"level": "\\u0000"}, format="json")
    assert response.status_code == 400 and "level" in response.json()  # a backslash, not a NUL


# --- Deep JSON -------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/missions/roll/", "/lists/validate/", "/accounts/",
                                  "/auth/token/", "/tournaments/", "/dice/roll/"])
def test_json_nested_a_thousand_deep_is_a_400_everywhere(path, staff_client):
    response = staff_client.post(API + path, deep(1000), content_type="application/json")
    expect(response, 400, "json_too_deep")
    body = '{"level": ' + deep(MAX_JSON_DEPTH) + "}"  # inside an object: one level too many
    response = staff_client.post(API + path, body, content_type="application/json")
    expect(response, 400, "json_too_deep")


def test_json_at_the_depth_cap_is_parsed_and_refused_by_the_serializer(staff_client):
    body = '{"level": ' + deep(MAX_JSON_DEPTH - 1) + "}"
    response = staff_client.post(f"{API}/missions/roll/", body, content_type="application/json")
    assert response.status_code == 400 and "level" in response.json()


def test_brackets_inside_strings_do_not_count(staff_client):
    name = "[" * 500 + '\\"' + "{" * 500
    body = json.dumps({"level": "gamma", "on_six": "reroll", "seed": 1, "note": name})
    response = staff_client.post(f"{API}/missions/roll/", body, content_type="application/json")
    assert response.status_code == 200


# --- Oversized bodies ------------------------------------------------------------------------

def test_oversized_upload_is_refused_before_it_is_read():
    body = MadeUpBody(BIG)
    response = oversized(client_for(), f"{API}/lists/validate/", body)
    detail = expect(response, 400, "request_too_large")["detail"]
    assert "4 MiB" in detail
    assert body.read_bytes == 0


def test_oversized_upload_to_a_player_api_is_refused_in_french(staff_user):
    event = build_event(staff_user, 1, lock=False, lists=False)
    [(player_id, api)] = event.clients.items()
    body = MadeUpBody(BIG)
    response = api.generic("PUT", f"{API}/tournaments/{event.slug}/players/{player_id}/list/",
                           b"", CONTENT_LENGTH=str(body.size), HTTP_ACCEPT_LANGUAGE="fr",
                           CONTENT_TYPE=MULTIPART, **{"wsgi.input": body})
    assert "4 Mio" in expect(response, 400, "request_too_large")["detail"]
    assert body.read_bytes == 0


def test_oversized_upload_on_the_list_page_comes_back_with_a_message(staff_user):
    event = build_event(staff_user, 1, lock=False, lists=False)
    [(player_id, user)] = event.users.items()
    page = Client()
    page.force_login(user)
    url = f"/tournaments/{event.slug}/players/{player_id}/list/"
    body = MadeUpBody(BIG)
    response = oversized(page, url, body, HTTP_REFERER=f"http://testserver{url}")
    assert response.status_code == 303 and response["Location"].endswith(url)
    assert body.read_bytes == 0
    shown = page.get(url)
    assert shown.status_code == 200
    assert "The request is too large (at most 4 MiB)." in shown.content.decode()


def test_an_upload_stops_streaming_in_at_the_cap_whatever_its_declared_length():
    """A server that passes a body on without a true Content-Length: the first upload handler
    stops reading once the files pass the cap, before the other handlers store them."""
    body = MadeUpBody(40 * 1024 * 1024)
    meta = {"CONTENT_TYPE": MULTIPART, "CONTENT_LENGTH": "1"}
    handlers = [CappedUploadHandler(), MemoryFileUploadHandler(), TemporaryFileUploadHandler()]
    with pytest.raises(RequestTooLarge):
        MultiPartParser(meta, body, handlers).parse()
    assert CAP < body.read_bytes < CAP + 1024 * 1024


def test_a_roster_file_under_the_cap_still_goes_through(staff_user):
    api = client_for()
    response = api.post(f"{API}/lists/validate/", {
        "chart": "w40k4-standard", "points_limit": 1500,
        "roster_file": named_file(b"not a roster", "small.ros")})
    assert response.status_code == 400 and response.json()["code"] == "roster_unreadable"


# --- Usernames unique whatever their case ---------------------------------------------------

def test_the_database_refuses_a_username_differing_only_in_case():
    get_user_model().objects.create_user("mixd8")
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user("MIXD8")


def test_create_account_maps_the_refusal_to_username_taken():
    create_account("Mixd8", "a@example.org", STRONG)
    with pytest.raises(UsernameTaken):
        create_account("mixd8", "b@example.org", STRONG)
    assert get_user_model().objects.count() == 1


def test_three_cases_of_one_name_make_one_account():
    api = client_for()
    answers = [api.post(f"{API}/accounts/", {"username": name, "email": f"{i}@example.org",
                                             "password": STRONG}, format="json").status_code
               for i, name in enumerate(["Mixd8", "mixd8", "MIXD8"])]
    assert answers == [201, 400, 400]
    assert get_user_model().objects.filter(username__iexact="mixd8").count() == 1


def test_site_sign_up_taken_between_check_and_save_is_a_field_error():
    """The race window, without threads: the form was checked, then another sign-up won."""
    form = SignupForm({"username": "Mixd8", "email": "a@example.org",
                       "password1": STRONG, "password2": STRONG})
    assert form.is_valid()
    create_account("MIXD8", "b@example.org", STRONG)
    assert form.save() is None
    assert form.errors["username"] == ["This username is already taken."]


def test_site_sign_up_refuses_another_case(client):
    make_user("mixd8")
    response = client.post("/signup/", {"username": "MIXD8", "email": "a@example.org",
                                        "password1": STRONG, "password2": STRONG})
    assert response.status_code == 200 and response.context["form"].errors["username"]
    assert get_user_model().objects.count() == 1
