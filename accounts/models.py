"""A player's account preferences, kept apart from the league's rows."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """One per account, created on first use; a blank language follows the browser."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile", verbose_name=_("account"))
    language = models.CharField(_("preferred language"), max_length=10, blank=True, default="",
                                choices=settings.LANGUAGES)
    # E-mail notices about the player's events (rounds, reports, disputes, lists locked).
    notices = models.BooleanField(_("e-mail notices"), default=True)

    class Meta:
        db_table = "league_profile"  # kept from the league app
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)
