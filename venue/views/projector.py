"""The projector page: the round's clock, its tables, an alphabetical "find your table" list and
the standings, in large type and in the event's language, for a screen at the venue.

Anyone may open it (drafts stay hidden, as on the event page). ``static/projector.js`` polls
the small JSON answer of ``projector_state``, counts the clock down between polls and reloads
the lists when the round changes; without the script the page refreshes itself."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Max, Q
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache

from events import table_blocks
from events.models import Game, Round, Tournament
from events.services import factions, standings
from events.views.common import visible_tournament
from venue.clock_words import clock_data, clock_label, shown_time
from venue.names import name_key
from venue.services import clock

POLL_SECONDS = 5
REFRESH_SECONDS = 30  # without JavaScript: the whole page again
PAGE_SECONDS = 12  # a list longer than its panel shows its next page after this long
Status = Game.Status


@dataclass(frozen=True)
class Progress:
    """Where the round's results stand; ``version`` changes whenever the lists would."""

    tables: int
    confirmed: int
    version: str


def _version(round_: Round | None, total: int, last: int | None, counts: dict[str, int]) -> str:
    if round_ is None:
        return "none"
    parts = [round_.pk, round_.status, total, last or 0,
             *(counts.get(s, 0) for s in (Status.REPORTED, Status.DISPUTED, Status.CONFIRMED))]
    return "-".join(str(p) for p in parts)


def progress_of_games(round_: Round | None, games: list[Game]) -> Progress:
    """From the games the page shows (no query)."""
    tables = [g for g in games if not g.is_bye]
    counts: dict[str, int] = {}
    for g in tables:
        counts[g.status] = counts.get(g.status, 0) + 1
    last = max((g.pk for g in games), default=None)
    return Progress(len(tables), counts.get(Status.CONFIRMED, 0),
                    _version(round_, len(games), last, counts))


def progress_of_round(round_: Round | None) -> Progress:
    """The same in one aggregate query (the polled answer)."""
    if round_ is None:
        return Progress(0, 0, _version(None, 0, None, {}))
    table = Q(player_b__isnull=False)
    found = Game.objects.filter(round=round_).aggregate(
        total=Count("pk"), last=Max("pk"), tables=Count("pk", filter=table),
        **{s: Count("pk", filter=table & Q(status=s))
           for s in (Status.REPORTED, Status.DISPUTED, Status.CONFIRMED)})
    counts = {s: found[s] for s in (Status.REPORTED, Status.DISPUTED, Status.CONFIRMED)}
    return Progress(found["tables"], counts[Status.CONFIRMED],
                    _version(round_, found["total"], found["last"], counts))


def current_round(event: Tournament) -> Round | None:
    """The latest published round, with its clock and mission (one query)."""
    return (event.round_set.exclude(status=Round.Status.DRAFT).select_related("mission", "clock")
            .order_by("-number").first())


def results_text(progress: Progress) -> str:
    return ngettext("%(in)s of %(total)s result in", "%(in)s of %(total)s results in",
                    progress.tables) % {"in": progress.confirmed, "total": progress.tables}


def clock_context(reading: clock.Reading) -> dict[str, Any]:
    return {"reading": reading, "text": shown_time(reading), "label": clock_label(reading),
            "expired_label": _("Time is up")}


def _games(round_: Round | None) -> list[Game]:
    if round_ is None:
        return []
    return list(round_.games.select_related("player_a", "player_b")
                .order_by(F("table").asc(nulls_last=True), "pk"))


def _find_rows(games: list[Game], blocks: table_blocks.RoundBlocks | None = None) -> list[dict[str, Any]]:
    """Every paired player by name, with their table (None: a bye); in blocks, each player of
    the blocks' sides too, with their side and, before their table is fixed, their block's place."""
    rows = [{"name": p.name, "table": g.table, "pk": p.pk}
            for g in games for p in (g.player_a, g.player_b) if p is not None]
    if blocks is not None:
        rows = _block_rows(rows, blocks)
    return sorted(rows, key=lambda r: (name_key(r["name"]), r["name"], r["pk"]))


def _block_rows(rows: list[dict[str, Any]], blocks: table_blocks.RoundBlocks) -> list[dict[str, Any]]:
    # A team's players look for their names while its draft still runs: they walk to the
    # match's tables ("place") before they know their own.
    seated = {row["pk"] for row in rows}
    sides = {p.pk: b.sides[p.side] for b in blocks.blocks for p in b.players}
    waiting = [{"name": p.name, "table": None, "pk": p.pk, "side": b.sides[p.side],
                "place": b.place} for b in blocks.blocks for p in b.players if p.pk not in seated]
    return [{**row, "side": sides.get(row["pk"], "")} for row in rows] + waiting


def scenario_title(round_: Round | None) -> str:
    """The first line of a round's scenario (systems without rolled missions), kept short."""
    if round_ is None or round_.mission is not None:
        return ""
    first = next((line.strip() for line in round_.scenario.splitlines() if line.strip()), "")
    return Truncator(first).chars(60)


def projector_context(event: Tournament) -> dict[str, Any]:
    round_ = current_round(event)
    games = _games(round_)
    progress = progress_of_games(round_, games)
    ranked = standings.ranking(event).rows  # shared with the event page's cache
    played = any(player.faction for _row, player in ranked)
    by_key = factions.keys(factions.of_system(event) if played else [])
    blocks = table_blocks.of_round(round_) if round_ is not None else None
    return {
        "tournament": event, "round": round_, "scenario": scenario_title(round_),
        # A format that plays tables in blocks (team matches): the tables under their blocks.
        "blocks": blocks, "grouped": blocks.group(games, lambda g: g.table) if blocks else (),
        "tables": [g for g in games if not g.is_bye],
        "byes": [g for g in games if g.is_bye],
        "find": _find_rows(games, blocks),
        "standings": [{"rank": row.rank, "name": player.name, "points": row.points,
                       "faction": factions.label(player.faction, by_key)}
                      for row, player in ranked],
        "clock": clock_context(clock.read(round_)) if round_ is not None else None,
        "progress": progress, "results_text": results_text(progress),
        "state_url": reverse("projector_state", args=[event.slug]),
        "poll_seconds": POLL_SECONDS, "refresh_seconds": REFRESH_SECONDS,
        "page_seconds": PAGE_SECONDS,
    }


@never_cache
def projector(request, slug: str):
    event = visible_tournament(request, slug)
    # Printed for the hall: the event's language, whatever the browser of the screen says.
    with translation.override(event.language):
        response = render(request, "league/projector.html", projector_context(event))
    response["Content-Language"] = event.language
    return response


@never_cache
def projector_state(request, slug: str) -> JsonResponse:
    """What the script polls: the clock, the results count and the lists' version."""
    event = visible_tournament(request, slug)
    round_ = current_round(event)
    progress = progress_of_round(round_)
    with translation.override(event.language):
        body: dict[str, Any] = {"round": round_.number if round_ else None,
                                "version": progress.version,
                                "results_in": progress.confirmed, "results_total": progress.tables,
                                "results_text": results_text(progress), "clock": None}
        if round_ is not None:
            reading = clock.read(round_)
            body["clock"] = {**clock_data(reading), "label": clock_label(reading),
                             "text": shown_time(reading)}
    return JsonResponse(body)
