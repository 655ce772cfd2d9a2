from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuits")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from circuits import signals  # an included event finishing brings the standings up to date

        signals.connect()
