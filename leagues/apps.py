from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues over weeks")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from leagues import league_format, notice_letters

        league_format.register()  # the "league" format, handed to events.formats
        notice_letters.register()  # the week's letters, handed to the notices
