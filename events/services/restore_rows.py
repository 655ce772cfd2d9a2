"""The rows of an event document (``events.services.backup``) made in this database, one step
per kind of row, inside the import's transaction (``events.services.restore``).

Accounts come first (``backup_accounts``: found by username or created inactive), then every
row, its foreign keys rebuilt from the document's own references and the ids inside its JSON
fields rewritten to the new rows' ids (``events.event_refs``); the campaign's rows come from
``campaigns.services.restore``. The event keeps its seed, its dice streams and their counters,
so dice rolled after the import continue the same sequences."""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from armylists.models import ArmyList, Chart, GameSystem
from campaigns.models import Campaign
from campaigns.services import restore as campaign_restore
from campaigns.services.campaign import army_chart
from events import event_refs, formats
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game, Player, PlayerList, Report, Round, Tournament
from events.services import backup_accounts
from events.services.backup_rows import build, create_all, distinct_refs, lookup
from events.services.table_rolls import stream_key
from events.services.tournaments import free_slug
from events.systems import NOT_FOR_EVENTS
from missions.models import DiceRoll, DiceStream, Level, Mission
from systems.registry import campaign_system
from venue.award_models import ScoreComponent, ScoreEntry, ScoreVote
from venue.checkin_codes import new_checkin_code
from venue.checkin_models import VenueCheckIn
from venue.clock_models import RoundClock

COUNTED = ("players", "lists", "list_versions", "rounds", "games", "reports", "dice_rolls",
           "audit_entries", "round_clocks", "award_components", "award_entries", "award_votes",
           "accounts_created")


@dataclass
class Restored:
    tournament: Tournament
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    campaign: Campaign | None = None  # the campaign the event belongs to, if the document holds one


class EventRestore:
    """One import: the document, the rows made so far and the warnings to give back."""

    def __init__(self, document: dict[str, Any], slug: str | None) -> None:
        self.doc = document
        # A campaign's document: ``slug`` is the campaign's, and its event's follows
        # (``campaign-<slug>``, as a new campaign's); else the event's.
        self.campaign: Mapping[str, Any] | None = document.get("campaign")
        self.campaign_slug = (slug or self.campaign["slug"]) if self.campaign is not None else None
        self.new_slug = slug
        self.slug = slug or document["tournament"]["slug"]
        self.warnings: list[str] = []
        self.ids: dict[str, dict[int, int]] = {"player": {}, "game": {}, "report": {}, "army_list": {},
                                               "component": {}, "order": {}, "battle": {},
                                               "score_entry": {}}
        self.rounds: dict[int, Round] = {}
        self.accounts = backup_accounts.Accounts({})
        self.counts: dict[str, int] = {}

    # Lookups ----------------------------------------------------------------------------

    def mapped(self, kind: str):
        return lookup(self.ids[kind])

    def refs(self) -> event_refs.Refs:
        return event_refs.Refs(player=self.mapped("player"), game=self.mapped("game"),
                               report=self.mapped("report"), army_list=self.mapped("army_list"),
                               user=self.accounts.pk,
                               component=self.mapped("component"), order=self.mapped("order"),
                               battle=self.mapped("battle"),
                               score_entry=self.mapped("score_entry"))

    def account(self, name: str | None) -> Any:
        """The account of this database ``name`` stands for (found or created first)."""
        return self.accounts.get(name)

    def player(self, ref: Any, *, required: bool = True) -> int | None:
        if ref is None and not required:
            return None
        pk = self.mapped("player")(ref)
        if pk is None:
            raise event_refs.UnknownRef("player", ref)
        return pk

    def game(self, ref: Any) -> int:
        pk = self.mapped("game")(ref)
        if pk is None:
            raise event_refs.UnknownRef("game", ref)
        return pk

    def round_of(self, number: Any) -> Round:
        found = self.rounds.get(number)
        if found is None:
            raise event_refs.UnknownRef("round", number)
        return found

    # The steps ------------------------------------------------------------------------

    def run(self) -> Restored:
        self.accounts = backup_accounts.provide(self.doc)
        tournament = self._tournament()
        self._players(tournament)
        self._lists()
        games = self._rounds(tournament)
        self._reports(games)
        self._table_dice(games)
        self._window(tournament)
        self._awards(tournament)
        campaign = None
        if self.campaign is not None:
            campaign, counts = campaign_restore.restore_campaign(self, self.campaign, tournament,
                                                                 self.campaign_slug)
            self.counts.update(counts)
        format_counts = self._format_rows(tournament)
        self._audit(tournament)
        self.counts["accounts_created"] = len(self.accounts.created)
        if self.accounts.created:
            self.warnings.append(str(_("These accounts did not exist here and are created inactive, "
                                       "without a password: %(names)s.")
                                     % {"names": ", ".join(self.accounts.created)}))
        counted = COUNTED + (campaign_restore.COUNTED if campaign is not None else ())
        counts = {**{key: self.counts.get(key, 0) for key in counted}, **format_counts}
        return Restored(tournament, counts, self.warnings, campaign)

    def _tournament(self) -> Tournament:
        data = self.doc["tournament"]
        if self.campaign is not None:
            self._campaign_slugs()
        try:
            validate_slug(self.slug)
        except ValidationError:
            raise Invalid(_("“%(slug)s” is not a valid address: use letters, digits, hyphens and "
                            "underscores.") % {"slug": self.slug}, "slug_invalid") from None
        if Tournament.objects.filter(slug=self.slug).exists():
            raise Conflict(_("An event with the address “%(slug)s” already exists: import it under "
                             "another address.") % {"slug": self.slug}, "slug_taken")
        chart = Chart.objects.select_related("game_system").filter(slug=data["chart"]).first()
        if chart is None and self.campaign is not None and data["chart"] == campaign_system().campaign_chart:
            chart = campaign_chart(data.get("game_system"))
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
        self._check_campaign_system(system)
        owner = f"campaign:{self.campaign_slug}" if self.campaign is not None else f"tournament:{self.slug}"
        dice = self._stream(f"{owner}:{uuid.uuid4().hex[:12]}", data["dice"])
        fields = {k: v for k, v in data.items() if k != "game_system"}
        tournament = build(Tournament, {**fields, "slug": self.slug}, chart=chart, level=level,
                           game_system=system, dice=dice, created_by=self.account(data.get("created_by")))
        create_all(Tournament, [tournament])
        self._rolls([(dice, data["dice"])])
        return tournament

    def _campaign_slugs(self) -> None:
        """The campaign's address must be free; its event's follows a new one."""
        try:
            validate_slug(self.campaign_slug)
        except ValidationError:
            raise Invalid(_("“%(slug)s” is not a valid address: use letters, digits, hyphens and "
                            "underscores.") % {"slug": self.campaign_slug}, "slug_invalid") from None
        if Campaign.objects.filter(slug=self.campaign_slug).exists():
            raise Conflict(_("A campaign with the address “%(slug)s” already exists: import it "
                             "under another address.") % {"slug": self.campaign_slug}, "slug_taken")
        if self.new_slug:
            self.slug = free_slug(Tournament, f"campaign-{self.new_slug}"[:70])

    def _check_campaign_system(self, system: GameSystem) -> None:
        """A campaign system's event comes with its campaign, and only such an event does."""
        played_as_campaign = system.kind in NOT_FOR_EVENTS
        if played_as_campaign and self.campaign is None:
            raise Invalid(_("This export holds a campaign's event without its campaign: export the "
                            "campaign again (“Whole campaign (JSON)”)."), "backup_campaign_missing")
        if self.campaign is not None and not played_as_campaign:
            raise Invalid(_("The export is damaged: it holds a campaign for an event of %(system)s.")
                          % {"system": system.slug}, "backup_damaged")

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
        distinct_refs(rows)
        players, holders = [], {}
        for data in rows:
            user = self.account(data.get("username"))
            if user is not None and user.pk in holders:
                raise Invalid(_("The export is damaged: two players share the account “%(username)s”.")
                              % {"username": data["username"]}, "backup_damaged")
            if user is not None:
                holders[user.pk] = data["ref"]
            players.append(build(Player, data, tournament=tournament, user=user,
                                 checked_in_by=self.account(data.get("checked_in_by"))))
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
        distinct_refs([d for *_rest, docs in chains for d in docs])
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
        self.rounds = {r.number: r for r in rounds}
        clocks = [build(RoundClock, r["clock"], round=round_)
                  for round_, r in zip(rounds, rows, strict=True) if r.get("clock")]
        create_all(RoundClock, clocks)
        self.counts["round_clocks"] = len(clocks)
        docs = [(round_, g) for round_, r in zip(rounds, rows, strict=True) for g in r["games"]]
        distinct_refs([g for _r, g in docs])
        refs = self.refs()
        games = [self._game(round_, g, mission(g.get("mission")), refs) for round_, g in docs]
        create_all(Game, games)
        self.ids["game"] = {int(g["ref"]): game.pk for (_r, g), game in zip(docs, games, strict=True)}
        self.counts.update(rounds=len(rounds), games=len(games))
        return [(game, g) for game, (_r, g) in zip(games, docs, strict=True)]

    def _reports(self, games: list[tuple[Game, Mapping[str, Any]]]) -> None:
        docs = [(game, rep) for game, g in games for rep in g["reports"]]
        distinct_refs([rep for _g, rep in docs])
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
        if self.doc.get("version") == 2:
            # Version 2 wrote this outcome with the old database's ids: it is the confirmed
            # report's outcome, which the document holds as references.
            confirmed = [r for r in data.get("reports", []) if r.get("status") == "confirmed"]
            data = {**data, "outcome": confirmed[0].get("outcome", {}) if confirmed else {}}
        return build(Game, {**data, **event_refs.game_fields(refs, data)}, round=round_,
                     mission=mission, player_a_id=self.player(players[0]),
                     player_b_id=self.player(players[1]) if len(players) == 2 else None,
                     winner_id=self.player(data.get("winner"), required=False))

    def _format_rows(self, tournament: Tournament) -> dict[str, int]:
        """The event format's own rows (``format_rows``), restored by the format."""
        part = self.doc.get("format_rows")
        event_format = formats.get(tournament.format)
        if event_format is None or event_format.restore is None:
            if part is not None:
                raise Invalid(_("The export holds rows of the format “%(format)s”, which this Muster "
                                "cannot read.") % {"format": tournament.format}, "backup_format_unknown")
            return {}
        return event_format.restore(self, tournament, part or {})

    def _window(self, tournament: Tournament) -> None:
        """The self check-in window, open or closed as it was, with its venue token."""
        data = self.doc["tournament"].get("check_in_window")
        if data:
            create_all(VenueCheckIn, [build(VenueCheckIn, data, tournament=tournament,
                                            opened_by=self.account(data.get("opened_by")))])

    def _awards(self, tournament: Tournament) -> None:
        """Awards and penalties, then their staff entries and the players' votes."""
        rows = self.doc.get("awards", [])
        distinct_refs(rows)
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
        entries = [build(AuditEntry, {**e, "data": event_refs.entry_data(refs, e["action"],
                                                                          e.get("data") or {})},
                         tournament=tournament, actor=self.account(e.get("actor")))
                   for e in self.doc["audit"]]
        create_all(AuditEntry, entries)
        self.counts["audit_entries"] = len(entries)


def campaign_chart(system_slug: str | None) -> Chart | None:
    """The campaign army chart a campaign's creation makes on demand, made here too for a
    database that never had a campaign; None without its game system."""
    system = GameSystem.objects.filter(slug=system_slug).first() if system_slug else None
    return army_chart(system) if system is not None else None
