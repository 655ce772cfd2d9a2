"""Account pages: password reset (rate-limited), the profile with my events and games, and the
language switch that the account remembers."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.db.models import F, OuterRef, Q, Subquery
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import i18n

from accounts import profiles
from accounts.forms import ProfileForm
from accounts.services import RateLimitedLoginView, apply_language
from config.ratelimit import client_ip, hashed, hit
from events.audit import Actor
from events.models import Game, Player, Report, Round, Tournament
from events.views.common import attempt


def set_language(request):
    """Django's set_language (cookie + redirect); a signed-in player's account remembers it."""
    response = i18n.set_language(request)
    language = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER, "")
    if (request.method == "POST" and request.user.is_authenticated
            and language in dict(settings.LANGUAGES)):
        profiles.remember_language(request.user, language)
    return response


class RateLimitedPasswordResetView(PasswordResetView):
    """Django's reset request, limited per IP and per address (known or not, so the limit
    reveals nothing); over the limit the form comes back with a message and a 429."""

    def post(self, request, *args: Any, **kwargs: Any):
        form = self.get_form()
        if not hit("password_reset", client_ip(request)):
            return self._too_many(form)
        if not form.is_valid():
            return self.form_invalid(form)
        if not hit("password_reset_email", hashed(form.cleaned_data["email"])):
            return self._too_many(form)
        return self.form_valid(form)

    def _too_many(self, form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form, limited=True), status=429)


class LandingLoginView(RateLimitedLoginView):
    """The log-in page; a player who logs in during an event lands on their current game
    (an explicit ``next`` still wins)."""

    def get_success_url(self) -> str:
        if self.get_redirect_url():
            return super().get_success_url()
        game = current_game(self.request.user)
        return reverse("game", args=[game.pk]) if game else super().get_success_url()


def current_game(user: Any) -> Game | None:
    """The user's unconfirmed game of a published round (the one in play) of a running event."""
    return (Game.objects.filter(Q(player_a__user=user) | Q(player_b__user=user),
                                round__status=Round.Status.PUBLISHED,
                                round__tournament__status=Tournament.Status.RUNNING)
            .exclude(status=Game.Status.CONFIRMED).exclude(player_b=None)
            .order_by(F("round__tournament__starts_on").desc(nulls_last=True), "-pk").first())


CONFIRM, REPORT = "confirm", "report"


@dataclass(frozen=True)
class MyGame:
    game: Game
    opponent: Player | None  # None for a bye
    action: str = ""  # what the game waits for from me: CONFIRM, REPORT or nothing


def _action(game: Game, me: Player) -> str:
    """CONFIRM the opponent's report; REPORT a game of the round in play nobody reported yet."""
    if game.is_bye or game.round.status != Round.Status.PUBLISHED:
        return ""
    if game.status == Game.Status.REPORTED and game.open_by not in (None, me.pk):
        return CONFIRM
    return REPORT if game.status == Game.Status.PENDING else ""


@dataclass(frozen=True)
class MyEvent:
    player: Player
    games: list[MyGame]


def my_events(user: Any) -> list[MyEvent]:
    """Every registration of ``user`` outside drafts with its games of published rounds and what
    each waits for from the user, in two queries whatever the number of events and rounds."""
    players = list(
        Player.objects.filter(user=user).exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament")
        .order_by(F("tournament__starts_on").desc(nulls_last=True), "-tournament__created_at", "pk"))
    mine = {player.pk for player in players}
    games: dict[int, list[MyGame]] = defaultdict(list)
    if mine:
        open_by = (Report.objects.filter(game=OuterRef("pk"), status=Report.Status.REPORTED)
                   .order_by("-created_at", "-pk").values("by_player_id")[:1])
        rows = (Game.objects.filter(Q(player_a__in=mine) | Q(player_b__in=mine))
                .exclude(round__status=Round.Status.DRAFT)
                .annotate(open_by=Subquery(open_by))
                .select_related("round", "player_a", "player_b")
                .order_by("round__number", F("table").asc(nulls_last=True), "pk"))
        for game in rows:
            me, opponent = ((game.player_a, game.player_b) if game.player_a_id in mine
                            else (game.player_b, game.player_a))
            games[me.pk].append(MyGame(game, opponent, _action(game, me)))
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
        language, notices = profiles.preferences(request.user)
        form = ProfileForm(initial={"email": request.user.email, "language": language,
                                    "notices": notices})
    events = my_events(request.user)
    waiting = [(entry.player.tournament, row) for entry in events for row in entry.games
               if row.action]
    return render(request, "league/profile.html",
                  {"form": form, "events": events, "waiting": waiting})


def _save_profile(request, data: dict[str, Any]) -> bool:
    saved = attempt(request, lambda: profiles.update_account(
        Actor.of(request), email=data["email"], language=data["language"],
        notices=data["notices"]))
    return saved is not None
