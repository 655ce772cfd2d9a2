from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team events")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from teams import format as team_format  # the "team" format, handed to events
        from teams import notice_letters

        team_format.register()
        notice_letters.register()  # the team round's letter, handed to the notices
