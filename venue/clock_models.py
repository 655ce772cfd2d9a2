"""A round's clock: its state is stored as moments, never as a countdown, so every screen that
asks the server reads the same time left (venue/services/clock.py computes it)."""
from datetime import timedelta

from django.db import models
from django.utils.translation import gettext_lazy as _


class RoundClock(models.Model):
    """Created at the first start. Running while ``running_since`` is set; paused when started,
    not running and not ended; the time already run before ``running_since`` is ``elapsed``."""

    round = models.OneToOneField("league.Round", on_delete=models.CASCADE, related_name="clock",
                                 verbose_name=_("round"))
    duration = models.DurationField(_("duration"), default=timedelta(0))
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    running_since = models.DateTimeField(_("running since"), null=True, blank=True)
    elapsed = models.DurationField(_("time run before the last start or resume"),
                                   default=timedelta(0))
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        db_table = "league_roundclock"  # kept from the league app
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self) -> str:
        return _("Clock of %(round)s") % {"round": self.round}
