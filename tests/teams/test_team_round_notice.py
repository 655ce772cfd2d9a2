"""A team round is created published (issue #26): each player gets one letter, in their language,
saying whom their team plays (match, tables) or that it has a bye, and then who drafts the games
and where to follow the draft (WTC), or their own game (no draft). Opt-outs are respected, the
event's sections are warmed up, and writing the letters costs the same queries for more teams."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from config import celery
from events import event_cache
from events.models import Game, Player, Round, Tournament
from notices.letters import stamp_of
from notices.models import Notice
from teams import notice_letters
from teams.models import Team
from tests.notices.test_notices import by_address
from tests.teams.team_event import build
from tests.tournament_fixtures import expect, pair, set_status

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"


def with_addresses(event) -> None:
    """Every player an address, the lists locked (that letter is not what these tests read)."""
    for account in event.users.values():
        account.email = f"{account.username}@example.org"
        account.save(update_fields=["email"])
    set_status(event.staff, event.slug, "lists_locked")


def address(event, player: int) -> str:
    return event.users[player].email


def paired(event, capture) -> dict:
    """Pair the next round; its commit sends the letters (the task runs eagerly)."""
    with capture(execute=True):
        return expect(pair(event.staff, event.slug), 201)


def members(event, team_id: int) -> list[int]:
    return [m["id"] for m in next(t for t in event.teams if t["id"] == team_id)["members"]]


def draft_link(match: int) -> str:
    return f"{settings.SITE_URL}{reverse('team_draft', args=[match])}"


def test_a_wtc_round_tells_each_player_their_match_and_the_draft(staff_user, mailoutbox,
                                                               django_capture_on_commit_callbacks):
    event = build(staff_user, teams=2, size=3, prefix="nw", draft="wtc")
    with_addresses(event)
    Tournament.objects.filter(slug=event.slug).update(name="Automne", language="en")
    first, second = event.teams
    Team.objects.filter(pk=second["id"]).update(name="Orques")
    french = [first["captain"], members(event, second["id"])[1]]
    for player in french:
        Profile.objects.create(user=event.users[player], language="fr")
    body = paired(event, django_capture_on_commit_callbacks)
    (match,) = body["team_matches"]
    sent = by_address(mailoutbox)
    assert set(sent) == {address(event, p) for t in event.teams for p in members(event, t["id"])}
    names = {first["id"]: "Team 0", second["id"]: "Orques"}
    for team in event.teams:
        (other,) = set(names) - {team["id"]}
        for player in members(event, team["id"]):
            message = sent[address(event, player)]
            assert draft_link(match["id"]) in message.body
            assert message.body == message.body.strip() and "\n" not in message.subject
            if player in french:
                assert message.subject.startswith(f"[Automne] Ronde 1{NBSP}: {names[team['id']]} contre")
                assert "Ronde 1 d'Automne est appariée." in message.body
                assert (f"Votre équipe {names[team['id']]} joue contre {names[other]}{NBSP}: match 1, "
                        f"tables 1–3.") in message.body
                assert f"Suivez le draft{NBSP}: {draft_link(match['id'])}" in message.body
            else:
                assert message.subject == f"[Automne] Round 1: {names[team['id']]} against {names[other]}"
                assert "Round 1 of Automne is paired." in message.body
                assert (f"Your team {names[team['id']]} plays {names[other]}: match 1, tables 1–3."
                        in message.body)
                assert f"Follow the draft: {draft_link(match['id'])}" in message.body
    # The captain drafts (in French, "de" elided before the other team's name); the others follow.
    assert "capitaine d'Orques" in sent[address(event, first["captain"])].body
    captain = Player.objects.get(pk=second["captain"]).name
    assert f"Your captain {captain} drafts the games" in sent[
        address(event, members(event, second["id"])[2])].body
    assert "you draft the games" not in sent[address(event, members(event, second["id"])[2])].body
    assert Notice.objects.filter(kind=Notice.Kind.TEAM_ROUND_PAIRED, status=Notice.Status.SENT).count() == 6
    assert dict(Notice.objects.filter(recipient=event.users[french[1]]).values_list("kind", "language")) == {
        Notice.Kind.TEAM_ROUND_PAIRED: "fr"}


def test_without_a_draft_each_player_reads_their_own_game(staff_user, mailoutbox,
                                                        django_capture_on_commit_callbacks):
    event = build(staff_user, teams=2, size=3, prefix="nn", draft="none")
    with_addresses(event)
    Tournament.objects.filter(slug=event.slug).update(language="en")
    paired(event, django_capture_on_commit_callbacks)
    sent = by_address(mailoutbox)
    games = list(Game.objects.filter(round__tournament__slug=event.slug)
                 .select_related("player_a__user", "player_b__user", "mission"))
    assert len(sent) == 6 and len(games) == 3
    for game in games:
        for me, them in ((game.player_a, game.player_b), (game.player_b, game.player_a)):
            message = sent[me.user.email]
            assert f"Round 1, table {game.table}, against {them.name}." in message.body
            assert f"{settings.SITE_URL}{reverse('game', args=[game.pk])}" in message.body
            assert f"Mission: {game.mission.name}" in message.body
            assert "match 1, tables 1–3." in message.body
            assert "draft" not in message.body.lower()


def test_a_bye_teams_players_get_the_bye_letter(staff_user, mailoutbox,
                                                django_capture_on_commit_callbacks):
    event = build(staff_user, teams=3, size=3, prefix="nb", draft="wtc",
                  bye={"match_points": 2, "game_points_per_game": 10})
    with_addresses(event)
    Tournament.objects.filter(slug=event.slug).update(language="en")
    body = paired(event, django_capture_on_commit_callbacks)
    (bye,) = [m for m in body["team_matches"] if len(m["teams"]) == 1]
    sent = by_address(mailoutbox)
    assert len(sent) == 9
    name = Team.objects.get(pk=bye["teams"][0]).name
    for player in members(event, bye["teams"][0]):
        message = sent[address(event, player)]
        assert message.subject.endswith(f"Round 1: {name} has a bye")
        assert f"Your team {name} has a bye this round." in message.body
        assert "The bye gives it 2 match points and 30 game points." in message.body
        assert "draft" not in message.body.lower() and "tables" not in message.body


def test_players_who_opted_out_or_have_no_address_get_none(staff_user, mailoutbox,
                                                           django_capture_on_commit_callbacks):
    event = build(staff_user, teams=2, size=3, prefix="no", draft="wtc")
    with_addresses(event)
    out, silent = members(event, event.teams[0]["id"])[1], members(event, event.teams[1]["id"])[2]
    Profile.objects.create(user=event.users[out], notices=False)
    event.users[silent].email = ""
    event.users[silent].save(update_fields=["email"])
    paired(event, django_capture_on_commit_callbacks)
    sent = by_address(mailoutbox)
    assert len(sent) == 4
    assert address(event, out) not in sent
    assert not Notice.objects.filter(recipient__in=[event.users[out], event.users[silent]]).exists()


def test_pairing_warms_the_event_up(staff_user, monkeypatch, django_capture_on_commit_callbacks):
    queued: list[str] = []
    monkeypatch.setattr(celery, "queue", lambda name, *a, **k: queued.append(name))
    event = build(staff_user, teams=2, size=3, prefix="nwu", draft="none")
    paired(event, django_capture_on_commit_callbacks)
    assert queued.count(event_cache.WARM_UP_TASK) == 1


def letters_cost(slug: str) -> tuple[int, int]:
    """How many letters the round's notice writes, and the queries building and writing them take."""
    round_ = Round.objects.get(tournament__slug=slug, number=1)
    with CaptureQueriesContext(connection) as captured:
        letters = notice_letters.round_paired_letters(round_.pk, stamp_of(round_.published_at))
        for letter in letters:
            letter.compose()
    return len(letters), len(captured.captured_queries)


@pytest.mark.parametrize("draft", ["none", "wtc"])
def test_the_letters_cost_the_same_queries_for_twice_the_teams(staff_user, draft):
    costs = {}
    for teams in (2, 4):
        event = build(staff_user, teams=teams, size=3, prefix=f"nq{draft}{teams}", draft=draft)
        expect(pair(event.staff, event.slug), 201)
        costs[teams] = letters_cost(event.slug)
    assert costs[2][0] == 6 and costs[4][0] == 12
    assert costs[2][1] == costs[4][1], costs


def test_the_notice_has_a_readable_kind():
    notice = Notice(kind=notice_letters.ROUND_PAIRED)
    with translation.override("fr"):
        assert notice.get_kind_display() == "ronde par équipes appariée"
    with translation.override("en"):
        assert notice.get_kind_display() == "team round paired"
