"""Self check-in at the venue: the window an organiser opens, and the token its QR code carries."""
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_venue_token() -> str:
    """The secret part of the venue link: a new one each time the window opens, so a photo
    of an earlier day's QR code checks nobody in."""
    return secrets.token_urlsafe(16)


class VenueCheckIn(models.Model):
    """One per event, made when the organiser first opens self check-in."""

    tournament = models.OneToOneField("league.Tournament", on_delete=models.CASCADE,
                                      related_name="venue_check_in", verbose_name=_("tournament"))
    is_open = models.BooleanField(_("open"), default=False)
    token = models.CharField(max_length=40, default=new_venue_token, editable=False)
    opened_at = models.DateTimeField(_("opened"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                  blank=True, related_name="+", verbose_name=_("opened by"))

    class Meta:
        db_table = "league_venuecheckin"  # kept from the league app
        verbose_name = _("self check-in window")
        verbose_name_plural = _("self check-in windows")

    def __str__(self) -> str:
        return str(_("Self check-in, %(event)s") % {"event": self.tournament})
