from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArmylistsConfig(AppConfig):
    name = "armylists"
    verbose_name = _("Army lists")
    default_auto_field = "django.db.models.BigAutoField"
