"""Who may do what (api-v1 conventions): 401 without credentials, 403 when not allowed, 404 for
what one may not even know about; checked for every tournament write and for hidden reads.

Each case runs on a fresh event so that one role's success cannot change another's answer."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from events.models import Game, Report, Round
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    TOURNAMENT,
    Event,
    build_event,
    client_for,
    expect,
    get,
    list_path,
    make_user,
    pair,
    post,
    put,
    register,
    report,
    set_status,
    submit_list,
)

pytestmark = pytest.mark.django_db
ROLES = ("anon", "player", "other", "staff")


@dataclass
class World:
    """An event seen by four people: nobody, a player, another player, an organiser.

    Once a round exists, ``player`` and ``opponent`` share ``game`` and ``other`` plays
    elsewhere."""

    event: Event
    player: int
    other: int
    opponent: int | None = None
    game: int | None = None

    def client(self, role: str):
        if role == "anon":
            return client_for(None)
        if role == "staff":
            return self.event.staff
        return self.event.client(self.player if role == "player" else self.other)

    @property
    def slug(self) -> str:
        return self.event.slug


def build_world(staff_user, state: str) -> World:
    """``state``: open (registration), locked (lists), draft (round 1 drafted), published,
    reported (the opponent reported ``game``)."""
    event = build_event(staff_user, 4, lock=state != "open")
    ids = list(event.clients)
    if state in ("open", "locked"):
        return World(event, ids[0], ids[1])
    body = expect(pair(event.staff, event.slug, draft=state == "draft"), 201)
    (player, opponent), (other, _fourth) = (g["players"] for g in body["games"])
    world = World(event, player, other, opponent, body["games"][0]["id"])
    if state == "reported":
        expect(report(event.client(opponent), world.game, opponent), 200)
    return world


Call = Callable[[World, Any], Any]


def patch(client, path: str, body: dict):
    return client.patch("/api/v1" + path, body, format="json")


# name: (world state, request, expected status per role: anon, player, other, staff)
WRITES: dict[str, tuple[str, Call, tuple[int, int, int, int]]] = {
    "create tournament": ("open", lambda w, c: post(c, "/tournaments/", TOURNAMENT),
                          (401, 403, 403, 201)),
    "change status": ("open", lambda w, c: post(c, f"/tournaments/{w.slug}/status/",
                                                {"status": "lists_locked"}), (401, 403, 403, 200)),
    "publish lists": ("open", lambda w, c: post(c, f"/tournaments/{w.slug}/publish-lists/"),
                      (401, 403, 403, 200)),
    # "player" and "other" are registered already: a second registration is 409, and
    # registering someone else (with their username) is for staff only.
    "register self": ("open", lambda w, c: post(c, f"/tournaments/{w.slug}/players/",
                                                {"name": "Again"}), (401, 409, 409, 201)),
    "register someone": ("open", lambda w, c: post(c, f"/tournaments/{w.slug}/players/",
                                                   {"name": "Zoe", "username": "zoe"}),
                         (401, 403, 403, 201)),
    "rename player": ("open", lambda w, c: patch(c, f"/tournaments/{w.slug}/players/{w.player}/",
                                                 {"name": "Renamed"}), (401, 403, 403, 200)),
    "empty player change": ("open", lambda w, c: patch(
        c, f"/tournaments/{w.slug}/players/{w.player}/", {}), (401, 200, 403, 200)),
    "drop player": ("open", lambda w, c: patch(c, f"/tournaments/{w.slug}/players/{w.player}/",
                                               {"dropped": True}), (401, 200, 403, 200)),
    "put list": ("open", lambda w, c: submit_list(c, w.slug, w.player, LEGAL_UNITS),
                 (401, 200, 403, 200)),
    "unlock list": ("locked", lambda w, c: post(
        c, f"/tournaments/{w.slug}/players/{w.player}/list/unlock/", {"reason": "typo"}),
        (401, 403, 403, 200)),
    "pair round": ("locked", lambda w, c: pair(c, w.slug), (401, 403, 403, 201)),
    "publish round": ("draft", lambda w, c: post(c, f"/tournaments/{w.slug}/rounds/1/publish/"),
                      (401, 403, 403, 200)),
    "re-pair round": ("published", lambda w, c: post(
        c, f"/tournaments/{w.slug}/rounds/1/repair/", {"confirm": 1}), (401, 403, 403, 200)),
    "report": ("published", lambda w, c: report(c, w.game, None), (401, 200, 403, 200)),
    "confirm": ("reported", lambda w, c: post(c, f"/games/{w.game}/confirm/"),
                (401, 200, 403, 200)),
    "dispute": ("reported", lambda w, c: post(c, f"/games/{w.game}/dispute/", {"reason": "no"}),
                (401, 200, 403, 200)),
}

# Reads of what only some may see; 404 hides the object's existence.
READS: dict[str, tuple[str, Call, tuple[int, int, int, int]]] = {
    "draft round": ("draft", lambda w, c: get(c, f"/tournaments/{w.slug}/rounds/1/"),
                    (404, 404, 404, 200)),
    "game of a draft round": ("draft", lambda w, c: get(c, f"/games/{w.game}/"),
                              (404, 404, 404, 200)),
    "report in a draft round": ("draft", lambda w, c: report(c, w.game, None),
                                (401, 404, 404, 409)),
    "confirm in a draft round": ("draft", lambda w, c: post(c, f"/games/{w.game}/confirm/"),
                                 (401, 404, 404, 409)),
    "unpublished list": ("open", lambda w, c: get(c, list_path(w.slug, w.player)),
                         (401, 200, 403, 200)),
}

CASES = {**WRITES, **READS}


@pytest.mark.parametrize("name", list(CASES))
def test_permission_matrix(staff_user, name):
    state, call, expected = CASES[name]
    make_user("zoe")
    world = build_world(staff_user, state)
    answers = {}
    for role in ROLES:
        # Each role meets the same event: whatever it changed is rolled back before the next.
        with transaction.atomic():
            before = (Round.objects.count(), Game.objects.count(), Report.objects.count())
            response = call(world, world.client(role))
            answers[role] = response.status_code
            if response.status_code >= 400:
                body = response.json()
                assert set(body) == {"detail", "code"}, (role, body)
                assert response.status_code != 401 or body["code"] == "not_authenticated"
                after = (Round.objects.count(), Game.objects.count(), Report.objects.count())
                assert after == before, role
            transaction.set_rollback(True)
    assert answers == dict(zip(ROLES, expected, strict=True))


def test_a_draft_tournament_is_invisible_except_to_staff(staff_client):
    body = {**TOURNAMENT, "status": "draft"}
    slug = staff_client.post("/api/v1/tournaments/", body, format="json").json()["slug"]
    user = make_user("early")
    register(staff_client, slug, "Early", username="early")  # staff may register during the draft
    for client in (client_for(None), client_for(user)):
        expect(get(client, f"/tournaments/{slug}/"), 404, "tournament_not_found")
        expect(get(client, f"/tournaments/{slug}/players/"), 404, "tournament_not_found")
        assert slug not in {t["slug"] for t in get(client, "/tournaments/").json()}
    assert expect(get(staff_client, f"/tournaments/{slug}/"), 200)["status"] == "draft"


def test_a_hidden_game_is_404_whatever_the_report_body(staff_user):
    world = build_world(staff_user, "draft")
    malformed = {"result": "none"}
    for role in ("player", "other"):
        expect(post(world.client(role), f"/games/{world.game}/report/", malformed), 404,
               "game_not_found")
    assert "result" in expect(post(world.client("staff"), f"/games/{world.game}/report/",
                                   malformed), 400)
    expect(post(world.client("player"), "/games/999999/report/", malformed), 404, "game_not_found")


def test_unknown_objects_are_404(staff_user):
    world = build_world(staff_user, "published")
    player = world.client("player")
    expect(get(player, "/tournaments/no-such-event/"), 404, "tournament_not_found")
    expect(submit_list(player, world.slug, 999999, LEGAL_UNITS), 404, "player_not_found")
    expect(get(player, f"/tournaments/{world.slug}/rounds/7/"), 404, "round_not_found")
    expect(post(player, "/games/999999/confirm/"), 404, "game_not_found")


def test_published_lists_are_readable_by_everyone(staff_user):
    world = build_world(staff_user, "locked")
    path = list_path(world.slug, world.player)
    expect(get(world.client("other"), path), 403, "lists_not_published")
    expect(get(world.client("anon"), path), 401, "not_authenticated")
    expect(post(world.event.staff, f"/tournaments/{world.slug}/publish-lists/"), 200)
    bodies = [expect(get(world.client(role), path), 200) for role in ROLES]
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["player"] == world.player and bodies[0]["valid"] is True
    # Publishing shows lists; it does not let anyone else change them.
    expect(put(world.client("other"), path, {"units": LEGAL_UNITS}), 403, "not_your_list")
    expect(post(world.event.staff, f"/tournaments/{world.slug}/publish-lists/",
                {"published": False}), 200)
    expect(get(world.client("other"), path), 403, "lists_not_published")


def test_the_reporter_cannot_confirm_or_dispute_their_own_report(staff_user):
    world = build_world(staff_user, "reported")
    reporter = world.event.client(world.opponent)
    expect(post(reporter, f"/games/{world.game}/confirm/"), 403, "own_report")
    expect(post(reporter, f"/games/{world.game}/dispute/"), 403, "own_report")
    assert Game.objects.get(pk=world.game).status == "reported"


def test_token_authentication_is_accepted(staff_user):
    """The documented way in: a token from /auth/token/ in the Authorization header."""
    staff_user.set_password("a long organiser password")
    staff_user.save()
    token = expect(post(client_for(None), "/auth/token/",
                        {"username": staff_user.username,
                         "password": "a long organiser password"}), 200)["token"]
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    slug = expect(post(client, "/tournaments/", TOURNAMENT), 201)["slug"]
    set_status(client, slug, "registration_open")
