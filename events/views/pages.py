"""Home, an event's page (details, players, pairings, standings, registration) and sign-up."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.db.models import F, Max, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from accounts.forms import SignupForm
from armylists.models import Chart, Faction
from config.ratelimit import client_ip, hit
from events import event_cache
from events.audit import Actor
from events.forms.registration import RegisterForm
from events.models import Game, Player, Report, Round, Tournament
from events.services import factions, lists, standings, tournaments
from events.views import event_sections
from events.views.common import attempt, visible_tournament
from venue.views import awards as award_views

Status = Tournament.Status
HOME_GROUPS = (
    ("open", (Status.REGISTRATION_OPEN,)),
    ("running", (Status.LISTS_LOCKED, Status.RUNNING)),
    ("finished", (Status.FINISHED,)),
)


def home(request):
    events = list(Tournament.objects.exclude(status=Status.DRAFT)
                  .select_related("level", "game_system")
                  .order_by(F("starts_on").desc(nulls_last=True), "-created_at"))
    groups = {key: [t for t in events if t.status in statuses] for key, statuses in HOME_GROUPS}
    charts = list(Chart.objects.select_related("game_system").order_by("game_system__slug", "slug"))
    # The games Muster serves, named from the charts' systems (no query more).
    systems = list({chart.game_system_id: chart.game_system for chart in charts}.values())
    return render(request, "home.html", {"groups": groups, "charts": charts, "systems": systems})


def tournament(request, slug: str):
    event_id = _event_id(request, slug)
    me = None
    if request.user.is_authenticated:
        me = Player.objects.filter(tournament_id=event_id, user=request.user).first()
    if request.method == "POST":
        return _register(request, visible_tournament(request, slug), me)
    return render(request, "league/tournament.html", event_context(request, event_id, me))


def _event_id(request, slug: str) -> int:
    """The event's id, or 404 as ``visible_tournament`` (drafts are for staff only), in a
    query that reads no more: the page takes the event itself from the cache."""
    found = Tournament.objects.filter(slug=slug).values_list("pk", "status").first()
    if found is None or (found[1] == Status.DRAFT and not Actor.of(request).is_staff):
        raise Http404(_("No such tournament."))
    return found[0]


def _register(request, event: Tournament, me: Player | None):
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    form = RegisterForm(request.POST, factions=faction_choices(event, factions.of_system(event)))
    if me is None and form.is_valid():
        player = attempt(request, lambda: tournaments.register_player(
            Actor.of(request), event, **form.cleaned_data))
        if player is not None:
            messages.success(request, _("You are registered as %(name)s.") % {"name": player.name})
            return redirect("tournament", slug=event.slug)
    return render(request, "league/tournament.html",
                  event_context(request, event.pk, me, register_form=form))


def event_context(request, event_id: int, me: Player | None,
                  register_form: RegisterForm | None = None) -> dict[str, Any]:
    """Everything the event page shows, in a number of queries that does not grow with players.
    The event, its published rounds and the shared sections come from the event's cache in one
    round trip (``event_sections``); only what is personal is read for this reader."""
    cached = event_cache.for_event(event_id)
    asked = event_sections.asked_round(request.GET)
    shown = event_sections.Shown(
        language=translation.get_language(), staff=Actor.of(request).is_staff, asked=asked,
        with_extras=award_views.ranked_with_extras(request),
        **{name: event_sections.page_number(request.GET, name)
           for name in event_sections.PAGE_PARAMS})
    summary, sections = event_sections.page(event_id, cached, shown,
                                            not_before=_fresh_for(request, me))
    event, published, current = summary.event, summary.rounds, summary.shown(asked)
    latest = published[-1] if published else None
    mine = _my_games(me, current, latest)
    may_register = (me is None and request.user.is_authenticated
                    and event.status == Status.REGISTRATION_OPEN)
    query = request.GET.get("q", "").strip()[:80]
    return {
        "tournament": event, "me": me, "round": current, "rounds": published,
        "latest_round": latest, "sections": sections,
        "my_pairings": [{"game": g, "result": event_sections.result_line(g)}
                        for g in mine if g.round_id == current.pk],
        "my_game": next((g for g in mine if g.round_id == latest.pk), None),
        "query": query, "asked_round": asked if current and current.number == asked else None,
        "found": event_sections.search(event, cached, shown, current, query) if query else None,
        "votes": _votes(event, me, cached, shown),
        "lists_locked": lists.lists_locked(event),
        "register_form": ((register_form or RegisterForm(
            factions=faction_choices(event, factions.of_system(event))))
            if may_register else None),
    }


def _fresh_for(request, me: Player | None) -> Callable[[], float] | None:
    """What copies of the shared sections this reader may be served while they are rebuilt
    (``event_cache.build_missing``): staff none; a player, none older than the last report
    on their own games, so that the tables and standings agree with their own table."""
    if Actor.of(request).is_staff:
        return None
    if me is None:
        return event_cache.anyone
    return lambda: _own_change(me)


def _own_change(me: Player) -> float:
    """When a result of my games was last reported or confirmed, plus the time its commit and
    clocks may take (a wall-clock time; 0 if none)."""
    last = Report.objects.filter(Q(game__player_a=me) | Q(game__player_b=me)).aggregate(
        made=Max("created_at"), confirmed=Max("confirmed_at"))
    stamps = [stamp.timestamp() for stamp in last.values() if stamp is not None]
    return max(stamps) + event_cache.OWN_CHANGE_SECONDS if stamps else 0.0


def _votes(event: Tournament, me: Player | None, cached: event_cache.EventCache,
           shown: event_sections.Shown) -> list[dict[str, Any]]:
    """The vote forms of a registered player while the event runs (the ranking read only then)."""
    if me is None or event.status != Status.RUNNING:
        return []
    ranking = standings.ranking(event, ranked_with_extras=shown.with_extras, cached=cached)
    players = sorted((p for _row, p in ranking.rows), key=lambda p: (p.name.casefold(), p.pk))
    return award_views.vote_forms(event, me, ranking.extras, players)


def faction_choices(event: Tournament, armies: list[Faction]) -> list[tuple[str, str]]:
    """The register form's faction choices (stored English name, name in the reader's
    language); none where any text is accepted."""
    if not factions.restricted(event, armies):
        return []
    return sorted(((f.name_en, f.name) for f in armies), key=lambda c: c[1].casefold())


def _my_games(me: Player | None, *rounds_: Round | None) -> list[Game]:
    """My games in the shown and the latest round (one query; none without a registration)."""
    wanted = {r.pk for r in rounds_ if r is not None}
    if me is None or not wanted:
        return []
    return list(Game.objects.filter(round__in=wanted).filter(Q(player_a=me) | Q(player_b=me))
                .select_related("player_a", "player_b", "mission"))


def signup(request):
    """Create an account, sharing the API's per-IP sign-up limit, then sign in."""
    if request.method == "POST":
        if not hit("signup", client_ip(request)):
            return HttpResponse(_("Too many attempts; wait a minute."), status=429)
        form = SignupForm(request.POST)
        user = form.save() if form.is_valid() else None  # None: the name was taken meanwhile
        if user is not None:
            login(request, user)
            messages.success(request, _("Welcome, %(name)s.") % {"name": user.username})
            return redirect(_next_url(request))
    else:
        form = SignupForm()
    return render(request, "league/signup.html",
                  {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")})


def _next_url(request) -> str:
    target = request.POST.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return target if target and safe else "home"
