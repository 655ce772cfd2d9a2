"""Home, an event's page (details, players, pairings, standings, registration) and sign-up."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.db.models import F, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from armylists.models import Chart, Faction
from config.ratelimit import client_ip, hit
from league.account_forms import SignupForm
from league.audit import Actor
from league.forms import RegisterForm
from league.models import TIEBREAK_CHOICES, Game, Player, Round, Tournament
from league.services import awards, factions, lists, standings, tournaments
from league.views import awards as award_views
from league.views.common import attempt, visible_tournament

Status = Tournament.Status
HOME_GROUPS = (
    ("open", (Status.REGISTRATION_OPEN,)),
    ("running", (Status.LISTS_LOCKED, Status.RUNNING)),
    ("finished", (Status.FINISHED,)),
)


def home(request):
    events = list(Tournament.objects.exclude(status=Status.DRAFT).select_related("level")
                  .order_by(F("starts_on").desc(nulls_last=True), "-created_at"))
    groups = {key: [t for t in events if t.status in statuses] for key, statuses in HOME_GROUPS}
    charts = Chart.objects.select_related("game_system").order_by("slug")
    return render(request, "home.html", {"groups": groups, "charts": charts})


def tournament(request, slug: str):
    event = visible_tournament(request, slug)
    me = None
    if request.user.is_authenticated:
        me = event.players.filter(user=request.user).first()
    if request.method == "POST":
        return _register(request, event, me)
    return render(request, "league/tournament.html", event_context(request, event, me))


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
                  event_context(request, event, me, register_form=form))


def event_context(request, event: Tournament, me: Player | None,
                  register_form: RegisterForm | None = None) -> dict[str, Any]:
    """Everything the event page shows, in a number of queries that does not grow with players."""
    extras, with_extras = awards.load(event), award_views.ranked_with_extras(request)
    ranked = standings.standings(event, ranked_with_extras=with_extras, extras=extras)
    players = sorted((player for _row, player in ranked), key=lambda p: (p.name.casefold(), p.pk))
    published = list(event.round_set.exclude(status=Round.Status.DRAFT).select_related("mission")
                     .order_by("number"))
    current = _shown_round(request, published)
    games = _round_games(current)
    mine = [g for g in games if me is not None and me.pk in g.player_ids]
    latest = published[-1] if published else None
    my_game = mine[0] if mine and current is latest else _my_game(latest, me)
    may_register = (me is None and request.user.is_authenticated
                    and event.status == Status.REGISTRATION_OPEN)
    # The system's factions only when something shows them: no query on an event without any.
    armies = factions.of_system(event) if may_register or any(p.faction for p in players) else []
    by_key = factions.keys(armies)
    for player in players:
        player.faction_label = factions.label(player.faction, by_key)
    return {
        "tournament": event, "players": players, "me": me, "round": current, "games": games,
        "pairings": [{"game": g, "result": result_line(g)} for g in games],
        "rounds": published, "latest_round": latest, "my_games": {g.pk for g in mine},
        "my_game": my_game, "standings": standing_rows(event, ranked, extras, with_extras),
        "votes": award_views.vote_forms(event, me, extras, players),
        **award_views.standings_context(request, extras, with_extras),
        "tiebreak_labels": tiebreak_labels(event),
        "lists_locked": lists.lists_locked(event),
        "register_form": ((register_form or RegisterForm(factions=faction_choices(event, armies)))
                          if may_register else None),
        "faction_table": factions.table(ranked, by_key, event.bye_points),
    }


def faction_choices(event: Tournament, armies: list[Faction]) -> list[tuple[str, str]]:
    """The register form's faction choices (stored English name, name in the reader's
    language); none where any text is accepted."""
    if not factions.restricted(event, armies):
        return []
    return sorted(((f.name_en, f.name) for f in armies), key=lambda c: c[1].casefold())


def _shown_round(request, published: list[Round]) -> Round | None:
    """The latest published round, or the earlier one ``?round=`` names (the latest if unknown)."""
    wanted = request.GET.get("round", "")
    chosen = next((r for r in published if str(r.number) == wanted), None)
    return chosen or (published[-1] if published else None)


def _my_game(round_: Round | None, me: Player | None) -> Game | None:
    if round_ is None or me is None:
        return None
    return round_.games.filter(Q(player_a=me) | Q(player_b=me)).first()


def _round_games(round_: Round | None) -> list[Game]:
    if round_ is None:
        return []
    # Byes (no table) last on every database.
    return list(round_.games.select_related("player_a", "player_b", "mission")
                .order_by(F("table").asc(nulls_last=True), "pk"))


def result_line(game: Game) -> dict[str, Any] | None:
    """A confirmed game's winner (None: a draw) and score, player A's VP first; None until the
    result is confirmed: a reported result may still be disputed, so it is not shown publicly."""
    if game.is_bye or game.status != Game.Status.CONFIRMED:
        return None
    names = {game.player_a_id: game.player_a.name, game.player_b_id: game.player_b.name}
    points = [game.victory_points.get(str(pid)) for pid in (game.player_a_id, game.player_b_id)]
    score = "–".join(str(p) for p in points) if None not in points else ""
    return {"winner": names.get(game.winner_id), "score": score}


def tiebreak_labels(event: Tournament) -> list[str]:
    names = dict(TIEBREAK_CHOICES)
    return [str(names.get(key, key)) for key in event.tiebreaks]


def standing_rows(event: Tournament, ranked, extras: awards.Extras | None = None,
                  with_extras: bool = True) -> list[dict[str, Any]]:
    extras = extras or awards.Extras()
    return [
        {"rank": row.rank, "player": player, "faction": getattr(player, "faction_label", player.faction),
         "points": row.points, "wins": row.wins,
         "draws": row.draws, "losses": row.losses,
         "extras": extras.scores(player.pk, ranked=with_extras),
         "tiebreakers": [_number(row.tiebreakers.get(key)) for key in event.tiebreaks]}
        for row, player in ranked
    ]


def _number(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return str(int(value))


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
