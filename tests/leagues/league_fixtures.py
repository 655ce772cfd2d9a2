"""A league built through the API: weeks around now, players with accounts and clients."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tests.tournament_fixtures import (
    Event,
    client_for,
    create_tournament,
    expect,
    make_users,
    post,
    register,
)

DAY = timedelta(days=1)


def weeks_around_now(*, past: int = 1, future: int = 1,
                     limits: list[int | None] | None = None) -> list[dict[str, Any]]:
    """``past`` closed weeks, one open now (week ``past + 1``), then ``future`` not yet open."""
    start = timezone.now() - DAY - past * 7 * DAY
    weeks = []
    for index in range(past + 1 + future):
        opens = start + index * 7 * DAY
        week = {"opens": opens.isoformat(), "closes": (opens + 7 * DAY).isoformat()}
        if limits and limits[index] is not None:
            week["points_limit"] = limits[index]
        weeks.append(week)
    return weeks


def build_league(staff_user: Any, players: int = 4, prefix: str = "lg", **league: Any) -> Event:
    staff = client_for(staff_user)
    settings = {"weeks": weeks_around_now(), **league}
    body = create_tournament(staff, name=f"League {prefix}", format="league", league=settings)
    event = Event(body["slug"], staff)
    for index, user in enumerate(make_users(f"{prefix}-", players)):
        client = client_for(user)
        player = register(client, event.slug, f"Player {index}")
        event.clients[player["id"]] = client
        event.users[player["id"]] = user
        event.names[player["id"]] = player["name"]
    return event


def ids(event: Event) -> list[int]:
    return sorted(event.clients)


def report_game(event: Event, me: int, opponent: int, week: int, winner: int | None, **extra: Any):
    """``extra``: more body fields; ``HTTP_...`` ones are request headers."""
    headers = {k: extra.pop(k) for k in list(extra) if k.startswith("HTTP_")}
    return post(event.client(me), f"/tournaments/{event.slug}/weeks/{week}/games/",
                {"opponent": opponent, "result": {"winner": winner}, **extra}, **headers)


def staff_game(event: Event, a: int, b: int, week: int, winner: int | None):
    return post(event.staff, f"/tournaments/{event.slug}/weeks/{week}/games/",
                {"players": [a, b], "result": {"winner": winner}})


def played(event: Event, a: int, b: int, week: int, winner: int | None) -> int:
    """A game reported by ``a`` and confirmed by ``b``; its id."""
    game = expect(report_game(event, a, b, week, winner), 201)
    expect(post(event.client(b), f"/games/{game['id']}/confirm/"), 200)
    return game["id"]
