"""The schema tells the truth (issue #23, item 6): each finding of the issue, checked on the
schema and on the server's answers. The sweep (test_api_robustness.py) checks the same broadly;
these name each finding, so a regression says which one."""
from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from config.schema import has_file
from systems.registry import game_systems
from tests.tournament_fixtures import (
    API,
    LEGAL_UNITS,
    build_event,
    client_for,
    create_tournament,
    expect,
    get,
    make_user,
    pair,
    post,
    put,
)

METHODS = ("get", "post", "put", "patch", "delete")
CLIENT_ERRORS = {"400", "401", "403", "404", "409"}


@cache
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, operation) for path, item in schema()["paths"].items()
            for method, operation in item.items() if method in METHODS]


def component(name: str) -> dict[str, Any]:
    return schema()["components"]["schemas"][name]


def error_schema(operation: dict[str, Any], status: str) -> dict[str, Any]:
    return operation["responses"][status]["content"]["application/json"]["schema"]


# The schema

def test_every_operation_documents_its_error_answers():
    """Was 8 of 96: now every operation documents 400 (any request can be malformed), 404 when
    it names an object in its path, each with the one error body."""
    ops = operations()
    assert len(ops) > 90
    undocumented = [f"{m} {p}" for m, p, op in ops if not CLIENT_ERRORS & set(op["responses"])]
    assert undocumented == []
    for method, path, operation in ops:
        assert "400" in operation["responses"], (method, path)
        assert error_schema(operation, "400") == {"anyOf": [{"$ref": "#/components/schemas/Error"},
                                                            {"$ref": "#/components/schemas/FieldErrors"}]}
        if "{" in path:
            assert error_schema(operation, "404") == {"$ref": "#/components/schemas/Error"}, (method, path)


def test_error_answers_follow_who_may_call():
    """401 and 403 where credentials or staff are needed, 409 where the state can refuse, 429
    where a rate limit applies; none of them on the open reference data and tools."""
    ops = {(m, p): set(op["responses"]) for m, p, op in operations()}
    staff_only = ops[("POST", "/api/v1/tournaments/{slug}/rounds/{number}/mission-pack/")]
    assert {"401", "403", "404", "409"} <= staff_only
    assert {"401", "403", "409"} <= ops[("POST", "/api/v1/tournaments/{slug}/publish-lists/")]
    assert {"401", "403"} <= ops[("GET", "/api/v1/tournaments/{slug}/players/{id}/list/")]
    assert {"401", "403"} <= ops[("GET", "/api/v1/lists/")]
    assert {"401", "403", "409"}.isdisjoint(ops[("GET", "/api/v1/missions/")])
    assert {"401", "403", "409"}.isdisjoint(ops[("POST", "/api/v1/dice/roll/")])
    assert "429" in ops[("POST", "/api/v1/accounts/")] and "429" in ops[("POST", "/api/v1/auth/token/")]


def test_error_component():
    error = component("Error")
    assert error["required"] == ["code", "detail"]
    assert set(error["properties"]) == {"code", "detail", "params"}


def test_game_system_is_one_of_the_registered_systems():
    registered = sorted(system.slug for system in game_systems())
    for path in ("/api/v1/charts/", "/api/v1/factions/", "/api/v1/profiles/"):
        parameter = next(p for p in schema()["paths"][path]["get"]["parameters"]
                         if p["name"] == "game_system")
        assert parameter["schema"]["enum"] == registered, path
    assert component("TournamentCreateRequest")["properties"]["game_system"]["enum"] == registered


def test_input_strings_refuse_nul():
    """Every free string a client sends carries a pattern without NUL (the parsers' 400)."""
    name = component("TournamentCreateRequest")["properties"]["name"]
    pattern = re.compile(name["pattern"])
    assert pattern.search("Cité en flammes") and not pattern.search("Cité\x00")
    reason = component("DisputeRequest")["properties"]["reason"]
    assert reason["pattern"] == name["pattern"]


def test_bodies_are_documented_as_the_server_reads_them():
    """JSON everywhere; multipart only where a file can be uploaded (a form cannot carry the
    nested bodies, which the server would then read as empty)."""
    for method, path, operation in operations():
        content = operation.get("requestBody", {}).get("content", {})
        assert "application/x-www-form-urlencoded" not in content, (method, path)
        if "multipart/form-data" in content:
            assert has_file(content["multipart/form-data"], schema()["components"]["schemas"]), path
    validate = schema()["paths"]["/api/v1/lists/validate/"]["post"]["requestBody"]["content"]
    assert set(validate) == {"application/json", "multipart/form-data"}  # roster_file


# The server

@pytest.fixture
def organiser(db):
    return make_user("truth-staff", staff=True)


@pytest.fixture
def staff(organiser):
    return client_for(organiser)


def test_pack_202_answers_carry_every_required_field(organiser, staff, settings, tmp_path):
    """Was {"id", "status", "progress"}: the schema's MissionPack requires ``stale`` too."""
    settings.MEDIA_ROOT = tmp_path
    event = build_event(organiser, 2, prefix="t", name="Truth packs")
    expect(pair(staff, event.slug), 201)
    required = set(component("MissionPack")["required"])
    assert "stale" in required
    pack = expect(post(staff, f"/tournaments/{event.slug}/rounds/1/mission-pack/"), 202)
    sheet = expect(post(staff, f"/tournaments/{event.slug}/rounds/1/wall-sheets/",
                        {"kind": "pairings"}), 202)
    for body in (pack, sheet):
        assert required <= set(body), required - set(body)
        assert body["stale"] is False and isinstance(body["progress"], int)


def test_empty_role_is_refused(organiser, staff):
    """The main list is the absence of ``role``; ``?role=`` (empty) was read as it, with a 200."""
    event = build_event(organiser, 2, prefix="r", name="Truth roles", lock=False)
    player = next(iter(event.clients))
    path = f"/tournaments/{event.slug}/players/{player}/list/"
    expect(get(staff, path), 200)
    expect(get(staff, path + "?role="), 400, "role_unknown")
    expect(put(staff, path + "?role=", {"units": LEGAL_UNITS}), 400, "role_unknown")


@pytest.mark.parametrize("body, content_type", [
    (b"[]", "application/json"),
    (b"[{\"published\": true}]", "application/json"),
    (b"\"published\"", "application/json"),
    (b"true", "application/json"),
    (b"--xx\r\nTrue--xx--\r\n", "multipart/form-data; boundary=xx"),
])
def test_a_body_that_is_not_an_object_is_refused(staff, body, content_type):
    """publish-lists answered 200 to an array or a part-less multipart body (its one field has a
    default); every body-taking view refuses them in one place (config/parsers.py)."""
    slug = create_tournament(staff, name="Truth bodies")["slug"]
    for path in (f"/tournaments/{slug}/publish-lists/", "/tournaments/", "/accounts/"):
        response = staff.post(API + path, data=body, content_type=content_type)
        expect(response, 400, "body_not_object")
    expect(post(staff, f"/tournaments/{slug}/publish-lists/", {}), 200)  # an object still is


def test_nul_in_a_string_is_refused(staff):
    expect(post(staff, "/tournaments/", {"name": "Cité\x00"}), 400, "nul_character")


def test_unknown_game_system_is_refused(db):
    expect(get(client_for(), "/charts/?game_system=nope"), 400, "game_system_unknown")
