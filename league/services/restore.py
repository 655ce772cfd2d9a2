"""Read an event document written by ``league.services.backup`` into this database, all or nothing.

Reference data is found by slug and accounts by username; no account is ever created: a player
whose account is unknown here comes in without one, and the result says so. Every foreign key is
rebuilt from the document's own references, and ids inside JSON fields are rewritten to the new
rows' ids (``league.event_refs``). The event keeps its seed, its dice streams and their counters,
so dice rolled after the import continue the same sequences."""
from __future__ import annotations

import binascii
import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, models, transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from armylists.models import ArmyList, Chart
from league import event_refs
from league.audit import Actor, record
from league.award_models import ScoreComponent, ScoreEntry, ScoreVote
from league.checkin_codes import new_checkin_code
from league.checkin_models import VenueCheckIn
from league.clock_models import RoundClock
from league.errors import Conflict, Invalid
from league.models import AuditEntry, Game, Player, PlayerList, Report, Round, Tournament
from league.services.backup import FORMAT, VERSION, columns
from league.services.table_rolls import stream_key
from league.services.tournaments import require_staff
from missions.models import DiceRoll, DiceStream, Level, Mission

MAX_BYTES = 256 * 1024 * 1024  # far above a real event; stops a stray file early
ACTION = "event_imported"
COUNTED = ("players", "lists", "list_versions", "rounds", "games", "reports", "dice_rolls",
           "audit_entries", "round_clocks", "award_components", "award_entries", "award_votes")


@dataclass
class Restored:
    tournament: Tournament
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def read_document(data: bytes, max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """The document in an uploaded file, or ``Invalid`` saying why it cannot be used."""
    if len(data) > max_bytes:
        raise Invalid(_("The file is larger than %(size)s MiB.") % {"size": max_bytes // (1024 * 1024)},
                      "backup_too_large")
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Invalid(_("This file is not a Muster event export (it is not JSON)."),
                      "backup_unreadable") from None
    check_format(document)
    return document


def check_format(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Invalid(_("This file is not a Muster event export."), "backup_unreadable")
    if document.get("version") != VERSION:
        raise Invalid(_("This export has format version %(found)s; this Muster reads version "
                        "%(version)s only.") % {"found": document.get("version"), "version": VERSION},
                      "backup_version")


def restore_event(actor: Actor, document: dict[str, Any], slug: str | None = None) -> Restored:
    """Create the event of ``document`` (under ``slug`` if given) with every row it holds."""
    require_staff(actor)
    check_format(document)
    try:
        with transaction.atomic():
            restored = _Restore(document, slug).run()
            record(actor, ACTION, None, restored.tournament.slug,
                   {"slug": restored.tournament.slug, "version": VERSION, **restored.counts})
            return restored
    except event_refs.UnknownRef as exc:
        raise Invalid(_("The export is damaged: it refers to a row it does not hold (%(kind)s %(ref)s).")
                      % {"kind": exc.kind, "ref": exc.value}, "backup_damaged") from None
    except ValidationError as exc:
        raise Invalid(_("The export holds a value this Muster refuses: %(reason)s")
                      % {"reason": "; ".join(exc.messages)}, "backup_damaged") from None
    except (KeyError, TypeError, ValueError, AttributeError, binascii.Error, DatabaseError) as exc:
        raise Invalid(_("The export is incomplete or damaged: %(reason)s")
                      % {"reason": f"{type(exc).__name__}: {exc}"[:300]}, "backup_damaged") from None


def build(model: type[models.Model], data: Mapping[str, Any], **relations: Any) -> models.Model:
    """A row of ``model`` from its document columns (absent ones take their default), checked."""
    values = {}
    for f in columns(model):
        if f.name in data:
            raw = data[f.name]
            values[f.attname] = None if raw is None else f.to_python(raw)
    obj = model(**values, **relations)
    # JSON columns are taken as they are (an empty list is a value, not a blank field).
    obj.clean_fields(exclude=[f.name for f in model._meta.concrete_fields
                              if f.is_relation or isinstance(f, models.JSONField) or f.primary_key])
    return obj


def create_all(model: type[models.Model], objs: list[models.Model]) -> None:
    """Insert ``objs`` (their ids are set), keeping the document's timestamps: saving stamps
    ``auto_now``/``auto_now_add`` columns with the current time, so they are written again."""
    stamped = [f for f in model._meta.concrete_fields
               if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    kept = [[getattr(obj, f.attname) for f in stamped] for obj in objs]
    model.objects.bulk_create(objs, batch_size=500)
    for obj, values in zip(objs, kept, strict=True):
        for f, value in zip(stamped, values, strict=True):
            if value is not None:
                setattr(obj, f.attname, value)
    if stamped and objs:
        model.objects.bulk_update(objs, [f.name for f in stamped], batch_size=500)


def _by_ref(rows: Iterable[Mapping[str, Any]]) -> None:
    seen: set[Any] = set()
    for row in rows:
        if row["ref"] in seen:
            raise Invalid(_("The export is damaged: two rows share the reference %(ref)s.")
                          % {"ref": row["ref"]}, "backup_damaged")
        seen.add(row["ref"])


class _Restore:
    """One import: the document, the rows made so far and the warnings to give back."""

    def __init__(self, document: dict[str, Any], slug: str | None) -> None:
        self.doc = document
        self.slug = slug or document["tournament"]["slug"]
        self.warnings: list[str] = []
        self.ids: dict[str, dict[int, int]] = {"player": {}, "game": {}, "report": {}, "army_list": {},
                                               "component": {}}
        self.unknown_users: set[str] = set()
        self.counts: dict[str, int] = {}

    # Lookups ----------------------------------------------------------------------------

    def mapped(self, kind: str):
        table = self.ids[kind]

        def find(value: Any) -> Any:
            try:
                return table.get(int(value))
            except (TypeError, ValueError):
                return None
        return find

    def refs(self) -> event_refs.Refs:
        return event_refs.Refs(player=self.mapped("player"), game=self.mapped("game"),
                               report=self.mapped("report"), army_list=self.mapped("army_list"),
                               user=lambda name: getattr(self.account(name), "pk", None),
                               component=self.mapped("component"))

    def account(self, name: str | None) -> Any:
        if name is None:
            return None
        user = self.users.get(name)
        if user is None:
            self.unknown_users.add(name)
        return user

    def player(self, ref: Any, *, required: bool = True) -> int | None:
        if ref is None and not required:
            return None
        pk = self.mapped("player")(ref)
        if pk is None:
            raise event_refs.UnknownRef("player", ref)
        return pk

    def _load_users(self) -> None:
        names: set[str] = set()
        t = self.doc["tournament"]
        names.add(t.get("created_by"))
        names.add((t.get("check_in_window") or {}).get("opened_by"))
        names.update(e.get("entered_by") for c in self.doc.get("awards", ()) for e in c["entries"])
        for p in self.doc["players"]:
            names.add(p.get("username"))
            names.add(p.get("checked_in_by"))
            names.update(v.get("owner") for lst in p["lists"] for v in lst["versions"])
        names.update(r.get("actor") for r in t["dice"]["rolls"])
        for r in self.doc["rounds"]:
            for g in r["games"]:
                names.update(rep.get(k) for rep in g["reports"] for k in ("reporter", "confirmed_by"))
                names.update(roll.get("actor") for roll in (g.get("dice") or {}).get("rolls", ()))
        for e in self.doc["audit"]:
            names.add(e.get("actor"))
            data = e.get("data") or {}
            for part in (data, data.get("before") or {}, data.get("after") or {}):
                if isinstance(part, dict) and isinstance(part.get("user"), str):
                    names.add(part["user"])
        names.discard(None)
        user_model = get_user_model()
        found = user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__in": names})
        self.users = {u.get_username(): u for u in found}

    # The steps ------------------------------------------------------------------------

    def run(self) -> Restored:
        self._load_users()
        tournament = self._tournament()
        self._players(tournament)
        self._lists()
        games = self._rounds(tournament)
        self._reports(games)
        self._table_dice(games)
        self._window(tournament)
        self._awards(tournament)
        self._audit(tournament)
        if self.unknown_users:
            self.warnings.append(str(_("These accounts do not exist here; what they did is kept "
                                       "without them: %(names)s.")
                                     % {"names": ", ".join(sorted(self.unknown_users))}))
        counts = {key: self.counts.get(key, 0) for key in COUNTED}
        return Restored(tournament, counts, self.warnings)

    def _tournament(self) -> Tournament:
        data = self.doc["tournament"]
        try:
            validate_slug(self.slug)
        except ValidationError:
            raise Invalid(_("“%(slug)s” is not a valid address: use letters, digits, hyphens and "
                            "underscores.") % {"slug": self.slug}, "slug_invalid") from None
        if Tournament.objects.filter(slug=self.slug).exists():
            raise Conflict(_("An event with the address “%(slug)s” already exists: import it under "
                             "another address.") % {"slug": self.slug}, "slug_taken")
        chart = Chart.objects.select_related("game_system").filter(slug=data["chart"]).first()
        level = Level.objects.filter(slug=data["level"]).first() if data.get("level") else None
        if chart is None or (level is None and data.get("level")):
            missing = data["chart"] if chart is None else data["level"]
            raise Invalid(_("This Muster has no chart or level “%(slug)s”.") % {"slug": missing},
                          "backup_reference_missing")
        # Documents written before game systems have none: the chart's system is the event's.
        system = chart.game_system
        if data.get("game_system") and data["game_system"] != system.slug:
            raise Invalid(_("This Muster has no chart or level “%(slug)s”.") % {"slug": data["game_system"]},
                          "backup_reference_missing")
        dice = self._stream(f"tournament:{self.slug}:{uuid.uuid4().hex[:12]}", data["dice"])
        fields = {k: v for k, v in data.items() if k != "game_system"}
        tournament = build(Tournament, {**fields, "slug": self.slug}, chart=chart, level=level,
                           game_system=system, dice=dice, created_by=self.account(data.get("created_by")))
        create_all(Tournament, [tournament])
        self._rolls([(dice, data["dice"])])
        return tournament

    def _stream(self, key: str, data: Mapping[str, Any]) -> DiceStream:
        stream = DiceStream(key=key, seed=int(data["seed"]), next_sequence=int(data["next_sequence"]))
        stream.clean_fields()
        return self._save_streams([stream])[0]

    def _save_streams(self, streams: list[DiceStream]) -> list[DiceStream]:
        taken = list(DiceStream.objects.filter(key__in=[s.key for s in streams])
                     .values_list("key", flat=True)[:5])
        if taken:
            raise Conflict(_("Dice streams %(keys)s are left over from deleted games and block the "
                             "import.") % {"keys": ", ".join(taken)}, "dice_stream_taken")
        DiceStream.objects.bulk_create(streams, batch_size=500)
        return streams

    def _rolls(self, streams: list[tuple[DiceStream, Mapping[str, Any]]]) -> None:
        rolls = [build(DiceRoll, r, stream=stream, actor=self.account(r.get("actor")))
                 for stream, data in streams for r in data["rolls"]]
        create_all(DiceRoll, rolls)
        self.counts["dice_rolls"] = self.counts.get("dice_rolls", 0) + len(rolls)

    def _players(self, tournament: Tournament) -> None:
        rows = self.doc["players"]
        _by_ref(rows)
        players, holders = [], {}
        for data in rows:
            user = self.account(data.get("username"))
            if data.get("username") and user is None:
                self.warnings.append(str(_("%(player)s is imported without an account: there is no "
                                           "account “%(username)s” here.")
                                         % {"player": data["name"], "username": data["username"]}))
            elif user is not None and user.pk in holders:
                raise Invalid(_("The export is damaged: two players share the account “%(username)s”.")
                              % {"username": data["username"]}, "backup_damaged")
            if user is not None:
                holders[user.pk] = data["ref"]
            players.append(build(Player, data, tournament=tournament, user=user,
                                 checked_in_by=self.account(data.get("checked_in_by"))))
        self.unknown_users -= {d["username"] for d in rows if d.get("username")}
        self._check_in_codes(players)
        create_all(Player, players)
        self.ids["player"] = {int(d["ref"]): p.pk for d, p in zip(rows, players, strict=True)}
        self.counts["players"] = len(players)

    def _check_in_codes(self, players: list[Player]) -> None:
        """Players keep their check-in codes (the QR codes they were sent still work), unless a
        code is already in use here (a copy of an event in its own database): then a new one."""
        codes = [p.checkin_code for p in players]
        taken = set(Player.objects.filter(checkin_code__in=codes).values_list("checkin_code",
                                                                              flat=True))
        seen: set[str] = set()
        renewed = 0
        for player in players:
            if player.checkin_code in taken or player.checkin_code in seen:
                player.checkin_code = new_checkin_code()
                renewed += 1
            seen.add(player.checkin_code)
        if renewed:
            self.warnings.append(ngettext(
                "%(count)s player gets a new check-in code: this database already uses theirs.",
                "%(count)s players get new check-in codes: this database already uses theirs.",
                renewed) % {"count": renewed})

    def _lists(self) -> None:
        charts = {c.slug: c for c in Chart.objects.all()}
        chains: list[tuple[int, Mapping[str, Any], list[ArmyList], list[Mapping[str, Any]]]] = []
        for p in self.doc["players"]:
            for lst in p["lists"]:
                if not lst["versions"]:
                    raise Invalid(_("The export is damaged: a list without any version."),
                                  "backup_damaged")
                built = []
                for v in lst["versions"]:
                    if v["chart"] not in charts:
                        raise Invalid(_("This Muster has no chart or level “%(slug)s”.")
                                      % {"slug": v["chart"]}, "backup_reference_missing")
                    built.append(build(ArmyList, v, chart=charts[v["chart"]],
                                       owner=self.account(v.get("owner"))))
                chains.append((self.player(p["ref"]), lst, built, lst["versions"]))
        versions = [v for _p, _l, built, _d in chains for v in built]
        _by_ref([d for *_rest, docs in chains for d in docs])
        create_all(ArmyList, versions)
        for _p, _l, built, _d in chains:
            for older, newer in zip(built, built[1:], strict=False):
                newer.supersedes = older
        ArmyList.objects.bulk_update(versions, ["supersedes"], batch_size=500)
        self.ids["army_list"] = {int(d["ref"]): v.pk for *_rest, built, docs in chains
                                 for d, v in zip(docs, built, strict=True)}
        heads = [build(PlayerList, {"updated_at": lst.get("updated_at"), "role": lst["role"] or ""},
                       player_id=pid, army_list=built[-1]) for pid, lst, built, _d in chains]
        create_all(PlayerList, heads)
        self.counts.update(lists=len(heads), list_versions=len(versions))

    def _rounds(self, tournament: Tournament) -> list[tuple[Game, Mapping[str, Any]]]:
        """Rounds and their games; returns each game with its part of the document."""
        rows = self.doc["rounds"]
        missions = {m.slug: m for m in Mission.objects.all()}

        def mission(slug: str | None) -> Mission | None:
            if slug is not None and slug not in missions:
                raise Invalid(_("This Muster has no mission “%(slug)s”.") % {"slug": slug},
                              "backup_reference_missing")
            return missions.get(slug) if slug else None

        rounds = [build(Round, r, tournament=tournament, mission=mission(r.get("mission")))
                  for r in rows]
        create_all(Round, rounds)
        clocks = [build(RoundClock, r["clock"], round=round_)
                  for round_, r in zip(rounds, rows, strict=True) if r.get("clock")]
        create_all(RoundClock, clocks)
        self.counts["round_clocks"] = len(clocks)
        docs = [(round_, g) for round_, r in zip(rounds, rows, strict=True) for g in r["games"]]
        _by_ref([g for _r, g in docs])
        refs = self.refs()
        games = [self._game(round_, g, mission(g.get("mission")), refs) for round_, g in docs]
        create_all(Game, games)
        self.ids["game"] = {int(g["ref"]): game.pk for (_r, g), game in zip(docs, games, strict=True)}
        self.counts.update(rounds=len(rounds), games=len(games))
        return [(game, g) for game, (_r, g) in zip(games, docs, strict=True)]

    def _reports(self, games: list[tuple[Game, Mapping[str, Any]]]) -> None:
        docs = [(game, rep) for game, g in games for rep in g["reports"]]
        _by_ref([rep for _g, rep in docs])
        refs = self.refs()
        reports = [build(Report, {**rep, **event_refs.report_fields(refs, rep)}, game=game,
                         by_player_id=self.player(rep.get("by_player"), required=False),
                         winner_id=self.player(rep.get("winner"), required=False),
                         reporter=self.account(rep.get("reporter")),
                         confirmed_by=self.account(rep.get("confirmed_by")))
                   for game, rep in docs]
        create_all(Report, reports)
        self.ids["report"] = {int(rep["ref"]): r.pk for (_g, rep), r in zip(docs, reports, strict=True)}
        self.counts["reports"] = len(reports)

    def _table_dice(self, games: list[tuple[Game, Mapping[str, Any]]]) -> None:
        """Each table's own stream (``game:<new id>``) with the seed and counter it had."""
        tables = [(DiceStream(key=stream_key(game.pk), seed=int(g["dice"]["seed"]),
                              next_sequence=int(g["dice"]["next_sequence"])), g["dice"])
                  for game, g in games if g.get("dice")]
        for stream, _data in tables:
            stream.clean_fields()
        self._save_streams([s for s, _d in tables])
        self._rolls(tables)

    def _game(self, round_: Round, data: Mapping[str, Any], mission: Mission | None,
              refs: event_refs.Refs) -> Game:
        players = list(data["players"])
        if len(players) not in (1, 2):
            raise Invalid(_("The export is damaged: a game without one or two players."),
                          "backup_damaged")
        return build(Game, {**data, **event_refs.game_fields(refs, data)}, round=round_,
                     mission=mission, player_a_id=self.player(players[0]),
                     player_b_id=self.player(players[1]) if len(players) == 2 else None,
                     winner_id=self.player(data.get("winner"), required=False))

    def _window(self, tournament: Tournament) -> None:
        """The self check-in window, open or closed as it was, with its venue token."""
        data = self.doc["tournament"].get("check_in_window")
        if data:
            create_all(VenueCheckIn, [build(VenueCheckIn, data, tournament=tournament,
                                            opened_by=self.account(data.get("opened_by")))])

    def _awards(self, tournament: Tournament) -> None:
        """Awards and penalties, then their staff entries and the players' votes."""
        rows = self.doc.get("awards", [])
        _by_ref(rows)
        components = [build(ScoreComponent, c, tournament=tournament) for c in rows]
        create_all(ScoreComponent, components)
        self.ids["component"] = {int(c["ref"]): made.pk
                                 for c, made in zip(rows, components, strict=True)}
        entries = [build(ScoreEntry, e, component=made, player_id=self.player(e["player"]),
                         entered_by=self.account(e.get("entered_by")))
                   for c, made in zip(rows, components, strict=True) for e in c["entries"]]
        votes = [build(ScoreVote, v, component=made, voter_id=self.player(v["voter"]),
                       voted_for_id=self.player(v["voted_for"]))
                 for c, made in zip(rows, components, strict=True) for v in c["votes"]]
        create_all(ScoreEntry, entries)
        create_all(ScoreVote, votes)
        self.counts.update(award_components=len(components), award_entries=len(entries),
                           award_votes=len(votes))

    def _audit(self, tournament: Tournament) -> None:
        refs = self.refs()
        entries = [build(AuditEntry, {**e, "data": event_refs.audit_data(refs, e.get("data") or {})},
                         tournament=tournament, actor=self.account(e.get("actor")))
                   for e in self.doc["audit"]]
        create_all(AuditEntry, entries)
        self.counts["audit_entries"] = len(entries)
