from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    # The app was called "league": its label keeps the tables, migrations and content types.
    name = "events"
    label = "league"
    verbose_name = _("League")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from config import db_health  # kept database connections checked without a round trip

        db_health.connect()

        from events import notice_letters  # the events' letters, handed to the notices

        notice_letters.register()
