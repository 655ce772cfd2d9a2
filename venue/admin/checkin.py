"""The door: the organisers' check-in page (a phone in hand) and the self check-in window.

Staff type a player's code or let a scanner fill the field (a phone's camera app opens the
page from the player's QR code with the code already in it), or check in someone by name from
the list of those still missing. The venue's QR code for self check-in is shown here while the
window is open. Every change goes through ``venue.services.checkin``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.audit import Actor
from events.errors import ServiceError
from events.models import Tournament
from venue.checkin_codes import MAX_INPUT
from venue.qr import qr_svg
from venue.services import checkin


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Check-in code"), max_length=MAX_INPUT,
        help_text=gettext_lazy("Type the player's code (dashes and case do not matter) or scan "
                               "their QR code into this field."),
        widget=forms.TextInput(attrs={
            "autofocus": True, "autocomplete": "off", "autocapitalize": "characters",
            "spellcheck": "false", "enterkeyhint": "go", "class": "check-in-code"}))


def page_url(tournament: Tournament) -> str:
    return reverse("admin:league_tournament_check_in", args=[tournament.pk])


def venue_link(request: HttpRequest, tournament: Tournament, token: str) -> str:
    path = reverse("self_check_in", args=[tournament.slug])
    return request.build_absolute_uri(f"{path}?{urlencode({'venue': token})}")


def done_message(done: checkin.CheckIn) -> tuple[int, str]:
    """The message level and words for a check-in, saying when and by whom if it was already."""
    player = done.player
    if not done.already:
        return messages.SUCCESS, _("%(name)s is checked in.") % {"name": player.name}
    details = checkin.who_text(player)
    at = date_format(localtime(details["at"]), "SHORT_DATETIME_FORMAT") if details["at"] else ""
    if details["by"]:
        text = _("%(name)s was already checked in (%(at)s, by %(by)s): nothing changed.")
    else:
        text = _("%(name)s was already checked in (%(at)s): nothing changed.")
    return messages.WARNING, text % {**details, "at": at}


def _attempt(request: HttpRequest, action) -> None:
    try:
        level, text = done_message(action())
    except ServiceError as exc:
        messages.error(request, str(exc.message))
        return
    messages.add_message(request, level, text)


def check_in_view(modeladmin, request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the page (``?code=`` fills the field: the link of a player's QR code). POST a code,
    or a ``player`` id from the missing list; then back to the page, field empty, for the next."""
    tournament = modeladmin._tournament(request, pk)
    actor = Actor.of(request)
    if request.method == "POST":
        if "player" in request.POST:
            player = tournament.players.filter(pk=_number(request.POST["player"])).first()
            if player is None:
                messages.error(request, _("No such player in this tournament."))
            else:
                _attempt(request, lambda: checkin.check_in_player(actor, player))
            return HttpResponseRedirect(page_url(tournament))
        form = CodeForm(request.POST)
        if form.is_valid():
            _attempt(request, lambda: checkin.check_in_by_code(
                actor, tournament, form.cleaned_data["code"]))
            return HttpResponseRedirect(page_url(tournament))
    else:
        form = CodeForm(initial={"code": request.GET.get("code", "")[:MAX_INPUT]})
    return TemplateResponse(request, "admin/league/tournament/check_in.html",
                            page_context(modeladmin, request, tournament, form))


def page_context(modeladmin, request: HttpRequest, tournament: Tournament,
                 form: CodeForm) -> dict[str, Any]:
    """Counts, the missing players and the window: three queries whatever the size."""
    counts = tournament.players.aggregate(
        total=Count("pk"), checked_in=Count("pk", filter=Q(checked_in=True)),
        dropped=Count("pk", filter=Q(dropped=True)))
    window = checkin.window(tournament)
    venue = None
    if window is not None and window.is_open:
        link = venue_link(request, tournament, window.token)
        venue = {"link": link, "qr": qr_svg(link, _("QR code for self check-in at %(event)s")
                                             % {"event": tournament.name})}
    return {**modeladmin.admin_site.each_context(request), "opts": modeladmin.opts,
            "original": tournament, "title": _("Check-in at the door"),
            "subtitle": tournament.name, "form": form, "counts": counts,
            "missing": checkin.missing_players(tournament), "window": window, "venue": venue}


def window_view(modeladmin, request: HttpRequest, pk: int) -> HttpResponse:
    """POST ``open`` or ``close``: the self check-in window."""
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "POST"})
    tournament = modeladmin._tournament(request, pk)
    actor = Actor.of(request)
    try:
        if request.POST.get("window") == "open":
            checkin.open_window(actor, tournament)
            messages.success(request, _("Self check-in is open: show the QR code at the venue."))
        else:
            checkin.close_window(actor, tournament)
            messages.success(request, _("Self check-in is closed."))
    except ServiceError as exc:
        messages.error(request, str(exc.message))
    return HttpResponseRedirect(page_url(tournament))


def _number(value: str) -> int:
    return int(value) if value.isdigit() else 0


@dataclass(frozen=True)
class DoorRoster:
    """The cockpit's check-in line: the counts, and the first names of those still missing."""

    counts: dict[str, int]
    missing: dict[str, Any]


def door_roster(tournament: Tournament, shown: int = 40) -> DoorRoster:
    """Counts and the missing players (registered, not dropped, not checked in), one query."""
    rows = list(tournament.players.order_by("name", "pk").values_list(
        "name", "checked_in", "dropped"))
    missing = [name for name, checked_in, dropped in rows if not (checked_in or dropped)]
    counts = {"total": len(rows), "checked_in": sum(1 for row in rows if row[1]),
              "dropped": sum(1 for row in rows if row[2])}
    return DoorRoster(counts, {"count": len(missing), "names": missing[:shown],
                               "more": max(0, len(missing) - shown)})
