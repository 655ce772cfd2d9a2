"""The audit log, read-only."""
from __future__ import annotations

import json

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from config.readonly_admin import ReadOnlyAdmin
from events.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "target", "ip", "tournament"]
    list_filter = ["tournament", "action"]
    search_fields = ["action", "target", "actor__username"]
    list_select_related = ["actor", "tournament"]
    date_hierarchy = "created_at"
    fields = readonly_fields = ["created_at", "tournament", "actor", "action", "target", "ip",
                                "details"]

    @admin.display(description=_("details"))
    def details(self, obj: AuditEntry) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, ensure_ascii=False, indent=2,
                                                        default=str))
