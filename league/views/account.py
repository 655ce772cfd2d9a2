"""Account pages: password reset (rate-limited), the profile with my events and games, and the
language switch that the account remembers."""
from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.db.models import F, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import i18n

from config.ratelimit import client_ip, hit
from league.account_forms import ProfileForm
from league.accounts import apply_language
from league.audit import Actor
from league.models import Game, Player, Round, Tournament
from league.services import profiles
from league.views.common import attempt


def set_language(request):
    """Django's set_language (cookie + redirect); a signed-in player's account remembers it."""
    response = i18n.set_language(request)
    language = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER, "")
    if (request.method == "POST" and request.user.is_authenticated
            and language in dict(settings.LANGUAGES)):
        profiles.remember_language(request.user, language)
    return response


def address_key(email: str) -> str:
    """The rate-limit key of an address: hashed, so the cache never holds addresses."""
    return hashlib.sha256(email.strip().casefold().encode()).hexdigest()


class RateLimitedPasswordResetView(PasswordResetView):
    """Django's reset request, limited per IP and per address (known or not, so the limit
    reveals nothing); over the limit the form comes back with a message and a 429."""

    def post(self, request, *args: Any, **kwargs: Any):
        form = self.get_form()
        if not hit("password_reset", client_ip(request)):
            return self._too_many(form)
        if not form.is_valid():
            return self.form_invalid(form)
        if not hit("password_reset_email", address_key(form.cleaned_data["email"])):
            return self._too_many(form)
        return self.form_valid(form)

    def _too_many(self, form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form, limited=True), status=429)


@dataclass(frozen=True)
class MyGame:
    game: Game
    opponent: Player | None  # None for a bye


@dataclass(frozen=True)
class MyEvent:
    player: Player
    games: list[MyGame]


def my_events(user: Any) -> list[MyEvent]:
    """Every registration of ``user`` outside drafts with its games of published rounds, in two
    queries whatever the number of events and rounds."""
    players = list(
        Player.objects.filter(user=user).exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament")
        .order_by(F("tournament__starts_on").desc(nulls_last=True), "-tournament__created_at", "pk"))
    mine = {player.pk for player in players}
    games: dict[int, list[MyGame]] = defaultdict(list)
    if mine:
        rows = (Game.objects.filter(Q(player_a__in=mine) | Q(player_b__in=mine))
                .exclude(round__status=Round.Status.DRAFT)
                .select_related("round", "player_a", "player_b")
                .order_by("round__number", F("table").asc(nulls_last=True), "pk"))
        for game in rows:
            me, opponent = ((game.player_a, game.player_b) if game.player_a_id in mine
                            else (game.player_b, game.player_a))
            games[me.pk].append(MyGame(game, opponent))
    return [MyEvent(player, games[player.pk]) for player in players]


@login_required
def profile(request):
    """Username, e-mail and language (a form), the password link, my events and games."""
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid() and _save_profile(request, form.cleaned_data):
            # The language first, so the confirmation already speaks it.
            response = apply_language(redirect("profile"), form.cleaned_data["language"])
            messages.success(request, _("Your profile is saved."))
            return response
    else:
        form = ProfileForm(initial={"email": request.user.email,
                                    "language": profiles.preferred_language(request.user)})
    return render(request, "league/profile.html",
                  {"form": form, "events": my_events(request.user)})


def _save_profile(request, data: dict[str, Any]) -> bool:
    saved = attempt(request, lambda: profiles.update_account(
        Actor.of(request), email=data["email"], language=data["language"]))
    return saved is not None
