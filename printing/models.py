"""The printed mission pack of a round: one PDF built in the background, its state and file."""
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def interrupted_seconds() -> float:
    return float(settings.MUSTER_PACK_INTERRUPTED_SECONDS)


def interrupted_before() -> datetime:
    """A pending or running pack with no sign of life since this moment is interrupted."""
    return timezone.now() - timedelta(seconds=interrupted_seconds())


def new_token() -> str:
    """A secret part of the file name, so a pack's path cannot be guessed."""
    return secrets.token_hex(12)


class MissionPack(models.Model):
    """One request to print a round's pack, or one of its wall sheets (``kind``); the task
    moves it pending -> running -> done|failed."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    class Kind(models.TextChoices):
        MISSION_PACK = "mission_pack", _("mission pack")
        PAIRINGS = "pairings", _("pairings by table")
        FIND_TABLE = "find_table", _("find your table")
        STANDINGS = "standings", _("standings")
        SLIPS = "slips", _("results slips")
        # An Epic 40,000 campaign turn (its round is the turn's): map, order and battle sheets,
        # turn report (campaigns/services/pack.py).
        TURN_PACK = "turn_pack", _("campaign turn pack")

    round = models.ForeignKey("league.Round", on_delete=models.CASCADE, related_name="mission_packs",
                              verbose_name=_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices,
                            default=Kind.MISSION_PACK)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0,
                                                validators=[MaxValueValidator(100)])
    file = models.FileField(_("file"), upload_to="packs/", blank=True, max_length=200)
    pages = models.PositiveIntegerField(_("pages"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    token = models.CharField(max_length=32, default=new_token, editable=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+",
                                     verbose_name=_("requested by"))
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Bumped on every state or progress write.
    progress_at = models.DateTimeField(_("last progress"), default=timezone.now)
    # Bumped every MUSTER_PACK_HEARTBEAT_SECONDS by the process building the pack (a thread, so
    # a long chunk still beats), and by whom ("host:pid"): a pending or running pack with no
    # sign of life for MUSTER_PACK_INTERRUPTED_SECONDS is interrupted (its worker died).
    heartbeat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    heartbeat_by = models.CharField(max_length=100, blank=True, editable=False)
    # The run that owns the pack: each build start takes a new token under the row lock, and
    # every write of a run is filtered on its token, so a superseded run stops writing.
    attempt = models.CharField(max_length=32, blank=True, editable=False)
    # Builds started since the pack was requested or retried; bounds redeliveries of a
    # pack that kills its worker each time.
    runs = models.PositiveSmallIntegerField(_("runs"), default=0)
    # When the build was last handed to the broker: a pending pack never queued (the broker was
    # away) or queued long ago (the broker lost it) is queued again by the sweep.
    queued_at = models.DateTimeField(_("queued"), null=True, blank=True)

    class Meta:
        db_table = "league_missionpack"  # kept from the league app
        verbose_name = _("mission pack")
        verbose_name_plural = _("mission packs")
        ordering = ["-requested_at", "-pk"]

    def __str__(self) -> str:
        if self.kind == self.Kind.MISSION_PACK:
            return _("Mission pack, %(round)s") % {"round": self.round}
        if self.kind == self.Kind.TURN_PACK:
            return _("Turn pack, %(round)s") % {"round": self.round}
        return _("Wall sheet (%(kind)s), %(round)s") % {"kind": self.get_kind_display(),
                                                         "round": self.round}

    @property
    def last_sign_of_life(self) -> datetime:
        """The later of its last progress and its last heartbeat."""
        return max(self.progress_at, self.heartbeat_at or self.progress_at)

    @property
    def interrupted(self) -> bool:
        """Pending or running, yet no heartbeat nor progress for MUSTER_PACK_INTERRUPTED_SECONDS:
        its worker died (or none took it); the packs sweep starts it again."""
        if self.status not in (self.Status.PENDING, self.Status.RUNNING):
            return False
        return self.last_sign_of_life < interrupted_before()

    # The API's and the admin's older name: "stale" means interrupted.
    stale = interrupted

    @property
    def state(self) -> str:
        """The status, or "interrupted" for an interrupted pending or running pack."""
        return "interrupted" if self.interrupted else self.status

    @property
    def status_label(self) -> str:
        """The status in words, as the organiser reads it."""
        if not self.interrupted:
            return str(self.Status(self.status).label)
        if self.status == self.Status.PENDING:
            return str(_("interrupted: no worker has taken it yet; it starts by itself once "
                         "one is up"))
        return str(_("interrupted: its worker was lost; it starts again by itself once a "
                     "worker is up"))

    @property
    def download_name(self) -> str:
        """The name a browser saves the file under."""
        if self.kind == self.Kind.TURN_PACK:
            return f"{self.round.campaign_turn.campaign.slug}-turn-{self.round.number}.pdf"
        suffix = "" if self.kind == self.Kind.MISSION_PACK else f"-{self.kind.replace('_', '-')}"
        return f"{self.round.tournament.slug}-round-{self.round.number}{suffix}.pdf"
