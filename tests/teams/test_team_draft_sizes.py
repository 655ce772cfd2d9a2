"""Whole drafts through the API for even sizes (a ``last`` game) and the queries a poll costs."""
from __future__ import annotations

import pytest

from tests.teams.team_event import build, draft, seen
from tests.tournament_fixtures import client_for, expect, get, pair, post

pytestmark = pytest.mark.django_db


def choice(state: dict, team: int) -> dict:
    """A legal commit for ``team`` read from the draft as staff see it."""
    phase, step = state["phase"], state["step"]
    mine = {c["phase"]: c for c in state["commits"] if c["step"] == step and c["team"] == team}
    theirs = {c["phase"]: c for c in state["commits"] if c["step"] == step and c["team"] != team}
    pool = state["pools"][str(team)]
    if phase == "defender":
        return {"phase": phase, "players": [pool[-1]], "team": team}
    if phase == "attackers":
        return {"phase": phase, "players": [p for p in pool if p not in mine["defender"]["players"]][:2],
                "team": team}
    if phase == "refusal":
        return {"phase": phase, "players": theirs["attackers"]["players"][:1], "team": team}
    return {"phase": phase, "table": state["free_tables"][-1], "team": team}


@pytest.mark.parametrize("size", [4, 8])
def test_a_whole_draft_of_an_even_size(staff_user, size):
    event = build(staff_user, teams=4, size=size, prefix=f"even{size}")
    second_match = expect(pair(event.staff, event.slug), 201)["team_matches"][1]
    match = second_match["id"]
    assert second_match["tables"] == list(range(size + 1, 2 * size + 1))
    expect(post(event.staff, f"/team-matches/{match}/draft/roll/", {"dice": [2, 5]}), 201)
    state = seen(event.staff, match)
    while state["phase"] != "done":
        state = expect(draft(event.staff, match, **choice(state, state["waiting_for"][0])), 201)
    assert len(state["tokens"]) == (size - 1) // 2
    body = expect(get(client_for(None), f"/team-matches/{match}/"), 200)
    assert sorted(g["table"] for g in body["games"]) == second_match["tables"]
    roles = sorted(g["role"] for g in body["games"])
    assert roles == sorted(["defender"] * (size - 2) + ["refused", "last"])
    assert sorted(p for g in body["games"] for p in g["players"]) == sorted(
        m["id"] for t in event.teams if t["id"] in second_match["teams"] for m in t["members"])


def test_a_poll_costs_the_same_few_queries_however_far_the_draft_is(staff_user, django_assert_max_num_queries):
    event = build(staff_user, teams=2, size=8, prefix="poll")
    match = expect(pair(event.staff, event.slug), 201)["team_matches"][0]["id"]
    expect(post(event.staff, f"/team-matches/{match}/draft/roll/", {"dice": [2, 5]}), 201)
    captain = event.captain(event.teams[0]["id"])
    anonymous = client_for(None)
    state = seen(event.staff, match)
    for _ in range(14):  # deep into step 2
        with django_assert_max_num_queries(7):
            seen(captain, match)
        with django_assert_max_num_queries(5):
            seen(anonymous, match)
        state = expect(draft(event.staff, match, **choice(state, state["waiting_for"][0])), 201)
    assert state["step"] == 2
