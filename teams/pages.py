"""The captain's phone page of a team match's draft: server-rendered (360 px wide and up), it
polls the draft's JSON every 2 s and sends the captain's choices to the API.

The page embeds the draft exactly as the API shows it to this reader (``drafts.read``): the
same hidden-information rules, nothing more."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from config.refusals import Refusal
from events.audit import Actor
from events.models import Player
from events.views.common import visible_tournament
from teams.models import TeamMatch
from teams.services import drafts, monitor
from teams.services.events import team_event
from teams.services.matches import match_data, team_standings

POLL_MILLISECONDS = 2000


@never_cache
def draft_page(request, pk: int):
    actor = Actor.of(request)
    try:
        draft = drafts.current(actor, pk)
    except Refusal as exc:
        raise Http404(str(exc)) from exc
    match = draft.match
    teams = [match.first, match.second]
    players = [player for team in match.team_ids for player, _user in draft.members[team]]
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    own = draft.team_of_user(actor.user_id, captain=True)
    return render(request, "teams/draft.html", {
        "match": match, "teams": teams, "own": own, "poll": POLL_MILLISECONDS,
        "page_data": {"match": match.pk, "own": own, "staff": actor.is_staff, "poll": POLL_MILLISECONDS,
                      "names": {str(k): v for k, v in names.items()},
                      "teams": {str(t.pk): t.name for t in teams}, "state": drafts.draft_data(draft, actor)},
    })


@never_cache
def event_page(request, slug: str):
    """The team event at a glance: team standings and each round's matches, with their drafts."""
    tournament = visible_tournament(request, slug)
    try:
        event = team_event(tournament)
    except Refusal as exc:
        raise Http404(str(exc)) from exc
    matches = (TeamMatch.objects.filter(round__tournament=tournament)
               .exclude(round__status="draft").select_related("round", "first", "second")
               .order_by("-round__number", "number"))
    rounds: dict[int, list[dict]] = {}
    for match in matches:
        data = match_data(match, event.settings)
        data["names"] = [match.first.name] + ([match.second.name] if match.second else [])
        data["draft"] = event.settings["draft"] == "wtc" and match.second_id is not None
        rounds.setdefault(match.round.number, []).append(data)
    return render(request, "teams/event.html", {
        "tournament": tournament, "standings": team_standings(tournament, event),
        "rounds": sorted(rounds.items(), reverse=True)})


MONITOR_REFRESH_SECONDS = 5


@never_cache
def monitor_page(request, slug: str):
    """The organiser's draft monitor (staff): every match of the round, its draft's phase,
    clock and overdue flag; the page reloads itself every few seconds."""
    actor = Actor.of(request)
    if not actor.is_staff:
        raise Http404
    tournament = visible_tournament(request, slug)
    number = request.GET.get("round")
    try:
        data = monitor.monitor(actor, tournament, int(number) if number and number.isdigit() else None)
    except Refusal as exc:
        raise Http404(str(exc)) from exc
    response = render(request, "teams/monitor.html", {
        "tournament": tournament, "monitor": data, "refresh": MONITOR_REFRESH_SECONDS})
    response["Refresh"] = str(MONITOR_REFRESH_SECONDS)  # the browser polls: no script needed
    return response
