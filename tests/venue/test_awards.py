"""Awards and penalties: components defined and values entered by staff (audited, locked), votes
by players, standings with or without them on the API, the event page and the admin grid."""
from __future__ import annotations

import pytest
from django.urls import reverse

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events.audit import SYSTEM, Actor
from events.errors import Conflict, Forbidden, Invalid
from events.models import AuditEntry, Player, Tournament
from events.services import results, rounds, standings, tournaments
from tests.browser.events import open_event, organiser, register, system_event, user
from tests.tournament_fixtures import client_for, expect, get
from venue.award_models import ScoreComponent, ScoreEntry, ScoreVote
from venue.services import awards

pytestmark = pytest.mark.django_db
Kind = ScoreComponent.Kind
KEYS = {"rank", "player", "points", "wins", "draws", "losses", "byes", "dropped", "tiebreakers"}


def played_event(staff_actor: Actor, **fields) -> tuple[Tournament, list[Player]]:
    """Four players, round 1 confirmed: P0 and P2 won (by table order), the others lost."""
    event = open_event(staff_actor, name="Peinture et fair-play", **fields)
    players = [register(event, user(f"p{i}"), f"P{i}") for i in range(4)]
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    round_ = rounds.pair_next_round(staff_actor, event)
    for game in round_.games.all():
        results.report(staff_actor, game.pk, results.ResultInput(
            winner=game.player_a_id, victory_points={game.player_a_id: 10, game.player_b_id: 0}))
    event.refresh_from_db()
    return event, players


def points(event: Tournament, **kwargs) -> dict[int, int]:
    return {row.player: row.points for row, _p in standings.standings(event, **kwargs)}


# --- services -----------------------------------------------------------------------------------

def test_components_and_entries_change_the_points_and_are_audited(staff_actor):
    event, players = played_event(staff_actor)
    before = points(event)
    painting = awards.define_component(staff_actor, event, name="Painting", kind=Kind.AWARD, weight=2)
    late = awards.define_component(staff_actor, event, name="Late list", kind=Kind.PENALTY)
    awards.set_entry(staff_actor, painting, players[0], 3)
    awards.set_entry(staff_actor, late, players[1], 1, "list sent at 10:05")
    after = points(event)
    assert after[players[0].pk] == before[players[0].pk] + 6
    assert after[players[1].pk] == before[players[1].pk] - 1
    assert points(event, ranked_with_extras=False) == before
    entry = AuditEntry.objects.filter(action="score_entry_set").latest("pk")
    assert entry.actor == staff_actor.user and entry.data == {
        "component": late.pk, "name": "Late list", "player": players[1].pk, "before": None,
        "after": {"value": 1, "reason": "list sent at 10:05"}}
    assert AuditEntry.objects.filter(action="score_component_defined").count() == 2
    # Changing a value keeps both sides; clearing removes the row.
    awards.set_entry(staff_actor, painting, players[0], 4)
    assert AuditEntry.objects.filter(action="score_entry_set").latest("pk").data["before"] == {
        "value": 3, "reason": ""}
    awards.set_entry(staff_actor, painting, players[0], None)
    assert not ScoreEntry.objects.filter(component=painting).exists()
    count = AuditEntry.objects.count()
    awards.set_entry(staff_actor, late, players[1], 1, "list sent at 10:05")  # the same: no entry
    assert AuditEntry.objects.count() == count


def test_a_component_that_does_not_count_is_shown_not_added(staff_actor):
    event, players = played_event(staff_actor)
    before = points(event)
    best = awards.define_component(staff_actor, event, name="Best army", counts=False)
    awards.set_entry(staff_actor, best, players[3], 5)
    assert points(event) == before
    extras = awards.load(event)
    (score,) = extras.scores(players[3].pk)
    assert (score.value, score.points, score.counted) == (5, 5, False)


def test_refusals(staff_actor):
    event, players = played_event(staff_actor)
    late = awards.define_component(staff_actor, event, name="Late list", kind=Kind.PENALTY)
    with pytest.raises(Invalid) as refused:
        awards.set_entry(staff_actor, late, players[0], 2, "  ")
    assert refused.value.code == "penalty_reason_required"
    awards.set_entry(staff_actor, late, players[0], 0)  # no penalty: no reason needed
    with pytest.raises(Invalid):
        awards.set_entry(staff_actor, late, players[0], -1, "x")
    with pytest.raises(Forbidden):
        awards.set_entry(Actor(user=players[0].user), late, players[0], 1, "self-service")
    with pytest.raises(Forbidden):
        awards.define_component(Actor(user=players[0].user), event, name="Mine")
    with pytest.raises(Conflict) as taken:
        awards.define_component(staff_actor, event, name="Late list")
    assert taken.value.code == "component_name_taken"
    for bad in ({"name": ""}, {"name": "W", "weight": 0}, {"name": "K", "kind": "bonus"}):
        with pytest.raises(Invalid):
            awards.define_component(staff_actor, event, **bad)
    other = open_event(staff_actor, name="Autre")
    stranger = register(other, user("stranger"), "Stranger")
    with pytest.raises(Invalid):
        awards.set_entry(staff_actor, late, stranger, 1, "wrong event")


def test_changing_and_removing_a_component_is_audited(staff_actor):
    event, players = played_event(staff_actor)
    painting = awards.define_component(staff_actor, event, name="Painting")
    awards.set_entry(staff_actor, painting, players[0], 3)
    awards.change_component(staff_actor, painting, weight=3, kind=Kind.AWARD)
    changed = AuditEntry.objects.get(action="score_component_changed")
    assert (changed.data["before"]["weight"], changed.data["after"]["weight"]) == (1, 3)
    assert points(event)[players[0].pk] == points(event, ranked_with_extras=False)[players[0].pk] + 9
    awards.remove_component(staff_actor, painting)
    removed = AuditEntry.objects.get(action="score_component_removed")
    assert removed.data["entries"] == {str(players[0].pk): 3}
    assert not ScoreComponent.objects.exists() and not ScoreEntry.objects.exists()


def test_players_vote_once_per_component_never_for_themselves(staff_actor):
    event, players = played_event(staff_actor)
    fair = awards.define_component(staff_actor, event, name="Fair play", players_vote=True)
    painting = awards.define_component(staff_actor, event, name="Painting")
    me = Actor(user=players[0].user)
    with pytest.raises(Invalid) as selfish:
        awards.cast_vote(me, fair, players[0])
    assert selfish.value.code == "vote_for_self"
    with pytest.raises(Forbidden):
        awards.cast_vote(me, painting, players[1])  # staff decide this one
    with pytest.raises(Forbidden):
        awards.cast_vote(Actor(user=user("outsider")), fair, players[1])
    awards.cast_vote(me, fair, players[1])
    awards.cast_vote(me, fair, players[2])  # moved, still one vote
    awards.cast_vote(Actor(user=players[3].user), fair, players[2])
    assert ScoreVote.objects.count() == 2
    extras = awards.load(event)
    assert extras.values == {(fair.pk, players[2].pk): 2}
    assert AuditEntry.objects.filter(action="score_vote").count() == 3
    tournaments.transition(staff_actor, event, Tournament.Status.FINISHED)
    with pytest.raises(Conflict):
        awards.cast_vote(me, fair, players[1])


def test_load_is_one_query(staff_actor, django_assert_num_queries):
    event, players = played_event(staff_actor)
    a = awards.define_component(staff_actor, event, name="A", players_vote=True)
    b = awards.define_component(staff_actor, event, name="B", kind=Kind.PENALTY, weight=5)
    awards.define_component(staff_actor, event, name="C (empty)")
    awards.set_entry(staff_actor, a, players[0], 2)
    awards.set_entry(staff_actor, b, players[0], 1, "late")
    awards.cast_vote(Actor(user=players[1].user), a, players[0])
    with django_assert_num_queries(1):
        extras = awards.load(event)
    assert [c.name for c in extras.components] == ["A", "B", "C (empty)"]
    assert extras.extra() == {players[0].pk: 3 - 5}
    assert extras.extra(ranked=False) == {}


def test_extras_on_top_of_a_vp_table(staff_actor):
    event = system_event(staff_actor, "whfb", "whfb-open", "Nuln", points_limit=2000,
                         scoring={"mode": "vp_table", "preset": "oms-2011"})
    a, b = (tournaments.register_player(Actor(user=user(n)), event, name=n) for n in ("a", "b"))
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    game = rounds.pair_next_round(staff_actor, event).games.get()
    results.report(staff_actor, game.pk, results.ResultInput(victory_points={a.pk: 900, b.pk: 300}))
    before = points(event)
    assert before == {a.pk: 12, b.pk: 8}  # the band [401, 600]
    sport = awards.define_component(staff_actor, event, name="Sport", weight=5)
    awards.set_entry(staff_actor, sport, b, 1)
    assert points(event) == {a.pk: 12, b.pk: 13}
    assert [row.player for row, _p in standings.standings(event)] == [b.pk, a.pk]


# --- API ------------------------------------------------------------------------------------------

def test_api_standings_keep_their_shape_and_add_extras(staff_actor):
    event, players = played_event(staff_actor)
    painting = awards.define_component(staff_actor, event, name="Painting", weight=2)
    late = awards.define_component(staff_actor, event, name="Late list", kind=Kind.PENALTY)
    awards.set_entry(staff_actor, painting, players[1], 5)
    awards.set_entry(staff_actor, late, players[0], 1, "late")
    anon = client_for(None)
    rows = expect(get(anon, f"/tournaments/{event.slug}/standings/"), 200)
    plain = expect(get(anon, f"/tournaments/{event.slug}/standings/?extras=without"), 200)
    for row in rows + plain:
        assert set(row) == KEYS | {"extras"}
        assert set(row["extras"]) == {"points", "components"}
    by_id = {r["player"]["id"]: r for r in rows}
    plain_by_id = {r["player"]["id"]: r for r in plain}
    assert by_id[players[1].pk]["points"] == plain_by_id[players[1].pk]["points"] + 10
    assert by_id[players[0].pk]["points"] == plain_by_id[players[0].pk]["points"] - 1
    assert by_id[players[1].pk]["extras"] == {"points": 10, "components": [
        {"id": painting.pk, "name": "Painting", "kind": "award", "value": 5, "points": 10,
         "counted": True},
        {"id": late.pk, "name": "Late list", "kind": "penalty", "value": 0, "points": 0,
         "counted": True}]}
    assert plain_by_id[players[1].pk]["extras"]["points"] == 0
    assert all(not c["counted"] for c in plain_by_id[players[1].pk]["extras"]["components"])
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    expect(get(anon, f"/tournaments/{event.slug}/standings/?extras=maybe"), 400, "extras_invalid")


# --- the event page ------------------------------------------------------------------------------

def test_the_event_page_shows_the_components_and_ranks_either_way(staff_actor, client):
    event, players = played_event(staff_actor)
    painting = awards.define_component(staff_actor, event, name="Painting", weight=2)
    awards.set_entry(staff_actor, painting, players[3], 4)
    page = client.get(reverse("tournament", args=[event.slug])).content.decode()
    assert "Painting" in page and "×2" in page and "<td class=\"extra\">8</td>" in page
    assert 'href="?extras=without"' in page
    plain = client.get(reverse("tournament", args=[event.slug]) + "?extras=without&round=1")
    text = plain.content.decode()
    assert "not counted" in text and 'href="?round=1"' in text


def test_a_player_votes_on_the_event_page(staff_actor, client):
    event, players = played_event(staff_actor)
    fair = awards.define_component(staff_actor, event, name="Fair play", players_vote=True)
    client.force_login(players[0].user)
    page = client.get(reverse("tournament", args=[event.slug])).content.decode()
    assert 'id="votes-title"' in page and f'id="vote-{fair.pk}"' in page
    assert f'<option value="{players[0].pk}"' not in page  # not for myself
    response = client.post(reverse("tournament_vote", args=[event.slug]),
                           {"component": fair.pk, "player": players[2].pk}, follow=True)
    assert "Your vote is saved." in response.content.decode()
    assert ScoreVote.objects.get().voted_for_id == players[2].pk
    response = client.post(reverse("tournament_vote", args=[event.slug]),
                           {"component": fair.pk, "player": players[0].pk}, follow=True)
    assert "You cannot vote for yourself." in response.content.decode()
    response = client.post(reverse("tournament_vote", args=[event.slug]), {"component": fair.pk},
                           follow=True)
    assert response.status_code == 200 and "Choose a player." in response.content.decode()
    assert client.get(reverse("tournament_vote", args=[event.slug])).status_code == 405


# --- the admin ------------------------------------------------------------------------------------

def test_components_are_defined_in_the_admin_through_the_service(admin_client):
    event, _players = played_event(Actor(user=organiser("desk").user))
    response = admin_client.post(reverse("admin:venue_scorecomponent_add"), {
        "tournament": event.pk, "name": "Painting", "kind": "award", "weight": 2,
        "counts": "on"})
    assert response.status_code == 302
    component = ScoreComponent.objects.get()
    assert (component.weight, component.counts, component.players_vote) == (2, True, False)
    entry = AuditEntry.objects.get(action="score_component_defined")
    assert entry.actor.username == "admin"
    response = admin_client.post(reverse("admin:venue_scorecomponent_change", args=[component.pk]),
                                 {"name": "Painting", "kind": "award", "weight": 3})
    assert response.status_code == 302
    component.refresh_from_db()
    assert (component.weight, component.counts) == (3, False)
    assert AuditEntry.objects.filter(action="score_component_changed").count() == 1
    response = admin_client.post(
        reverse("admin:venue_scorecomponent_delete", args=[component.pk]), {"post": "yes"})
    assert response.status_code == 302 and not ScoreComponent.objects.exists()
    assert AuditEntry.objects.filter(action="score_component_removed").count() == 1


def test_the_grid_saves_every_cell_or_none(admin_client):
    event, players = played_event(SYSTEM)
    painting = awards.define_component(SYSTEM, event, name="Painting", weight=2)
    late = awards.define_component(SYSTEM, event, name="Late list", kind=Kind.PENALTY)
    grid = reverse("admin:venue_scorecomponent_grid", args=[event.pk])
    page = admin_client.get(grid)
    assert page.status_code == 200
    body = page.content.decode()
    assert f'name="v-{players[0].pk}-{painting.pk}"' in body and "Late list" in body
    refused = admin_client.post(grid, {f"v-{players[0].pk}-{painting.pk}": "3",
                                       f"v-{players[1].pk}-{late.pk}": "1"})
    assert refused.status_code == 200 and "A penalty needs a reason." in refused.content.decode()
    assert not ScoreEntry.objects.exists()  # the valid cell was not saved either
    done = admin_client.post(grid, {f"v-{players[0].pk}-{painting.pk}": "3",
                                    f"v-{players[1].pk}-{late.pk}": "1",
                                    f"r-{players[1].pk}-{late.pk}": "late list"})
    assert done.status_code == 302
    assert dict(ScoreEntry.objects.values_list("player_id", "value")) == {
        players[0].pk: 3, players[1].pk: 1}
    entries = AuditEntry.objects.filter(action="score_entry_set")
    assert entries.count() == 2 and {e.actor.username for e in entries} == {"admin"}
    # Sent again unchanged: nothing written; a cleared cell removes its entry.
    admin_client.post(grid, {f"v-{players[0].pk}-{painting.pk}": "3",
                             f"v-{players[1].pk}-{late.pk}": "1",
                             f"r-{players[1].pk}-{late.pk}": "late list"})
    assert AuditEntry.objects.filter(action="score_entry_set").count() == 2
    admin_client.post(grid, {f"v-{players[1].pk}-{late.pk}": "1",
                             f"r-{players[1].pk}-{late.pk}": "late list"})
    assert list(ScoreEntry.objects.values_list("player_id", flat=True)) == [players[1].pk]


def test_the_grid_and_cockpit_links(admin_client):
    event, _players = played_event(SYSTEM)
    page = admin_client.get(reverse("admin:league_tournament_change", args=[event.pk]))
    body = page.content.decode()
    assert reverse("admin:venue_scorecomponent_grid", args=[event.pk]) in body
    assert reverse("admin:league_tournament_invite", args=[event.pk]) in body
    assert reverse("admin:league_tournament_finish", args=[event.pk]) in body
