from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Map campaigns")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The campaign's letters and its turn pack, handed to the notices dispatcher and to
        # the pack builder (which import no campaign module).
        from campaigns.services import notices, pack

        notices.register()
        pack.register()
