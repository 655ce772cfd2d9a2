"""Self check-in at the venue: the page the venue's QR code opens (``?venue=<token>``).

A signed-in registered player checks themself in while the organisers keep the window open;
otherwise the page says why not, and shows the player's own code for the organisers to scan.
GET only shows; the check-in itself is a form post (a link preview must not check anyone in).
"""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from events.audit import Actor
from events.views.common import attempt, visible_tournament
from venue.services import checkin


def self_check_in(request, slug: str):
    event = visible_tournament(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    token = (request.POST if request.method == "POST" else request.GET).get("venue", "")[:100]
    if request.method == "POST":
        done = attempt(request, lambda: checkin.self_check_in(Actor.of(request), event, token))
        if done is not None:
            messages.success(request, checked_in_message(done))
            return redirect("tournament", slug=event.slug)
        return redirect(f"{request.path}?{urlencode({'venue': token})}" if token else request.path)
    me = event.players.filter(user=request.user).first()
    context = {"tournament": event, "me": me, "venue": token,
               "open": checkin.window_accepts(event, token)}
    return render(request, "league/check_in.html", context)


def checked_in_message(done: checkin.CheckIn) -> str:
    if done.already:
        return _("You were already checked in (%(at)s).") % {"at": when(done.player)}
    return _("You are checked in, %(name)s. Good games!") % {"name": done.player.name}


def when(player) -> str:
    at = player.checked_in_at
    return date_format(localtime(at), "SHORT_DATETIME_FORMAT") if at else ""
