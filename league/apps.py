from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from league.login_limits import count_failure

        user_login_failed.connect(count_failure, dispatch_uid="league.login_limits.count_failure")
