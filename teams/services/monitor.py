"""The organiser's draft monitor: every team match of a round with its draft's phase, step,
clock and overdue flag, for staff only.

It shows where each draft stands, never what a team committed: sealed commits stay in the
draft (``drafts.draft_data``). Reading it makes no auto-pick (the captains' pages do)."""
from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from events.audit import Actor
from events.errors import NotFound
from events.models import Round, Tournament
from events.services.tournaments import require_staff
from teams.models import DraftMove
from teams.services.draft_reads import members_of
from teams.services.drafts import Draft, _when
from teams.services.events import team_event
from teams.services.matches import tables

BYE, NO_DRAFT = "bye", "no_draft"


def monitor(actor: Actor, tournament: Tournament, number: int | None = None) -> dict[str, Any]:
    """Round ``number`` (default: the latest) as the monitor shows it."""
    require_staff(actor)
    event = team_event(tournament)
    rounds = tournament.round_set.order_by("-number")
    round_ = rounds.filter(number=number).first() if number is not None else rounds.first()
    if round_ is None:
        if number is None:
            return {"round": None, "now": _when(timezone.now()), "matches": []}
        raise NotFound(_("No such round."), "round_not_found")
    now = timezone.now()
    size, wtc = event.size, event.settings["draft"] == "wtc"
    matches = list(round_.team_matches.select_related("first", "second", "round__tournament__team_event")
                   .order_by("number"))
    # The whole round's rosters and moves in two queries, whatever the number of matches.
    members = members_of([team for match in matches for team in match.team_ids])
    moves: dict[int, list[DraftMove]] = {match.pk: [] for match in matches}
    for move in DraftMove.objects.filter(match__in=matches).order_by("match_id", "index"):
        moves[move.match_id].append(move)
    rows = []
    for match in matches:
        row: dict[str, Any] = {
            "id": match.pk, "number": match.number, "tables": tables(match, size),
            "teams": [{"id": t.pk, "name": t.name} for t in (match.first, match.second) if t is not None],
            "phase": BYE if match.second_id is None else NO_DRAFT, "step": None, "deadline": None,
            "seconds_left": None, "overdue": False, "waiting_for": []}
        if match.second_id is not None and wtc:
            draft = Draft(match, members, moves[match.pk])
            deadline = draft.deadline()
            row.update(phase=draft.state.phase, step=draft.state.step, deadline=_when(deadline),
                       seconds_left=None if deadline is None else int((deadline - now).total_seconds()),
                       overdue=draft.overdue(now), waiting_for=list(draft.state.waiting_for))
        rows.append(row)
    return {"round": round_.number, "published": round_.status != Round.Status.DRAFT,
            "now": _when(now), "matches": rows}
