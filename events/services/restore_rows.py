"""The rows of an event document (``events.services.backup``) made in this database, one step
per kind of row, inside the import's transaction (``events.services.restore``).

Accounts come first (``backup_accounts``: found by username or created inactive), then every
row, its foreign keys rebuilt from the document's own references and the ids inside its JSON
fields rewritten to the new rows' ids (``events.event_refs``); the campaign's rows come from
``campaigns.services.restore``. The event keeps its seed, its dice streams and their counters,
so dice rolled after the import continue the same sequences.

The import's state and lookups are ``restore_state``'s; the players', lists' and games' rows are
made by ``restore_play``."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.translation import gettext_lazy as _

from armylists.models import Chart, GameSystem
from campaigns.models import Campaign
from campaigns.services import restore as campaign_restore
from campaigns.services.setup import army_chart
from events import event_refs, formats
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Tournament
from events.services import backup_accounts
from events.services.backup_rows import build, create_all, distinct_refs
from events.services.restore_play import PlayRows
from events.services.tournaments import free_slug
from events.systems import NOT_FOR_EVENTS
from missions.models import Level
from systems.registry import campaign_system
from venue.award_models import ScoreComponent, ScoreEntry, ScoreVote
from venue.checkin_models import VenueCheckIn

COUNTED = ("players", "lists", "list_versions", "rounds", "games", "reports", "dice_rolls",
           "audit_entries", "round_clocks", "award_components", "award_entries", "award_votes",
           "accounts_created")


@dataclass
class Restored:
    tournament: Tournament
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    campaign: Campaign | None = None  # the campaign the event belongs to, if the document holds one


class EventRestore(PlayRows):
    """One import, step by step (what it holds and its lookups: ``RestoreState``)."""

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
