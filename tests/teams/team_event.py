"""Helpers for the team event tests: a team tournament built through the API."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from tests.tournament_fixtures import (
    client_for,
    create_tournament,
    expect,
    get,
    make_users,
    post,
    register,
    set_status,
)


@dataclass
class TeamEvent:
    slug: str
    staff: APIClient
    teams: list[dict] = field(default_factory=list)
    clients: dict[int, APIClient] = field(default_factory=dict)  # player id -> their client
    users: dict[int, Any] = field(default_factory=dict)  # player id -> their account

    def captain(self, team: int) -> APIClient:
        return self.clients[next(t for t in self.teams if t["id"] == team)["captain"]]


def build(staff_user: Any, *, teams: int = 2, size: int = 3, prefix: str = "t",
          tournament: dict | None = None, **settings: Any) -> TeamEvent:
    """``tournament``: the event's own fields (seed, missions...); ``settings``: the team settings."""
    staff = client_for(staff_user)
    body = create_tournament(staff, name=f"Teams {prefix}", format="team",
                             team={"size": size, **settings}, **(tournament or {}))
    slug = body["slug"]
    set_status(staff, slug, "registration_open")
    event = TeamEvent(slug, staff)
    users = make_users(f"{prefix}-", teams * size)
    for t in range(teams):
        members = []
        for user in users[t * size:(t + 1) * size]:
            client = client_for(user)
            player = register(client, slug, f"{user.username}")
            event.clients[player["id"]] = client
            event.users[player["id"]] = user
            members.append(player["id"])
        captain = event.clients[members[0]]
        event.teams.append(expect(post(captain, f"/tournaments/{slug}/teams/",
                                       {"name": f"Team {t}", "captain": members[0], "members": members}), 201))
    return event


def draft(client: APIClient, match: int, **body: Any):
    return post(client, f"/team-matches/{match}/draft/", body)


def seen(client: APIClient, match: int) -> dict:
    return expect(get(client, f"/team-matches/{match}/draft/"), 200)
