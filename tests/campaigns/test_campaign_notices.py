"""E-mail notices of an Epic 40,000 campaign: a detachment to place, the turn and each phase
open, the battles generated, the opponent's report (or an organiser's settlement), the choices
after a battle, the turn closed.

Sent through the event notices' machinery (notices/services.py: claimed once per
recipient and object, queued after the commit, eager here), in each player's language (the
campaign's event is English, east reads French), never to a player who turned them off, and
never naming an enemy detachment the reader has not seen (R12). The campaign is the seed's
example map of tests/campaigns/test_campaign_api.py, built through the services
(tests/browser/campaigns.py)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Profile
from campaigns.models import Campaign, CampaignBattle, CampaignDetachment
from campaigns.services import battles as campaign_battles
from campaigns.services import declarations as campaign_declarations
from campaigns.services import placement as campaign_placement
from campaigns.services import turns as campaign_turns
from events.audit import Actor
from events.errors import Conflict
from events.models import Report, Tournament
from events.services import results
from notices import services as notices
from notices import tasks
from notices.models import Notice
from tests.browser.campaigns import (
    EAST_NAMES,
    PLACEMENTS,
    WEST_NAMES,
    big_armies,
    campaign_in_setup,
    running_campaign,
)
from tests.browser.events import user

pytestmark = pytest.mark.django_db
Kind = Notice.Kind
OrderInput = campaign_turns.OrderInput
WEST, EAST = "marcus@example.org", "grukk@example.org"
# R12: what each side never sees in the example game (never in a battle against the reader).
HIDDEN_FROM_WEST = {"Mob Gork", "Mob Mork", "Kult of Speed"}
HIDDEN_FROM_EAST = WEST_NAMES - {"Crusader Armour"}


@pytest.fixture
def people_with_languages() -> dict[str, Any]:
    """The two players of `people` without the stranger; east asks for French."""
    west, east = user("marcus"), user("grukk")
    Profile.objects.create(user=east, language="fr")  # west has no preference: the event's
    return {"west": west, "east": east}


def english(campaign: Campaign) -> Campaign:
    Tournament.objects.filter(pk=campaign.tournament_id).update(language="en")
    return Campaign.objects.select_related("tournament").get(pk=campaign.pk)


@pytest.fixture
def game(staff_actor, people_with_languages) -> Campaign:
    return english(running_campaign(staff_actor, people_with_languages["west"], people_with_languages["east"]))


@pytest.fixture
def run(django_capture_on_commit_callbacks) -> Callable[..., Any]:
    """Call a service and run what it queued on commit (the notice tasks, eager here)."""
    def call(service: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(*args, **kwargs)
    return call


def actor_of(account: Any) -> Actor:
    return Actor(user=account)


def by_address(outbox: Iterable[mail.EmailMessage]) -> dict[str, mail.EmailMessage]:
    found: dict[str, mail.EmailMessage] = {}
    for message in outbox:
        (address,) = message.to
        assert address not in found, f"two e-mails to {address}"
        found[address] = message
    return found


def page_link(campaign: Campaign, anchor: str = "") -> str:
    return f"{settings.SITE_URL}{reverse('campaign', args=[campaign.slug])}{anchor}"


def text_of(message: mail.EmailMessage) -> str:
    return f"{message.subject}\n{message.body}"


def leaked(text: str, hidden: Iterable[str]) -> list[str]:
    return sorted(name for name in hidden if name in text)


def play_to_battle(run, game: Campaign, people_with_languages: dict[str, Any], staff_actor) -> CampaignBattle:
    """West moves the Scouts 9 → 8, then attacks A from 7; east reacts from D; the battle."""
    west, east = actor_of(people_with_languages["west"]), actor_of(people_with_languages["east"])
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "moves", [6, 6])
    campaign_turns.declare_order(west, game, 1, OrderInput("move", ("Eagle Scouts",), "9", "8"))
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "attacks", [5, 1])
    attack = campaign_turns.declare_order(west, game, 1,
                                          OrderInput("attack", ("Crusader Armour",), "7", "A"))
    run(campaign_declarations.reveal_attacks, staff_actor, game, 1)  # reactions answer revealed attacks
    campaign_turns.declare_order(east, game, 1, OrderInput("reaction", ("Warboss Grukk",), "D", "A",
                                                           for_attack=attack.number))
    (battle,) = run(campaign_battles.generate_battles, staff_actor, game, 1)
    return battle


def report(run, people_with_languages: dict[str, Any], side: str, battle: CampaignBattle, winner: str,
           **facts: list[str]) -> None:
    game = battle.game
    winner_id = game.player_a_id if winner == "attacker" else game.player_b_id
    run(results.report, actor_of(people_with_languages[side]), game.pk,
        results.ResultInput(winner=winner_id, campaign=facts))


# Placement and the turn open ------------------------------------------------------------------

def test_each_placement_tells_the_player_who_places_next(staff_actor, people_with_languages, run, mailoutbox):
    campaign = english(campaign_in_setup(staff_actor, people_with_languages["west"], people_with_languages["east"]))
    for index, (side, name, code) in enumerate(PLACEMENTS):
        before = len(mailoutbox)
        run(campaign_placement.place, staff_actor, campaign, detachment=name, territory=code,
            side=side)
        if index == len(PLACEMENTS) - 1:
            assert len(mailoutbox) == before  # everything placed: nobody is due
            continue
        (message,) = mailoutbox[before:]
        assert message.to == [WEST if side == "east" else EAST]  # R11: the sides alternate
        assert page_link(campaign) in message.body
    first = next(m for m in mailoutbox if m.to == [WEST])
    assert first.subject == "[Laïtus Prime] Your turn to place a detachment"
    assert "Still to place: Aquila Guard, Bastion Guard, Captain Varro, Crusader Armour, " \
           "Eagle Scouts." in first.body  # R13: the airborne Thunder Drop is not placed
    for message in mailoutbox:
        hidden = EAST_NAMES if message.to == [WEST] else WEST_NAMES
        assert leaked(text_of(message), hidden) == []
    # An older placement's notice delivered late: the player due now had their own.
    assert notices.send(Kind.CAMPAIGN_PLACEMENT, campaign.pk, "1").as_dict()["sent"] == 0

    mailoutbox.clear()
    run(campaign_placement.start, staff_actor, campaign)
    sent = by_address(mailoutbox)
    assert set(sent) == {WEST, EAST}
    assert sent[WEST].subject == "[Laïtus Prime] Turn 1 is open"
    assert "Moves (fortifications use one): 7 of 7 (extra action: Captain Varro)" in sent[WEST].body
    assert "Mouvements (une fortification en utilise un)" in sent[EAST].body  # in French
    assert "Warboss Grukk" in sent[EAST].body and "Captain Varro" not in sent[EAST].body
    assert page_link(campaign, "#orders") in sent[WEST].body


def test_a_phase_open_tells_both_players_once(game, people_with_languages, staff_actor, run, mailoutbox):
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "moves", [6, 6])
    sent = by_address(mailoutbox)
    assert set(sent) == {WEST, EAST}
    west, east = sent[WEST], sent[EAST]
    assert west.subject == "[Laïtus Prime] Turn 1: the moves phase is open"
    assert "You won the initiative: you choose who acts first." in west.body
    assert "Initiative: West 6 + 5 = 11; East 6 + 3 = 9" in west.body
    assert "Moves (fortifications use one): 7 of 7 (extra action: Captain Varro)" in west.body
    assert "Attacks: 7 of 7" in west.body and "Reactions: 7 of 7" in west.body
    assert page_link(game, "#orders") in west.body
    assert f"{settings.SITE_URL}{reverse('profile')}" in west.body  # how to opt out
    # East reads French: the phase, the sides and the footer in the words the page uses.
    assert "mouvements" in east.subject
    assert "Ouest (Space Marines)" in east.body and "Vous recevez cet e-mail" in east.body
    languages = dict(Notice.objects.filter(kind=Kind.CAMPAIGN_PHASE)
                     .values_list("recipient__username", "language"))
    assert languages == {"marcus": "en", "grukk": "fr"}

    # The same phase again is refused and sends nothing; the task delivered twice neither.
    with pytest.raises(Conflict):
        run(campaign_turns.roll_initiative, staff_actor, game, 1, "moves", [6, 6])
    again = tasks.send_notices.apply(args=[Kind.CAMPAIGN_PHASE, game.pk, "1:moves"]).get()
    assert again == {"sent": 0, "skipped": 2, "failed": 0}
    assert len(mailoutbox) == 2

    # Spending allowances shows in the next phase's notice.
    campaign_turns.declare_order(actor_of(people_with_languages["west"]), game, 1,
                                 OrderInput("move", ("Eagle Scouts",), "9", "8"))
    mailoutbox.clear()
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "attacks", [1, 6])
    sent = by_address(mailoutbox)
    assert "the attacks and reactions phase is open" in sent[WEST].subject
    assert "East (Orks) won the initiative and chooses who acts first." in sent[WEST].body
    assert "Moves (fortifications use one): 6 of 7" in sent[WEST].body
    # A phase the organisers moved past before its notice went out is not announced late.
    Notice.objects.filter(kind=Kind.CAMPAIGN_PHASE).delete()
    assert notices.send(Kind.CAMPAIGN_PHASE, game.pk, "1:moves").as_dict()["sent"] == 0


def test_players_who_turned_notices_off_or_have_no_address_get_none(game, people_with_languages, staff_actor, run,
                                                                   mailoutbox):
    Profile.objects.filter(user=people_with_languages["east"]).update(notices=False)
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "moves", [6, 6])
    assert [m.to for m in mailoutbox] == [[WEST]]
    assert not Notice.objects.filter(recipient=people_with_languages["east"]).exists()
    get_user_model().objects.filter(pk=people_with_languages["west"].pk).update(email="")
    run(campaign_turns.roll_initiative, staff_actor, game, 1, "attacks", [6, 6])
    assert len(mailoutbox) == 1


# Battles, reports, choices, the close -----------------------------------------------------------

def test_battles_report_choices_and_close(game, people_with_languages, staff_actor, run, mailoutbox):
    battle = play_to_battle(run, game, people_with_languages, staff_actor)
    sent = by_address(mailoutbox[-2:])
    west, east = sent[WEST], sent[EAST]
    assert west.subject == "[Laïtus Prime] Turn 1: your battles"
    assert "Territory A (East line 1) · you attack" in west.body
    assert ("Attacker: West (Space Marines): Crusader Armour (1200 points)" in west.body)
    assert "Big Gunz" in west.body and "Warboss Grukk" in west.body  # revealed by the battle
    assert "attacker wins 2, defender wins 1" in west.body  # R37
    assert page_link(game, f"#battle-{battle.pk}") in west.body
    assert "Crusader Armour" in east.body and leaked(east.body, HIDDEN_FROM_EAST) == []

    # West reports: east is asked to confirm, on the campaign page's battle.
    mailoutbox.clear()
    report(run, people_with_languages, "west", battle, "attacker", swept=["Big Gunz"])
    (message,) = mailoutbox
    assert message.to == [EAST]
    assert message.subject == "[Laïtus Prime] Tour 1\u00a0: Marcus a déclaré la bataille pour A"  # east reads French
    assert "Ouest (Space Marines)" in message.body and "Big Gunz" in message.body
    link = page_link(game, f"#battle-{battle.pk}")
    assert link in message.body and "/games/" not in message.body
    east_page = Client()
    east_page.force_login(people_with_languages["east"])
    html = east_page.get(link.removeprefix(settings.SITE_URL).split("#")[0]).content.decode()
    assert f'id="battle-{battle.pk}"' in html

    # East confirms: west chooses who stays, east where the Warboss retreats (B or D).
    mailoutbox.clear()
    run(results.confirm, actor_of(people_with_languages["east"]), battle.game_id)
    sent = by_address(mailoutbox)
    assert set(sent) == {WEST, EAST}
    assert "choose who stays in A" in sent[WEST].subject
    assert "stay in the territory" in sent[WEST].body and "Crusader Armour" in sent[WEST].body
    assert "- Warboss Grukk: B / D" in sent[EAST].body
    assert "- Big Gunz: B / D\n" in sent[EAST].body
    run(results.confirm, actor_of(people_with_languages["east"]), battle.game_id)  # harmless, and silent
    confirmed = Report.objects.get(game=battle.game_id, status=Report.Status.CONFIRMED)
    again = tasks.send_notices.apply(args=[Kind.CAMPAIGN_CHOICE, confirmed.pk]).get()
    assert again == {"sent": 0, "skipped": 2, "failed": 0}
    assert len(mailoutbox) == 2

    run(campaign_battles.make_choices, actor_of(people_with_languages["west"]), game, battle.pk,
        stay=["Crusader Armour"])
    run(campaign_battles.make_choices, actor_of(people_with_languages["east"]), game, battle.pk,
        retreat_to={"Big Gunz": "B", "Warboss Grukk": "D"})
    assert len(mailoutbox) == 2  # choices made are nobody's to-do

    mailoutbox.clear()
    run(campaign_turns.close_turn, staff_actor, game, 1, {"west": 3, "east": 3})
    sent = by_address(mailoutbox)
    west = sent[WEST]
    assert west.subject == "[Laïtus Prime] Turn 1 is closed"
    assert "- A: East → West" in west.body
    assert "- West: +2 battle won (A)" in west.body
    assert "- East: -1 detachment swept away (Big Gunz)" in west.body
    assert "Score: West 2, East -3 (victory at 24)" in west.body
    assert "Turn 2 is open." in west.body
    assert page_link(game, "#turn-report-1") in west.body
    assert "Warboss Grukk: retreats → D" in west.body  # revealed: west knows where it went
    with pytest.raises(Conflict):
        run(campaign_turns.close_turn, staff_actor, game, 1, {"west": 3, "east": 3})
    again = tasks.send_notices.apply(args=[Kind.CAMPAIGN_TURN_CLOSED, game.pk, "1"]).get()
    assert again == {"sent": 0, "skipped": 2, "failed": 0}
    assert len(mailoutbox) == 2


def test_a_disputed_battle_and_its_settlement(game, people_with_languages, staff_actor, run, mailoutbox):
    battle = play_to_battle(run, game, people_with_languages, staff_actor)
    report(run, people_with_languages, "west", battle, "attacker")
    mailoutbox.clear()
    report(run, people_with_languages, "east", battle, "defender")
    (message,) = mailoutbox
    assert message.to == [WEST]
    assert message.subject == "[Laïtus Prime] Turn 1: Grukk reported a different result for A"
    assert "Result: you won" not in message.body and "Result: East (Orks) won" in message.body

    mailoutbox.clear()
    run(results.report, staff_actor, battle.game_id, results.ResultInput(winner=None))  # a draw (G12)
    settled = [m for m in mailoutbox if "settled" in m.subject or "tranché" in m.subject]
    assert sorted(m.to[0] for m in settled) == [EAST, WEST]
    (to_west,) = [m for m in settled if m.to == [WEST]]
    assert "Result: a draw (the defender keeps the territory)" in to_west.body
    assert all(page_link(game, f"#battle-{battle.pk}") in m.body for m in settled)
    # G12: after a draw the defender's reactors may stay; nobody retreats.
    (choice,) = [m for m in mailoutbox if m not in settled]
    assert choice.to == [EAST] and "Warboss Grukk" in choice.body


# R12 over every campaign mail ------------------------------------------------------------------

def test_no_campaign_mail_names_a_hidden_enemy_detachment(staff_actor, people_with_languages, run, mailoutbox):
    campaign = english(campaign_in_setup(staff_actor, people_with_languages["west"], people_with_languages["east"]))
    for side, name, code in PLACEMENTS:
        run(campaign_placement.place, staff_actor, campaign, detachment=name, territory=code,
            side=side)
    run(campaign_placement.start, staff_actor, campaign)
    battle = play_to_battle(run, campaign, people_with_languages, staff_actor)
    report(run, people_with_languages, "west", battle, "attacker", swept=["Big Gunz"])
    run(results.confirm, actor_of(people_with_languages["east"]), battle.game_id)
    run(campaign_battles.make_choices, actor_of(people_with_languages["east"]), campaign, battle.pk,
        retreat_to={"Big Gunz": "B", "Warboss Grukk": "D"})
    run(campaign_turns.close_turn, staff_actor, campaign, 1, {"west": 3, "east": 3})
    # Turn 2, G13: the Scouts left 9 empty; east takes it without a battle, unseen.
    run(campaign_turns.roll_initiative, staff_actor, campaign, 2, "attacks", [1, 6])
    campaign_turns.declare_order(actor_of(people_with_languages["east"]), campaign, 2,
                                 OrderInput("attack", ("Kult of Speed",), "C", "9"))
    (capture,) = run(campaign_battles.generate_battles, staff_actor, campaign, 2)
    # The Kult stays in 9: a move at the close that west must not read by name.
    run(campaign_battles.make_choices, actor_of(people_with_languages["east"]), campaign, capture.pk,
        stay=["Kult of Speed"])
    run(campaign_turns.close_turn, staff_actor, campaign, 2, {"west": 3, "east": 3})
    assert CampaignDetachment.objects.get(name="Kult of Speed").location == "9"

    kinds = set(Notice.objects.values_list("kind", flat=True))
    assert kinds >= {Kind.CAMPAIGN_PLACEMENT, Kind.CAMPAIGN_PHASE, Kind.CAMPAIGN_BATTLES,
                     Kind.RESULT_REPORTED, Kind.CAMPAIGN_CHOICE, Kind.CAMPAIGN_TURN_CLOSED}
    to_west = "\n".join(text_of(m) for m in mailoutbox if m.to == [WEST])
    to_east = "\n".join(text_of(m) for m in mailoutbox if m.to == [EAST])
    assert leaked(to_west, HIDDEN_FROM_WEST) == []
    assert leaked(to_east, HIDDEN_FROM_EAST) == []
    # The mails do name what each side may see: the scan is not of empty letters.
    assert leaked(to_west, EAST_NAMES) == ["Big Gunz", "Warboss Grukk"]
    assert leaked(to_east, WEST_NAMES) == ["Crusader Armour"]
    assert "Nobody defended it: East (Orks) takes it without a battle." in to_west


# Queries do not grow with the armies ----------------------------------------------------------------

def sends_of(staff_actor, count: int, prefix: str) -> dict[str, int]:
    """The queries of each campaign notice's send, for armies of ``count`` detachments a side."""
    west_user, east_user = user(f"{prefix}w"), user(f"{prefix}e")
    west, east, placements = big_armies(count)
    setup = english(campaign_in_setup(staff_actor, west_user, east_user, name=f"Size {count}",
                                      west=west, east=east))
    for side, name, code in placements[:-2]:
        campaign_placement.place(staff_actor, setup, detachment=name, territory=code, side=side)
    measured: dict[str, int] = {}

    def measure(label: str, kind: str, object_id: int, stamp: str = "") -> None:
        with CaptureQueriesContext(connection) as queries:
            outcome = notices.send(kind, object_id, stamp)
        assert outcome.sent >= 1, (label, outcome)
        measured[label] = len(queries)

    latest = max(CampaignDetachment.objects.filter(side__campaign=setup)
                 .exclude(placed_order=None).values_list("placed_order", flat=True))
    measure("placement", Kind.CAMPAIGN_PLACEMENT, setup.pk, str(latest))

    campaign = english(running_campaign(staff_actor, user(f"{prefix}w2"), user(f"{prefix}e2"),
                                        name=f"Run {count}", west=west, east=east,
                                        placements=placements))
    campaign_turns.roll_initiative(staff_actor, campaign, 1, "attacks", [6, 1])
    measure("phase", Kind.CAMPAIGN_PHASE, campaign.pk, "1:attacks")
    at_seven = tuple(CampaignDetachment.objects.filter(
        side__campaign=campaign, side__side="west", location="7").values_list("name", flat=True))
    campaign_turns.declare_order(Actor(user=campaign.sides.get(side="west").player.user),
                                 campaign, 1, OrderInput("attack", at_seven, "7", "A"))
    (battle,) = campaign_battles.generate_battles(staff_actor, campaign, 1)
    measure("battles", Kind.CAMPAIGN_BATTLES, campaign.pk, "1")
    game = battle.game
    results.report(Actor(user=game.player_a.user), game.pk,
                   results.ResultInput(winner=game.player_a_id,
                                       campaign={"swept": list(battle.defender_deployed)}))
    measure("reported", Kind.RESULT_REPORTED, Report.objects.get(game=game).pk)
    results.confirm(Actor(user=game.player_b.user), game.pk)
    confirmed = Report.objects.get(game=game, status=Report.Status.CONFIRMED)
    measure("choice", Kind.CAMPAIGN_CHOICE, confirmed.pk)
    battle = campaign_battles.get_battle(campaign, battle.pk)  # its game is confirmed now
    options = campaign_battles.retreat_choices(campaign, battle.turn, battle)
    retreats = {name: codes[0] for name, codes in options.items() if codes}
    if retreats:
        campaign_battles.make_choices(staff_actor, campaign, battle.pk, retreat_to=retreats)
    campaign_turns.close_turn(staff_actor, campaign, 1, {"west": 3, "east": 3})
    measure("closed", Kind.CAMPAIGN_TURN_CLOSED, campaign.pk, "1")
    return measured


def test_the_queries_of_a_send_do_not_grow_with_the_armies(staff_actor):
    small = sends_of(staff_actor, 5, "small")
    large = sends_of(staff_actor, 20, "large")
    assert small == large, (small, large)
    assert max(small.values()) <= 30, small
