"""E-mail notices, read-only: what was sent to whom and when, and what failed."""
from __future__ import annotations

from django.contrib import admin

from config.readonly_admin import ReadOnlyAdmin
from notices.models import Notice


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "kind", "recipient", "status", "sent_at", "error"]
    list_filter = ["status", "kind", "tournament"]
    search_fields = ["recipient__username", "key"]
    list_select_related = ["tournament", "recipient"]
    fields = readonly_fields = ["tournament", "recipient", "kind", "key", "status", "language",
                                "error", "created_at", "sent_at"]
