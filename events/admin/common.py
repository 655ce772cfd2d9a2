"""Admin helpers shared by the cockpit pages: labels, links, safe redirects, service errors."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from events.errors import ServiceError
from events.models import PlayerList, Tournament

Status = Tournament.Status
EMPTY = "—"
DEVIATION_LABELS = {
    "float": _("paired outside their score group"),
    "same_club": _("same club"),
    "same_faction": _("same faction"),
    "repeated_table": _("table already used"),
    "rematch": _("rematch"),
    "repeat_bye": _("second bye"),
    "bye_not_lowest": _("bye not to the lowest-ranked player"),
}
TRANSITION_LABELS = {
    (Status.DRAFT, Status.REGISTRATION_OPEN): _("Open registration"),
    (Status.REGISTRATION_OPEN, Status.DRAFT): _("Back to draft"),
    (Status.REGISTRATION_OPEN, Status.LISTS_LOCKED): _("Lock lists"),
    (Status.LISTS_LOCKED, Status.REGISTRATION_OPEN): _("Unlock lists and reopen registration"),
    (Status.LISTS_LOCKED, Status.RUNNING): _("Start the tournament"),
    (Status.RUNNING, Status.FINISHED): _("Finish the tournament"),
}
PLAYER_EDITABLE = ("name", "club", "faction", "checked_in", "dropped")


# Helpers -----------------------------------------------------------------------------------

def admin_url(obj: Any, view: str = "change") -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{view}", args=[obj.pk])


def link(obj: Any, text: Any = None) -> str:
    return format_html('<a href="{}">{}</a>', admin_url(obj), text if text is not None else obj)


def with_main_list_validity(players: QuerySet) -> QuerySet:
    """Annotate ``main_list_valid``: True/False from the current main list, None without one."""
    main = PlayerList.objects.filter(player=OuterRef("pk"), role="").values("army_list__valid")[:1]
    return players.annotate(main_list_valid=Subquery(main))


def list_validity_text(valid: bool | None) -> str:
    if valid is None:
        return _("missing")
    return _("valid") if valid else _("invalid")


def copy_saved(target: Any, saved: Any) -> None:
    """Make the admin's unsaved ``target`` the row a service created (the admin goes on with it)."""
    for f in type(saved)._meta.concrete_fields:
        setattr(target, f.attname, getattr(saved, f.attname))
    target._state.adding, target._state.db = False, saved._state.db


def safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return target if target and allowed else default


class ServiceErrorsMixin:
    """Add/change pages: a service's refusal rolls the save back and is shown as a message."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ServiceError as exc:
            # The admin's own transaction has already been rolled back by now.
            messages.error(request, str(exc))
            return HttpResponseRedirect(request.get_full_path())

