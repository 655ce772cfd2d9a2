from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VenueConfig(AppConfig):
    name = "venue"
    verbose_name = _("Venue")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from venue import notice_letters  # the registration letters, handed to the notices

        notice_letters.register()
