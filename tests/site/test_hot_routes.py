"""The API calls a venue's phones repeat all day are the first the URL resolver tries
(config/api_urls.py): a game's page, report and confirmation, a team match and its draft. Each
group sits under its own prefix, so a path of another group costs one failed prefix, not a
failed try of every pattern before it."""
from __future__ import annotations

import pytest
from django.urls import resolve, reverse

HOT = [("api-game", "/api/v1/games/7/"), ("api-game-report", "/api/v1/games/7/report/"),
       ("api-game-confirm", "/api/v1/games/7/confirm/"), ("api-team-match", "/api/v1/team-matches/7/"),
       ("api-team-draft", "/api/v1/team-matches/7/draft/"),
       ("api-team-draft-roll", "/api/v1/team-matches/7/draft/roll/")]


@pytest.mark.parametrize(("name", "path"), HOT)
def test_hot_paths_keep_their_addresses_and_are_tried_first(name, path):
    assert reverse(name, kwargs={"pk": 7}) == path
    match = resolve(path)
    assert match.url_name == name and match.kwargs == {"pk": 7}
    # What the resolver tried before the match: the site's few root patterns, the API's two
    # prefixed groups and the patterns of the path's own group.
    assert len(match.tried) <= 12, [str(p[-1].pattern) for p in match.tried]


def test_other_api_paths_still_resolve_past_the_hot_groups():
    match = resolve("/api/v1/tournaments/spring-cup/team-standings/")
    assert match.url_name == "api-team-standings" and match.kwargs == {"slug": "spring-cup"}
    assert resolve("/api/v1/").url_name == "api-root"
