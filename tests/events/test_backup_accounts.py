"""An event imported where its accounts do not exist still says who did what (issue #23 item 8):
every account the document names is found by username, whatever its case, or created inactive
without a usable password; a second import reuses them; a refused document leaves none."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model, Q, QuerySet
from django.test import Client

from armylists.models import ArmyList
from campaigns.models import Campaign, CampaignOrder
from campaigns.services import turns as campaign_turns
from events.audit import Actor
from events.errors import Invalid
from events.models import AuditEntry, Game, Player, PlayerList, Report, Tournament
from events.services import backup, exports, lists, restore, table_rolls
from missions.models import DiceBatch, DiceRoll
from tests.browser.campaigns import running_campaign
from tests.browser.events import organiser
from tests.events.test_backup import full_event, full_event_again, purge, without_time
from tests.events.test_backup_day import day_event
from tests.tournament_fixtures import make_user
from venue.award_models import ScoreEntry
from venue.checkin_models import VenueCheckIn

pytestmark = pytest.mark.django_db
User = get_user_model()
OrderInput = campaign_turns.OrderInput


def named(rows: QuerySet, *fields: str) -> dict[str, Counter]:
    """For each field, how many rows name each username (None: no account)."""
    rows = list(rows.select_related(*fields))
    model: type[Model] = rows[0]._meta.model if rows else Model
    return {f"{model.__name__}.{f}": Counter(
        getattr(getattr(row, f), "username", None) for row in rows) for f in fields}


def actors(t: Tournament) -> dict[str, Counter]:
    """Every field of the event's rows that names an account, with the usernames it names."""
    versions = [v.pk for head in PlayerList.objects.filter(player__tournament=t)
                .select_related("army_list") for v in lists.history(head.army_list)]
    keys = [table_rolls.stream_key(pk)
            for pk in Game.objects.filter(round__tournament=t).values_list("pk", flat=True)]
    rolled = Counter(r.actor.username if r.actor else None for r in DiceRoll.objects.filter(
        Q(stream_id=t.dice_id) | Q(stream__key__in=keys)).select_related("actor"))
    for batch in DiceBatch.objects.filter(stream_id=t.dice_id).select_related("actor"):
        rolled[batch.actor.username if batch.actor else None] += len(batch.rolls)
    return {
        **named(Tournament.objects.filter(pk=t.pk), "created_by"),
        **named(Player.objects.filter(tournament=t), "user", "checked_in_by"),
        **named(ArmyList.objects.filter(pk__in=versions), "owner"),
        **named(Report.objects.filter(game__round__tournament=t), "reporter", "confirmed_by"),
        **named(AuditEntry.objects.filter(tournament=t), "actor"),
        **named(ScoreEntry.objects.filter(component__tournament=t), "entered_by"),
        **named(VenueCheckIn.objects.filter(tournament=t), "opened_by"),
        **named(Campaign.objects.filter(tournament=t), "created_by"),
        **named(CampaignOrder.objects.filter(turn__campaign__tournament=t), "created_by"),
        "DiceRoll.actor": rolled,
    }


def nulls(found: dict[str, Counter]) -> int:
    return sum(counter[None] for counter in found.values())


def forget_accounts(document: dict[str, Any]) -> list[str]:
    """Delete every account the document lists (the other database never had them)."""
    names = [a["username"] for a in document["accounts"]]
    User.objects.filter(username__in=names).delete()
    assert not User.objects.filter(username__in=names).exists()
    return names


def test_the_export_lists_each_account_once_by_username_only():
    t, staff_user = full_event()
    document = json.loads(json.dumps(exports.event_data(t)))
    names = [a["username"] for a in document["accounts"]]
    assert document["version"] == backup.VERSION == 4
    assert len(names) == len(set(names)) and staff_user.username in names
    assert {p["username"] for p in document["players"] if p["username"]} <= set(names)
    assert all(set(a) == {"username"} for a in document["accounts"])
    assert "@" not in json.dumps(document["accounts"]) and "password" not in json.dumps(document)


def test_an_event_imported_without_its_accounts_says_who_did_what():
    t, _staff = full_event()
    before = json.loads(json.dumps(exports.event_data(t)))
    source = actors(t)
    for field in ("Report.reporter", "Report.confirmed_by", "ArmyList.owner", "AuditEntry.actor",
                  "Player.user", "Tournament.created_by", "DiceRoll.actor"):
        assert sum(n for name, n in source[field].items() if name) > 0, field  # honest counts
    importer = make_user("importer", staff=True)
    purge(t)
    names = forget_accounts(before)

    restored = restore.restore_event(Actor(importer), before)
    copy = restored.tournament
    assert actors(copy) == source  # the same usernames, as often, in every field
    assert nulls(actors(copy)) == nulls(source)
    made = User.objects.filter(username__in=names)
    assert sorted(u.username for u in made) == sorted(names)
    assert restored.counts["accounts_created"] == len(names)
    assert restored.warnings == [f"These accounts did not exist here and are created inactive, "
                                 f"without a password: {', '.join(sorted(names, key=str.lower))}."]
    # The created accounts cannot log in: inactive, with no usable password.
    assert not any(u.is_active or u.has_usable_password() for u in made)
    assert not Client().login(username=names[0], password="")
    after = json.loads(json.dumps(exports.event_data(copy)))
    assert without_time(after) == without_time(before)

    # Imported again, the accounts found are reused: none is made twice.
    count = User.objects.count()
    again = restore.restore_event(Actor(importer), before, slug="again")
    assert User.objects.count() == count and again.counts["accounts_created"] == 0
    assert not any("created inactive" in w for w in again.warnings)
    assert actors(again.tournament) == source


def test_an_account_is_found_whatever_the_case_of_its_username():
    t, staff_user = full_event()
    document = json.loads(json.dumps(exports.event_data(t)))
    reporter = Report.objects.filter(game__round__tournament=t).exclude(reporter=None)
    account = reporter.select_related("reporter").first().reporter
    account.username = account.username.upper()
    account.save()
    assert account.username.lower() in {a["username"] for a in document["accounts"]}
    count = User.objects.count()
    restored = restore.restore_event(Actor(staff_user), document, slug="same-people")
    assert User.objects.count() == count and restored.counts["accounts_created"] == 0
    copy = Report.objects.filter(game__round__tournament=restored.tournament)
    assert copy.filter(reporter=account).count() == reporter.filter(reporter=account).count() > 0


def test_a_day_imported_without_its_accounts_keeps_its_staff():
    staff = organiser()
    event = day_event(staff, "kim")
    before = json.loads(json.dumps(exports.event_data(event)))
    source = actors(event)
    assert sum(source["ScoreEntry.entered_by"].values()) > 0
    assert source["VenueCheckIn.opened_by"] == Counter({"organiser": 1})
    importer = make_user("importer", staff=True)
    purge(event)
    forget_accounts(before)
    copy = restore.restore_event(Actor(importer), before).tournament
    assert actors(copy) == source and nulls(actors(copy)) == nulls(source)


def test_a_campaign_imported_without_its_accounts_keeps_its_order_authors():
    staff = organiser()
    west, east = _player("marcus"), _player("grukk")
    c = running_campaign(staff, west, east)
    campaign_turns.roll_initiative(staff, c, 1, "moves", [6, 6])
    campaign_turns.declare_order(Actor(user=west), c, 1, OrderInput("move", ("Eagle Scouts",),
                                                                    "9", "8"))
    campaign_turns.declare_order(Actor(user=east), c, 1, OrderInput("fortify", to="C"))
    c = Campaign.objects.select_related("tournament").get(pk=c.pk)
    before = json.loads(json.dumps(exports.event_data(c.tournament)))
    source = actors(c.tournament)
    assert source["Campaign.created_by"] == Counter({"organiser": 1})
    assert {"marcus", "grukk"} <= set(source["CampaignOrder.created_by"])
    importer = make_user("importer", staff=True)
    Campaign.objects.filter(pk=c.pk).delete()
    purge(c.tournament)
    forget_accounts(before)
    restored = restore.restore_event(Actor(importer), before)
    assert actors(restored.tournament) == source
    assert nulls(actors(restored.tournament)) == nulls(source)
    after = json.loads(json.dumps(exports.event_data(restored.tournament)))
    assert without_time(after) == without_time(before)


def _player(username: str) -> Any:
    return User.objects.create_user(username, f"{username}@example.org", "player-pass-1234")


def test_an_older_document_names_its_accounts_in_its_rows():
    t, _staff = full_event()
    document = json.loads(json.dumps(exports.event_data(t)))
    source = actors(t)
    names = [a["username"] for a in document.pop("accounts")]
    document["version"] = 3
    purge(t)
    importer = make_user("importer", staff=True)
    forget_accounts({"accounts": [{"username": n} for n in names]})
    restored = restore.restore_event(Actor(importer), document)
    assert restored.counts["accounts_created"] == len(names)
    assert actors(restored.tournament) == source


@pytest.mark.parametrize("damage", [
    lambda d: d["players"][0].update(name=None),
    lambda d: d["rounds"][0]["games"][0]["reports"][0].update(reporter="not a username!"),
    lambda d: d["accounts"].append({"username": 12}),
])
def test_a_refused_document_creates_no_account(damage):
    document, _staff = full_event_again()
    t = Tournament.objects.get(slug=document["tournament"]["slug"])
    damage(document)
    purge(t)
    importer = make_user("importer", staff=True)
    forget_accounts({"accounts": [a for a in document["accounts"]
                                  if isinstance(a["username"], str)]})
    count = User.objects.count()
    with pytest.raises(Invalid) as refused:
        restore.restore_event(Actor(importer), document)
    assert refused.value.code == "backup_damaged"
    assert User.objects.count() == count and not Tournament.objects.exists()
