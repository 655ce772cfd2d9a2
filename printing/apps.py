from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = _("Printing")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Printing's own pack kinds; other contexts register theirs (printing/renderers.py).
        from django.db.models.signals import post_delete

        from printing.models import MissionPack
        from printing.services import mission_pack, pack_files, wall_sheets

        mission_pack.register()
        wall_sheets.register()
        post_delete.connect(pack_files.delete_file_of, sender=MissionPack,
                            dispatch_uid="printing.pack_file")
