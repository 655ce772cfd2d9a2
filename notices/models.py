"""E-mail notices: one row per (event, recipient, kind, object), claimed before it is sent."""
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notice(models.Model):
    """A notice claimed for sending. The unique constraints are the idempotency: a task delivered
    twice (or two workers) cannot both insert the row, so only one of them sends the e-mail.

    ``key`` names the object and, where the same object can be the subject of several events
    (a round published again after a re-pairing, lists locked a second time), the moment of
    that event. Invitations have no account yet: ``recipient`` is empty and the address is not
    kept (the audit log keeps none either)."""

    class Kind(models.TextChoices):
        ROUND_PUBLISHED = "round_published", _("round published")
        RESULT_REPORTED = "result_reported", _("opponent's report")
        DISPUTE_SETTLED = "dispute_settled", _("dispute settled")
        LISTS_LOCKED = "lists_locked", _("lists locked")
        INVITATION = "invitation", _("invitation")
        REGISTERED = "registered", _("registration confirmed")
        CAMPAIGN_PHASE = "campaign_phase", _("campaign phase open")
        CAMPAIGN_BATTLES = "campaign_battles", _("campaign battles")
        CAMPAIGN_CHOICE = "campaign_choice", _("choice after a battle")
        CAMPAIGN_PLACEMENT = "campaign_placement", _("campaign placement")
        CAMPAIGN_TURN_CLOSED = "campaign_turn_closed", _("campaign turn closed")
        CAMPAIGN_SURRENDER = "campaign_surrender", _("campaign surrender")
        CAMPAIGN_DECLARE = "campaign_declare", _("your turn to declare")
        LEAGUE_WEEK_OPEN = "league_week_open", _("league week open")
        TEAM_ROUND_PAIRED = "team_round_paired", _("team round paired")

    class Status(models.TextChoices):
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE,
                                   related_name="notices", verbose_name=_("tournament"))
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                                  blank=True, related_name="+", verbose_name=_("recipient"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("object"), max_length=100)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.SENDING)
    language = models.CharField(_("language"), max_length=10, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("claimed"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        db_table = "league_notice"  # kept from the league app
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "recipient", "kind", "key"],
                                    condition=Q(recipient__isnull=False), name="notice_once"),
            models.UniqueConstraint(fields=["tournament", "kind", "key"],
                                    condition=Q(recipient__isnull=True),
                                    name="notice_once_without_account"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} → {self.recipient_id or '-'}"


class QueuedNotice(models.Model):
    """A notice task waiting for the broker: written in the action's transaction, queued by
    name after its commit, removed by the task once it has run. A row still here after the
    grace time was not taken by the broker (an outage): the sweep queues it again."""

    task = models.CharField(_("task"), max_length=60)
    args = models.JSONField(_("arguments"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    queued_at = models.DateTimeField(_("queued"), null=True, blank=True)
    tries = models.PositiveSmallIntegerField(_("tries"), default=0)

    class Meta:
        verbose_name = _("queued notice")
        verbose_name_plural = _("queued notices")
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task} {self.args}"
