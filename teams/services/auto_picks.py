"""The draft clocks' sweep: auto-picks for the overdue drafts nobody is looking at.

A draft's auto-pick is otherwise made only when someone reads or commits it
(``drafts.read``, ``drafts.commit``); with both captains' phones closed nothing would move.
``sweep`` is run by the task ``teams.draft_auto_picks`` (teams/tasks.py) every
``MUSTER_SWEEP_SECONDS``: one query finds the matches whose draft may be overdue, then each is
caught up in its own transaction, as the system (audit ``draft_auto_pick``, ``"auto": true``)."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from events.audit import SYSTEM
from events.models import Round, Tournament
from teams.models import DraftMove, TeamMatch
from teams.services import draft_reads, drafts

logger = logging.getLogger(__name__)

BATCH = 100  # matches caught up per sweep (the oldest clocks first); the next sweep goes on


def candidates(now: datetime | None = None) -> list[int]:
    """The team matches whose draft may be overdue now, oldest clock first (one query).

    Overdue means past the whole draft's ``draft_seconds``, or past ``step_seconds`` since the
    current phase (or turn) opened. That phase opened with the latest move or the one before
    it (a sealed phase takes one commit, or one forced move, before it closes), or when the
    match was paired: so a match whose second-latest move (else its latest, else its pairing)
    is younger than ``step_seconds`` and which was paired less than ``draft_seconds`` ago is
    not overdue. A draft with all its games made is done."""
    now = now or timezone.now()
    moves = DraftMove.objects.filter(match=OuterRef("pk")).order_by("-index").values("created_at")
    rows = (TeamMatch.objects
            .filter(second__isnull=False, round__status=Round.Status.PUBLISHED,
                    round__tournament__status=Tournament.Status.RUNNING,
                    round__tournament__team_event__settings__draft="wtc",
                    round__tournament__team_event__settings__auto_pick=True)
            .annotate(games=Count("match_games"),
                      opened=Coalesce(Subquery(moves[1:2]), Subquery(moves[:1]), F("created_at")))
            .values_list("pk", "created_at", "opened", "games", "round__tournament__team_event__settings"))
    due = []
    for pk, paired, opened, games, settings in rows:
        if games >= settings["size"]:
            continue
        if (now > opened + timedelta(seconds=settings["step_seconds"])
                or now > paired + timedelta(seconds=settings["draft_seconds"])):
            due.append((opened, pk))
    return [pk for _, pk in sorted(due)[:BATCH]]


def catch_up(pk: int) -> int:
    """Auto-pick match ``pk``'s draft if it is overdue, as the system; the moves made. A match
    locked by a request right now is skipped (0): that request catches up itself (commit),
    or the next sweep does."""
    with transaction.atomic():
        # SKIP LOCKED, not NOWAIT: a held lock is the ordinary case (a captain committing),
        # not an error; NOWAIT's error would abort the PostgreSQL transaction and need a
        # savepoint and a log line for nothing. (SQLite has no row locks: its writes queue.)
        found = draft_reads.match(pk, lock=True, skip_locked=True)
        if found is None:
            return 0
        draft = drafts.Draft(found)  # the system sees every match
        if not draft.overdue(timezone.now()):  # a captain moved since the candidates' query
            return 0
        before = draft.state.moves
        drafts.catch_up(draft, SYSTEM)
        return draft.state.moves - before


def sweep() -> int:
    """Catch up every overdue draft with auto-pick; the moves made. A match that fails is
    logged and left for the next sweep: the others go on."""
    made = 0
    for pk in candidates():
        try:
            made += catch_up(pk)
        except Exception:  # noqa: BLE001  (one broken draft must not stop the others)
            logger.exception("draft auto-picks: team match %s failed", pk)
    return made
