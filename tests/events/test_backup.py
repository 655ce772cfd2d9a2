"""An event's export holds every row of the event and imports back into a database that lacks it:
delete the event, import its export, export again and get the same document; import under a new
slug and the copy goes on rolling the same dice and pairing the same games."""
from __future__ import annotations

import base64
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db.models import Q
from django.urls import reverse

from armylists.models import ArmyList
from events import event_refs
from events.audit import Actor
from events.errors import Conflict, Forbidden, Invalid
from events.models import AuditEntry, Game, Player, PlayerList, Report, Round, Tournament
from events.services import (
    declarations,
    exports,
    lists,
    restore,
    results,
    rounds,
    table_rolls,
    tournaments,
)
from events.services.results import ResultInput
from missions.models import DiceBatch, DiceRoll, DiceStream, Stratagem
from tests.tournament_fixtures import (
    ATTACKER_UNITS,
    LEGAL_UNITS,
    ROSTER_TEXT,
    build_event,
    expect,
    make_user,
    pair,
    put,
    register,
    set_status,
    submit_list,
)

pytestmark = pytest.mark.django_db

ROSTERS = Path(__file__).resolve().parent.parent / "fixtures" / "rosters"


def rosz() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("eldar.ros", (ROSTERS / "eldar.ros").read_bytes())
    return buffer.getvalue()


ROSZ_BASE64 = base64.b64encode(rosz()).decode()


def games_of(t: Tournament, number: int) -> list[Game]:
    return list(Game.objects.filter(round__tournament=t, round__number=number)
                .exclude(player_b=None).order_by("table"))


def first_legal_declaration(actor: Actor, game: Game) -> None:
    for slug in Stratagem.objects.order_by("pk").values_list("slug", flat=True):
        try:
            declarations.declare(actor, game.pk, game.player_a_id, [slug])
            return
        except Invalid:
            continue
    raise AssertionError("no stratagem could be declared")


def play(t: Tournament, number: int, modes: list[str], staff: Actor, users: dict[int, Any]) -> None:
    """Tables of round ``number`` as ``modes`` says: confirm, dispute, settle (dispute then a
    staff result), staff (a staff result) or report (left open). A walk-in's table gets a staff
    result and no mode."""
    modes = list(modes)
    for game in games_of(t, number):
        a, b = game.player_a_id, game.player_b_id
        table_rolls.roll(staff, game.pk, table_rolls.TableRollRequest(
            kind="d6", what="who picks the table side", nonce=f"{game.pk:016x}"))
        mode = modes.pop(0) if a in users and b in users and modes else "staff"
        if mode == "staff":
            results.report(staff, game.pk, ResultInput(winner=b, victory_points={a: 300, b: 900}))
            continue
        results.report(Actor(users[a]), game.pk, ResultInput(
            winner=a, victory_points={a: 800, b: 200}, comment="close one"))
        if mode == "confirm":
            results.confirm(Actor(users[b]), game.pk)
        elif mode in ("dispute", "settle"):
            results.dispute(Actor(users[b]), game.pk, "wrong winner")
        if mode == "settle":
            results.report(staff, game.pk, ResultInput(winner=None, victory_points={a: 500, b: 500}))


def full_event(prefix: str = "bk") -> tuple[Tournament, Any]:
    """Two rounds with every kind of row: lists in several versions (pasted roster, .rosz file,
    attacker list), a walk-in without an account, confirmed, disputed and settled reports, a
    declaration, table rolls, check-in, an unlocked and resubmitted list."""
    staff_user = make_user(f"{prefix}-boss", staff=True)
    staff = Actor(staff_user, ip="10.0.0.1")
    event = build_event(staff_user, 6, prefix=prefix, lock=False, on_six="special",
                        clubs=["Lyon", "Paris"])
    slug, ids = event.slug, list(event.clients)
    expect(put(event.client(ids[0]), f"/tournaments/{slug}/players/{ids[0]}/list/",
               {"roster": ROSTER_TEXT}), 200)
    expect(put(event.client(ids[1]), f"/tournaments/{slug}/players/{ids[1]}/list/",
               {"roster": ROSZ_BASE64, "roster_format": "rosz"}), 200)
    expect(submit_list(event.client(ids[2]), slug, ids[2], ATTACKER_UNITS, role="attacker"), 200)
    walk_in = register(event.staff, slug, "Walk-in Zoé", club="Lyon")
    expect(submit_list(event.staff, slug, walk_in["id"], LEGAL_UNITS), 200)
    tournaments.update_player(staff, Player.objects.get(pk=ids[4]), checked_in=True)
    set_status(event.staff, slug, "lists_locked")
    t = Tournament.objects.get(slug=slug)
    lists.unlock_list(staff, Player.objects.get(pk=ids[3]), "typo in the list")
    expect(submit_list(event.client(ids[3]), slug, ids[3], LEGAL_UNITS[:2]), 200)

    expect(pair(event.staff, slug), 201)
    first_legal_declaration(staff, games_of(t, 1)[0])
    play(t, 1, ["confirm", "settle"], staff, event.users)
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.COMPLETED
    expect(pair(event.staff, slug), 201)
    play(t, 2, ["dispute", "report"], staff, event.users)
    t.refresh_from_db()
    return t, staff_user


def purge(t: Tournament) -> None:
    """Delete the event and every row of it (the admin never does: this stands for the other
    database an export is taken to)."""
    games = Game.objects.filter(round__tournament=t)
    keys = [table_rolls.stream_key(pk) for pk in games.values_list("pk", flat=True)]
    heads = list(PlayerList.objects.filter(player__tournament=t).select_related("army_list"))
    versions = [v.pk for head in heads for v in lists.history(head.army_list)]
    dice = t.dice_id
    Report.objects.filter(game__round__tournament=t).delete()
    AuditEntry.objects.filter(tournament=t).delete()
    games.delete()
    Round.objects.filter(tournament=t).delete()
    PlayerList.objects.filter(pk__in=[h.pk for h in heads]).delete()
    ArmyList.objects.filter(pk__in=versions).delete()
    Player.objects.filter(tournament=t).delete()
    t.delete()
    DiceStream.objects.filter(Q(pk=dice) | Q(key__in=keys)).delete()


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def test_the_export_holds_every_row_of_the_event():
    t, _staff = full_event()
    doc = json.loads(json.dumps(exports.event_data(t)))  # what the file holds
    assert doc["format"] == "muster-event" and doc["version"] == 4
    assert doc["tournament"]["chart"] == "w40k4-standard" and doc["tournament"]["seed"] == t.seed
    assert len(doc["players"]) == 7
    walk_in = next(p for p in doc["players"] if p["name"] == "Walk-in Zoé")
    assert walk_in["username"] is None and "password" not in json.dumps(doc)
    versions = [v for p in doc["players"] for lst in p["lists"] for v in lst["versions"]]
    assert len(versions) == ArmyList.objects.filter(name__endswith=t.name).count() == 11
    raw = {v["source_format"]: v for v in versions}
    # What was sent is kept as sent (here the base64 text of a .rosz file).
    assert base64.b64decode(raw["rosz"]["raw_upload"]).decode() == ROSZ_BASE64
    assert base64.b64decode(raw["battlescribe_text"]["raw_upload"]).decode() == ROSTER_TEXT
    assert {lst["role"] for p in doc["players"] for lst in p["lists"]} == {None, "attacker"}
    resubmitted = [lst for p in doc["players"] for lst in p["lists"] if len(lst["versions"]) == 2]
    assert len(resubmitted) == 3  # two rosters and one resubmission after an unlock
    assert [len(lst["versions"][1]["entries"]) for lst in resubmitted][2] == 2
    assert all(lst["versions"][0]["created_at"] < lst["versions"][1]["created_at"]
               for lst in resubmitted)  # oldest first
    games = [g for r in doc["rounds"] for g in r["games"]]
    assert [len(r["games"]) for r in doc["rounds"]] == [4, 4]
    statuses = {rep["status"] for g in games for rep in g["reports"]}
    assert {"confirmed", "disputed", "reported", "superseded"} <= statuses
    assert sum(len(g["dice"]["rolls"]) for g in games if g["dice"]) == 6
    # Every roll of the event's stream, logged a row each or in a paired round's batch, once.
    t.dice.refresh_from_db()
    logged = DiceRoll.objects.filter(stream=t.dice).count() + sum(
        len(batch.rolls) for batch in DiceBatch.objects.filter(stream=t.dice))
    exported = [roll["sequence"] for roll in doc["tournament"]["dice"]["rolls"]]
    assert exported == list(range(t.dice.next_sequence)) and len(exported) == logged > 0
    assert any(g["declarations"] for g in games)
    actions = [e["action"] for e in doc["audit"]]
    assert len(actions) == AuditEntry.objects.filter(tournament=t).count()
    assert {"tournament_created", "list_submitted", "list_unlocked", "round_paired", "table_roll",
            "result_disputed", "result_confirmed", "stratagems_declared"} <= set(actions)
    # No database id anywhere: players are numbered 1..7 in the document.
    refs = {p["ref"] for p in doc["players"]}
    assert refs == set(range(1, 8))
    for g in games:
        assert set(g["players"]) <= refs and {int(k) for k in g["roles"]} <= refs
        assert {int(k) for k in g["victory_points"]} <= refs
    rolled = [e["data"] for e in doc["audit"] if e["action"] == "table_roll"]
    assert {d["game"] for d in rolled} <= {g["ref"] for g in games}


def test_delete_import_export_gives_the_same_document():
    t, staff_user = full_event()
    before = json.loads(json.dumps(exports.event_data(t)))
    slug = t.slug
    purge(t)
    assert not Tournament.objects.filter(slug=slug).exists()

    restored = restore.restore_event(Actor(staff_user), before)
    assert restored.warnings == [] and restored.tournament.slug == slug
    assert restored.counts["list_versions"] == 11 and restored.counts["rounds"] == 2
    after = json.loads(json.dumps(exports.event_data(restored.tournament)))
    assert without_time(after) == without_time(before)
    entry = AuditEntry.objects.filter(action="event_imported").get()
    assert entry.actor == staff_user and entry.target == slug and entry.tournament is None

    # The rebuilt rows work: the game page's table-roll log and a game's stream find them.
    game = games_of(restored.tournament, 2)[0]
    assert len(table_rolls.log(game)) == 1
    assert DiceStream.objects.get(key=table_rolls.stream_key(game.pk)).rolls.count() == 1


def test_a_copy_under_a_new_slug_rolls_and_pairs_as_the_original():
    t, staff_user = full_event()
    staff = Actor(staff_user)
    document = json.loads(json.dumps(exports.event_data(t)))
    with pytest.raises(Conflict) as refused:
        restore.restore_event(staff, document)
    assert refused.value.code == "slug_taken" and refused.value.status == 409
    restored = restore.restore_event(staff, document, slug="the-copy")
    copy = restored.tournament
    exported = without_time(exports.event_data(copy))
    assert exported["tournament"].pop("slug") == "the-copy"
    original = without_time(document)
    original["tournament"].pop("slug")
    # A check-in code belongs to one event: the copy's players get new ones, and are told so.
    codes = [{p.pop("checkin_code") for p in doc["players"]} for doc in (exported, original)]
    assert not codes[0] & codes[1] and len(codes[0]) == len(original["players"])
    assert restored.warnings == ["7 players get new check-in codes: this database already uses "
                                 "theirs."]
    assert exported == json.loads(json.dumps(original))

    # The same next steps give the same dice and pairings in both: streams, counters and
    # seeds came along.
    for event in (t, copy):
        for game in games_of(event, 2):
            if game.status != Game.Status.CONFIRMED:
                table_rolls.roll(staff, game.pk, table_rolls.TableRollRequest(kind="2d6"))
                results.report(staff, game.pk, ResultInput(winner=game.player_a_id))
        rounds.pair_next_round(staff, event, draft=False)
    first, second = (played(exports.event_data(e)) for e in (t, copy))
    assert first[:2] == second[:2]  # round 2's new table rolls included
    # Round 3: same missions, pairings and pre-game dice. Only its games' own streams differ:
    # table_rolls.table_seed seeds a new game's stream from its database id.
    for round_ in (first[2], second[2]):
        assert round_["games"] and all(g.pop("dice") is not None or g["table"] is None
                                       for g in round_["games"])
    assert first[2] == second[2]


TIMES = {"created_at", "published_at", "confirmed_at", "updated_at"}


def played(document: dict[str, Any]) -> list[Any]:
    """What the dice and the pairing decided, round by round (not when it happened)."""
    def timeless(row: Any) -> Any:
        if isinstance(row, dict):
            return {k: timeless(v) for k, v in row.items() if k not in TIMES}
        return [timeless(v) for v in row] if isinstance(row, list) else row
    return [timeless({**r, "games": [{**g, "reports": None} for g in r["games"]]})
            for r in document["rounds"]]


def test_unknown_accounts_are_created_inactive_and_named():
    t, staff_user = full_event()
    document = exports.event_data(t)
    document["players"][0]["username"] = "nobody-here"
    document["audit"][0]["actor"] = "ghost"
    restored = restore.restore_event(Actor(staff_user), json.loads(json.dumps(document)), slug="other")
    player = Player.objects.get(tournament=restored.tournament, name=document["players"][0]["name"])
    assert player.user.username == "nobody-here" and not player.user.is_active
    first = AuditEntry.objects.filter(tournament=restored.tournament).order_by("pk").first()
    assert first.actor.username == "ghost" and not first.actor.has_usable_password()
    assert any("nobody-here" in w and "ghost" in w for w in restored.warnings)


_FULL_EVENT: dict[str, Any] = {}


def full_event_again() -> tuple[dict[str, Any], Any]:
    """`full_event()` in this test's database, its organiser, and a copy of its export.

    Built once per module and process (two rounds of API calls are the costly part); later
    tests bring the same event back from its export, its accounts made first as `full_event`
    makes them (the organiser staff, the players plain, active, without a password)."""
    if not _FULL_EVENT:
        t, staff_user = full_event()
        _FULL_EVENT["document"] = json.loads(json.dumps(exports.event_data(t)))
        _FULL_EVENT["staff"] = staff_user.username
        return json.loads(json.dumps(_FULL_EVENT["document"])), staff_user
    document = json.loads(json.dumps(_FULL_EVENT["document"]))
    staff_user = make_user(_FULL_EVENT["staff"], staff=True)
    for account in document["accounts"]:
        if account["username"] != staff_user.username:
            make_user(account["username"])
    restored = restore.restore_event(Actor(staff_user), json.loads(json.dumps(document)))
    assert restored.tournament.slug == document["tournament"]["slug"] and not restored.warnings
    return document, staff_user


@pytest.mark.parametrize("damage, code", [
    (lambda d: d.update(version=1), "backup_version"),
    (lambda d: d.update(format="other"), "backup_unreadable"),
    (lambda d: d["tournament"].update(chart="no-such-chart"), "backup_reference_missing"),
    (lambda d: d["rounds"][0]["games"][0].update(players=[99, 98]), "backup_damaged"),
    (lambda d: d["rounds"][0]["games"][0].update(status="exploded"), "backup_damaged"),
    (lambda d: d["players"].append(dict(d["players"][0])), "backup_damaged"),
    (lambda d: d.pop("audit"), "backup_damaged"),
    (lambda d: d["players"][0].update(name=None), "backup_damaged"),
])
def test_a_damaged_export_changes_nothing(damage, code):
    document, staff_user = full_event_again()
    damage(document)
    counts = [m.objects.count() for m in (Tournament, Player, ArmyList, Game, Report, AuditEntry,
                                         DiceStream, DiceRoll)]
    with pytest.raises(Invalid) as refused:
        restore.restore_event(Actor(staff_user), document, slug="damaged")
    assert refused.value.code == code and str(refused.value)
    assert counts == [m.objects.count() for m in (Tournament, Player, ArmyList, Game, Report,
                                                  AuditEntry, DiceStream, DiceRoll)]


def test_only_staff_import():
    t, _staff = full_event()
    with pytest.raises(Forbidden):
        restore.restore_event(Actor(make_user("nobody")), exports.event_data(t), slug="x")


@pytest.mark.parametrize("data", [b"\xff\xfe", b"[1, 2]", b"{}", b"{" * 100_000])
def test_unreadable_files_are_refused(data):
    with pytest.raises(Invalid) as refused:
        restore.read_document(data)
    assert refused.value.code in ("backup_unreadable", "backup_version")


def test_a_file_over_the_cap_is_refused():
    with pytest.raises(Invalid) as refused:
        restore.read_document(b" " * 11, max_bytes=10)
    assert refused.value.code == "backup_too_large"


# Commands -------------------------------------------------------------------------------------

def test_export_and_import_commands(tmp_path):
    t, _staff = full_event()
    path = tmp_path / "event.json"
    call_command("export_event", t.slug, "-o", str(path), stderr=io.StringIO())
    written = json.loads(path.read_text(encoding="utf-8"))
    assert without_time(written) == without_time(json.loads(json.dumps(exports.event_data(t))))
    out = io.StringIO()
    call_command("export_event", t.slug, stdout=out)
    assert json.loads(out.getvalue())["tournament"]["slug"] == t.slug

    with pytest.raises(CommandError, match="slug_taken"):
        call_command("import_event", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_event", str(path), "--slug", "from-file", stdout=out)
    assert "“from-file” imported" in out.getvalue() and "11 list versions" in out.getvalue()
    copy = Tournament.objects.get(slug="from-file")
    assert Game.objects.filter(round__tournament=copy).count() == 8

    with pytest.raises(CommandError, match="No event"):
        call_command("export_event", "missing", stdout=io.StringIO())
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_event", str(tmp_path / "none.json"), stdout=io.StringIO())
    (tmp_path / "bad.json").write_text("not json")
    with pytest.raises(CommandError, match="backup_unreadable"):
        call_command("import_event", str(tmp_path / "bad.json"), stdout=io.StringIO())


# The admin page --------------------------------------------------------------------------------

def upload(document: dict[str, Any] | bytes, name: str = "event.json"):
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, data, content_type="application/json")


IMPORT_URL = "/admin/league/tournament/import-event/"


def test_admin_imports_an_export(admin_client):
    t, _staff = full_event()
    assert reverse("admin:league_tournament_import_event") == IMPORT_URL
    changelist = admin_client.get(reverse("admin:league_tournament_changelist")).content.decode()
    assert IMPORT_URL in changelist
    page = admin_client.get(IMPORT_URL)
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()

    exported = admin_client.get(reverse("admin:league_tournament_export_json", args=[t.pk]))
    document = json.loads(exported.content)
    taken = admin_client.post(IMPORT_URL, {"file": upload(document)})
    assert taken.status_code == 409 and "already exists" in taken.content.decode()
    assert Tournament.objects.count() == 1

    document["players"][0]["username"] = "left-the-club"
    done = admin_client.post(IMPORT_URL, {"file": upload(document), "slug": "moved"})
    copy = Tournament.objects.get(slug="moved")
    assert done.status_code == 302 and done["Location"] == reverse(
        "admin:league_tournament_change", args=[copy.pk])
    said = [str(m) for m in get_messages(done.wsgi_request)]
    assert any("imported" in m and "list versions 11" in m for m in said)
    assert any("left-the-club" in m for m in said)
    assert AuditEntry.objects.get(action="event_imported").actor.username == "admin"


@pytest.mark.parametrize("data, text", [(b"not json", "not JSON"),
                                        (b'{"format": "muster-event", "version": 1}', "version 1")])
def test_admin_import_refuses_a_bad_file(admin_client, data, text):
    response = admin_client.post(IMPORT_URL, {"file": upload(data)})
    assert response.status_code == 400 and text in response.content.decode()
    assert not Tournament.objects.exists()


def test_admin_import_caps_the_upload(admin_client, monkeypatch):
    monkeypatch.setattr(restore, "MAX_BYTES", 1024 * 1024)
    response = admin_client.post(IMPORT_URL, {"file": upload(b" " * (1024 * 1024 + 1))})
    assert response.status_code == 200 and "larger than 1 MiB" in response.content.decode()


def test_admin_import_is_for_staff_who_may_add_events(client):
    assert client.get(IMPORT_URL).status_code == 302  # to the log-in page
    clerk = get_user_model().objects.create_user("clerk", is_staff=True)
    client.force_login(clerk)
    assert client.get(IMPORT_URL).status_code == 403
    assert client.post(IMPORT_URL, {"file": upload(b"{}")}).status_code == 403


def test_a_games_outcome_names_the_restored_players_and_version_2_files_still_import():
    """A game's outcome (the flags and who holds them) names players: the document writes them
    as references and the import maps them to the new rows. A version 2 file wrote the old
    database's ids there: its games take the confirmed report's outcome instead."""
    t, staff_user = full_event()
    # As a flags mission and a building capture leave them (results.report through a mission).
    flagged, held = [g for g in games_of(t, 1) if g.status == Game.Status.CONFIRMED][:2]
    outcomes = ((flagged, {"flags": {str(flagged.player_a_id): 2, str(flagged.player_b_id): 1}}),
                (held, {"holder": str(held.player_b_id)}))
    for game, outcome in outcomes:
        Game.objects.filter(pk=game.pk).update(outcome=outcome)
        Report.objects.filter(game=game, status=Report.Status.CONFIRMED).update(outcome=outcome)
    document = json.loads(json.dumps(exports.event_data(t)))
    by_ref = {p["ref"] for p in document["players"]}
    with_players = [g for r in document["rounds"] for g in r["games"] if g["outcome"]]
    assert len(with_players) == 2
    for g in with_players:  # written as references, not database ids
        assert {int(k) for k in g["outcome"].get("flags", {})} <= by_ref
        assert int(g["outcome"].get("holder", 1)) in by_ref
    old = json.loads(json.dumps(document))
    old["version"] = 2
    for r in old["rounds"]:
        for g in r["games"]:
            g["outcome"] = {"holder": "999999"}  # what version 2 held: ids of another database
    for doc, slug in ((document, "the-copy"), (old, "the-old-copy")):
        copy = restore.restore_event(Actor(staff_user), doc, slug=slug).tournament
        confirmed = Game.objects.filter(round__tournament=copy, status=Game.Status.CONFIRMED)
        assert sum(1 for g in confirmed if g.outcome) == 2
        players = {str(pk) for pk in Player.objects.filter(tournament=copy).values_list("pk", flat=True)}
        for game in confirmed:
            report = game.reports.filter(status=Report.Status.CONFIRMED).first()
            assert game.outcome == (report.outcome if report is not None else {})
            for key in set(game.outcome) & event_refs.OUTCOME_SIDE:
                assert game.outcome[key] is None or game.outcome[key] in players
            for key in set(game.outcome) & event_refs.OUTCOME_BY_SIDE:
                assert set(game.outcome[key]) <= players
