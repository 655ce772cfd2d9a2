"""The event page's shared sections (a round's tables, the standings, the factions, the
players), a page of each at a time, rendered once per event version and kept in the event's
cache (``events.event_cache``) by language, page and ranking.

What they show is the same for every reader but staff, for whom every table links to its game
(staff is part of the key); what is personal (my registration and my table, votes, the register
form, search results) is rendered by the page around them, never cached.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from events import event_cache
from events.event_cache import EventCache, anyone
from events.models import TIEBREAK_CHOICES, Game, Round, Tournament
from events.services import factions, standings
from venue.names import name_key
from venue.services import awards

TABLES_PER_PAGE = 50
STANDINGS_PER_PAGE = 100
PLAYERS_PER_PAGE = 100
MAX_PAGE = 1000  # a larger page number asks for this one (the last page is shown): keys stay few
MAX_FOUND = 20  # players a search lists
MAX_ROUNDS = 30  # Tournament.rounds
PAGE_PARAMS = ("tables_page", "standings_page", "players_page")


@dataclass(frozen=True)
class Summary:
    """The event and its published rounds, as the page shows them (cached with the sections)."""

    event: Tournament
    rounds: tuple[Round, ...]

    def shown(self, asked: int | None) -> Round | None:
        """The round ``?round=`` asks for when published, else the latest published one."""
        chosen = next((r for r in self.rounds if r.number == asked), None)
        return chosen or (self.rounds[-1] if self.rounds else None)


def summary(event_id: int) -> Summary:
    """Two queries: the event with what its header reads, its published rounds."""
    event = Tournament.objects.select_related("chart__game_system", "level", "game_system").get(
        pk=event_id)
    rounds = event.round_set.exclude(status=Round.Status.DRAFT).select_related("mission")
    return Summary(event, tuple(rounds.order_by("number")))


@dataclass(frozen=True)
class Shown:
    """What a request asks the shared sections for, normalised so that the keys stay few."""

    language: str
    staff: bool
    asked: int | None  # ?round= (the latest published round when None or not published)
    with_extras: bool
    tables_page: int
    standings_page: int
    players_page: int

    def keys(self) -> dict[str, str]:
        """Section -> cache entry name."""
        extras = "with" if self.with_extras else "without"
        asked = self.asked or "latest"
        return {
            "pairings": f"pairings:{self.language}:{asked}:{self.tables_page}:{int(self.staff)}",
            "standings": f"standings:{self.language}:{extras}:{asked}:{self.standings_page}",
            "factions": f"factions:{self.language}:{extras}",
            "players": f"players:{self.language}:{self.players_page}",
        }


def asked_round(query) -> int | None:
    """``?round=`` as a round number an event may have, else None."""
    try:
        number = int(query.get("round", ""))
    except ValueError:
        return None
    return number if 1 <= number <= MAX_ROUNDS else None


def page_number(query, name: str) -> int:
    """``?name=`` as a page number from 1 to MAX_PAGE (1 when missing or not a number)."""
    try:
        number = int(query.get(name, "1"))
    except ValueError:
        number = 1
    return min(max(number, 1), MAX_PAGE)


def page(event_id: int, cached: EventCache, shown: Shown,
         not_before: Callable[[], float] | None = anyone) -> tuple[Summary, dict[str, SafeString]]:
    """The event's summary and each section's HTML, from the cache in one round trip; what is
    missing is read or rendered, then stored (each piece of data read at most once), or, while
    another process renders it, its copy of a few seconds ago for the same published rounds
    (``EventCache.build_missing``; ``not_before``: the reader's own last change, None: staff,
    who take no copy). The summary (two queries) is always of this version."""
    keys = shown.keys()
    found = cached.get_many(["summary", *keys.values()])
    if "summary" not in found:
        found["summary"] = summary(event_id)
        cached.set_many({"summary": found["summary"]})
    missing = {section: key for section, key in keys.items() if key not in found}
    if missing:
        builder = _Builder(found["summary"], cached, shown)
        found.update(cached.build_missing(
            {key: partial(builder.render, section) for section, key in missing.items()},
            stamp=rounds_stamp(found["summary"]), not_before=not_before))
    # Rendered by Django templates from escaped values: safe to insert as they are.
    return found["summary"], {section: mark_safe(found[key])  # noqa: S308
                              for section, key in keys.items()}


def rounds_stamp(summary: Summary) -> str:
    """The published rounds as the sections show them: a copy made for others (before a round
    was published or paired again) is never served for these."""
    return ",".join(f"{r.pk}@{r.published_at.timestamp() if r.published_at else ''}"
                    for r in summary.rounds)


def warm(event_id: int) -> int:
    """Build the sections a reader of the event page first sees, in every language, unless they
    are cached already (the ``league.warm_event`` task); how many languages."""
    cached = event_cache.for_event(event_id)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            page(event_id, cached, Shown(language=translation.get_language(), staff=False,
                                         asked=None, with_extras=True, tables_page=1,
                                         standings_page=1, players_page=1))
    return len(settings.LANGUAGES)


class _Builder:
    """Renders sections from data read lazily, once per request."""

    def __init__(self, summary: Summary, cached: EventCache, shown: Shown):
        self.event, self.cached, self.shown = summary.event, cached, shown
        self.round = summary.shown(shown.asked)

    @cached_property
    def ranking(self) -> standings.Ranking:
        return standings.ranking(self.event, ranked_with_extras=self.shown.with_extras,
                                 cached=self.cached)

    @cached_property
    def by_key(self) -> dict[str, Any]:
        """Faction names in the reader's language (one query, only if a player has one)."""
        played = any(player.faction for _row, player in self.ranking.rows)
        return factions.keys(factions.of_system(self.event) if played else [])

    def render(self, section: str) -> str:
        build: Callable[[], dict[str, Any]] = getattr(self, f"_{section}")
        return render_to_string(f"league/event/{section}.html",
                                {"tournament": self.event, **build()})

    def _pairings(self) -> dict[str, Any]:
        round_ = self.round
        if round_ is None:
            return {"pairings": None}
        page = Paginator(round_games(round_), TABLES_PER_PAGE).get_page(self.shown.tables_page)
        return {"round": round_, "staff": self.shown.staff,
                "pairings": [{"game": g, "result": result_line(g)} for g in page],
                "pager": pager(page, "tables_page", {"round": round_.number}, "round-title")}

    def _standings(self) -> dict[str, Any]:
        shown, extras = self.shown, self.ranking.extras
        page = Paginator(self.ranking.rows, STANDINGS_PER_PAGE).get_page(shown.standings_page)
        fixed = {} if shown.with_extras else {"extras": "without"}
        return {"standings": standing_rows(self.event, page, extras, shown.with_extras,
                                           self.by_key),
                "extra_columns": extras.components, "ranked_with_extras": shown.with_extras,
                "tiebreak_labels": tiebreak_labels(self.event),
                "extras_toggle": extras_toggle(extras, shown, self.round),
                "pager": pager(page, "standings_page", fixed, "standings-title")}

    def _factions(self) -> dict[str, Any]:
        return {"faction_table": factions.table(self.ranking.rows, self.by_key,
                                                self.event.bye_points)}

    def _players(self) -> dict[str, Any]:
        everyone = sorted((player for _row, player in self.ranking.rows),
                          key=lambda p: (p.name.casefold(), p.pk))
        page = Paginator(everyone, PLAYERS_PER_PAGE).get_page(self.shown.players_page)
        return {"count": len(everyone), "pager": pager(page, "players_page", {}, "players-title"),
                "players": [{"player": p, "faction": factions.label(p.faction, self.by_key)}
                            for p in page]}


def extras_toggle(extras: awards.Extras, shown: Shown, round_: Round | None) -> str | None:
    """The link that ranks the other way, keeping the round asked for; none when no component
    counts in the ranking."""
    if not any(c.counts for c in extras.components):
        return None
    kept = round_ is not None and round_.number == shown.asked
    query: dict[str, Any] = {"round": shown.asked} if kept else {}
    if shown.with_extras:
        query["extras"] = "without"
    return "?" + urlencode(query)


def pager(page: Page, param: str, fixed: dict[str, Any], anchor: str) -> dict[str, Any] | None:
    """Where this page is in the list and links to the others, each keeping ``fixed``; none
    when the list fits on one page."""
    if page.paginator.num_pages < 2:
        return None
    links: list[dict[str, Any]] = []
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        if number == Paginator.ELLIPSIS:
            links.append({"gap": True})
            continue
        links.append({"number": number, "current": number == page.number,
                      "href": f"?{urlencode({**fixed, param: number})}#{anchor}"})
    return {"links": links, "first": page.start_index(), "last": page.end_index(),
            "total": page.paginator.count}


def round_games(round_: Round) -> list[Game]:
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


def standing_rows(event: Tournament, ranked, extras: awards.Extras, with_extras: bool,
                  by_key: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"rank": row.rank, "player": player, "faction": factions.label(player.faction, by_key),
         "points": row.points, "wins": row.wins, "draws": row.draws, "losses": row.losses,
         "extras": extras.scores(player.pk, ranked=with_extras),
         "tiebreakers": [_number(row.tiebreakers.get(key)) for key in event.tiebreaks]}
        for row, player in ranked
    ]


def _number(value: Any) -> float | int | None:
    """A tiebreaker as a number: the template writes it in the reader's language ("0,33" in
    French, beside the "×1,5" of a weight), not Python's "0.33"."""
    if value is None:
        return None
    if isinstance(value, float) and not value.is_integer():
        return round(value, 2)
    return int(value)


@dataclass(frozen=True)
class Found:
    """A player as a search lists them."""

    pk: int
    name: str
    rank: int
    points: int


def search(event: Tournament, cached: EventCache, shown: Shown, round_: Round | None,
           text: str) -> dict[str, Any]:
    """Players whose name holds ``text`` (accents and case aside), best ranked first: rank,
    points and table in the shown round, from a cached index and one query for their games."""
    wanted = name_key(text.strip())
    extras = "with" if shown.with_extras else "without"
    index = cached.get_or_build(f"names:{extras}", lambda: _names(event, cached, shown))
    matches = [found for key, found in index if wanted in key]
    listed = matches[:MAX_FOUND]
    tables: dict[int, dict[str, Any]] = {}  # player -> their table and opponent, or a bye
    if listed and round_ is not None:
        ids = [found.pk for found in listed]
        for table, a, b, a_name, b_name in round_.games.filter(
                Q(player_a__in=ids) | Q(player_b__in=ids)).values_list(
                "table", "player_a_id", "player_b_id", "player_a__name", "player_b__name"):
            tables[a] = {"table": table, "opponent": b_name, "bye": b is None}
            if b is not None:
                tables[b] = {"table": table, "opponent": a_name, "bye": False}
    return {"text": text, "more": len(matches) - len(listed),
            "found": [{"player": found, "game": tables.get(found.pk)} for found in listed]}


def _names(event: Tournament, cached: EventCache, shown: Shown) -> tuple[tuple[str, Found], ...]:
    """The ranking as a search reads it: far smaller to fetch than the ranking itself."""
    ranking = standings.ranking(event, ranked_with_extras=shown.with_extras, cached=cached)
    return tuple((name_key(player.name), Found(player.pk, player.name, row.rank, row.points))
                 for row, player in ranking.rows)
