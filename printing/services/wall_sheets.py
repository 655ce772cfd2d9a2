"""Wall sheets of a round, gathered into plain data in the tournament's language.

Printed through the mission-pack machinery (``packs.request_pack`` with a ``kind``, the task
``league.build_mission_pack``): this module only reads. Each kind runs a fixed number of
queries whatever the number of players. Every game system is served the same way: a round
without a mission simply has no mission column, and the standings come from
``services.standings`` (tournament points under a ``vp_table`` scoring, with tiebreakers).
"""
from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Callable
from typing import BinaryIO

from django.db.models import F
from django.utils import timezone, translation
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, ngettext

from events import table_blocks
from events.models import TIEBREAK_CHOICES, Game, Player, Round, Tournament
from events.scoring import VP_TABLE
from events.services import factions, standings
from events.services.standings import PlayedGame
from printing import renderers
from printing.data import PairingLine
from printing.models import MissionPack
from printing.wall import (
    FIND_TABLE,
    PAIRINGS,
    SLIPS,
    STANDINGS,
    BlockLine,
    FindRow,
    Slip,
    SlipGame,
    StandingLine,
    WallContent,
    WallHeader,
    render_wall,
)
from venue.services import awards


def wall_content(round_: Round, kind: str) -> WallContent:
    """Wall sheet ``kind`` of ``round_`` (a published round of its tournament)."""
    builders: dict[str, Callable[[Round], WallContent]] = {
        PAIRINGS: pairings_sheet, FIND_TABLE: find_table_sheet, STANDINGS: standings_sheet,
        SLIPS: slips_sheet,
    }
    with translation.override(round_.tournament.language):
        return builders[kind](round_)


def wall_renderer(pack: MissionPack, chunk: int,
                  progress: Callable[[int, int], None]) -> Callable[[BinaryIO], int]:
    sheet = wall_content(pack.round, pack.kind)
    return lambda out: render_wall(sheet, out, chunk=chunk, progress=progress)


def register() -> None:
    """The wall sheets' renderer, for the pack builder (PrintingConfig.ready)."""
    for kind in (PAIRINGS, FIND_TABLE, STANDINGS, SLIPS):
        renderers.register(kind, wall_renderer)


def header(round_: Round, title: str, note: str = "") -> WallHeader:
    tournament = round_.tournament
    day = tournament.starts_on or timezone.localdate(round_.published_at or round_.created_at)
    return WallHeader(language=tournament.language, event=tournament.name,
                      round_number=round_.number, title=title,
                      date=date_format(day, "DATE_FORMAT"), note=note)


def round_games(round_: Round) -> list[Game]:
    """The round's games by table, byes last (one query)."""
    return list(round_.games.select_related("player_a", "player_b", "mission")
                .order_by(F("table").asc(nulls_last=True), "pk"))


def per_table_missions(games: list[Game]) -> bool:
    return len({g.mission_id for g in games if not g.is_bye and g.mission_id}) > 1


# --- pairings by table ---------------------------------------------------------------------------

def pairings_sheet(round_: Round) -> WallContent:
    games = round_games(round_)
    rows = tuple(
        PairingLine(None, g.player_a.name, g.player_a.club) if g.is_bye else
        PairingLine(g.table, g.player_a.name, g.player_a.club, g.player_b.name, g.player_b.club,
                   g.mission.name if g.mission else "")
        for g in games)
    title = gettext("Round %(number)d: pairings") % {"number": round_.number}
    blocks = table_blocks.of_round(round_)
    groups = tuple((block.title if block else "", block.score if block else "", tuple(lines))
                   for block, lines in blocks.group(list(rows), lambda line: line.table)
                   ) if blocks else ()
    return WallContent(kind=PAIRINGS, header=header(round_, title), pairings=rows,
                       mission_column=per_table_missions(games), pairing_groups=groups)


# --- find your table -----------------------------------------------------------------------------

def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people expect it on a wall: accents and case do not move a name."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return plain.strip(), name


def initial(name: str) -> str:
    plain = sort_key(name)[0]
    first = plain[:1].upper()
    return first if first.isalpha() else "#"


def find_table_sheet(round_: Round) -> WallContent:
    seats: list[tuple[Player, int | None, str]] = []
    for game in round_games(round_):
        if game.is_bye:
            seats.append((game.player_a, None, ""))
            continue
        seats.append((game.player_a, game.table, game.player_b.name))
        seats.append((game.player_b, game.table, game.player_a.name))
    seats.sort(key=lambda seat: (sort_key(seat[0].name), seat[0].pk))
    blocks = table_blocks.of_round(round_)
    rows, last = [], None
    for player, table, opponent in seats:
        letter = initial(player.name)
        block = blocks.of_table(table) if blocks else None
        rows.append(FindRow(player.name, player.club, table, opponent,
                            letter if letter != last else "", block.sheet_label if block else ""))
        last = letter
    title = gettext("Round %(number)d: find your table") % {"number": round_.number}
    return WallContent(kind=FIND_TABLE, header=header(round_, title), find_rows=tuple(rows))


# --- standings -----------------------------------------------------------------------------------

def games_up_to(tournament: Tournament, number: int) -> list[PlayedGame]:
    """Games of published rounds up to round ``number``: the standings as they were then."""
    return [g for g in standings.played_games(tournament) if g.round <= number]


def number_text(value: float | int | None) -> str:
    """In the sheet's language: "0,33" in French, as the event page writes it."""
    if value is None:
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return number_format(value, 2)
    return str(int(value))


def faction_names(tournament: Tournament) -> Callable[[str], str]:
    """A stored faction in the sheet's language ("Eldars Noirs", not "Dark Eldar"), as the site
    shows it; free text stays as typed."""
    by_key = factions.keys(factions.of_system(tournament))
    return lambda text: factions.label(text, by_key)


def points_label(tournament: Tournament) -> str:
    if (tournament.scoring or {}).get("mode") == VP_TABLE:
        return gettext("TP")
    return gettext("Pts")


def standings_sheet(round_: Round) -> WallContent:
    tournament = round_.tournament
    players = {p.pk: p for p in tournament.players.all()}
    games = games_up_to(tournament, round_.number)
    # Awards and penalties count as on the event page.
    rows = standings.compute(tournament, games, list(players), extra=awards.load(tournament).extra(ranked=True))
    names = dict(TIEBREAK_CHOICES)
    faction = faction_names(tournament)
    lines = tuple(
        StandingLine(row.rank, players[row.player].name, players[row.player].club,
                     faction(players[row.player].faction), row.points,
                     f"{row.wins}/{row.draws}/{row.losses}",
                     tuple(number_text(row.tiebreakers.get(key)) for key in tournament.tiebreaks),
                     players[row.player].dropped)
        for row in rows)
    open_games = sum(1 for g in games if g.round == round_.number and len(g.players) == 2
                     and g.status != Game.Status.CONFIRMED)
    note = ngettext("Provisional: %(count)d game of this round is still to be confirmed.",
                    "Provisional: %(count)d games of this round are still to be confirmed.",
                    open_games) % {"count": open_games} if open_games else ""
    title = gettext("Standings after round %(number)d") % {"number": round_.number}
    # A format's own standings (teams) as they stand now, above the players'.
    blocks = table_blocks.of_round(round_)
    return WallContent(
        kind=STANDINGS, header=header(round_, title, note), standings=lines,
        points_label=points_label(tournament),
        tiebreak_labels=tuple(str(names.get(key, key)) for key in tournament.tiebreaks),
        block_standings=tuple(BlockLine(b.rank, b.name, b.points, b.detail)
                              for b in blocks.standings) if blocks else (),
        block_standings_title=blocks.standings_title if blocks else "",
        block_points_label=blocks.points_label if blocks else "")


# --- results slips -------------------------------------------------------------------------------

def game_result(game: PlayedGame, me: int) -> tuple[str, str]:
    """(result, score) of ``game`` seen from player ``me``."""
    if len(game.players) == 1:
        return gettext("bye"), ""
    if game.status != Game.Status.CONFIRMED:
        return gettext("to be confirmed"), ""
    other = next(p for p in game.players if p != me)
    if game.winner is None:
        result = gettext("draw")
    else:
        result = gettext("won") if game.winner == me else gettext("lost")
    vp = game.victory_points
    score = f"{vp.get(me, 0)}–{vp.get(other, 0)}" if vp else ""
    return result, score


def ordinal_standing(rank: int, total: int, points: int, label: str) -> str:
    return gettext("Before this round: %(rank)d of %(total)d, %(points)d %(label)s") % {
        "rank": rank, "total": total, "points": points, "label": label}


def slips_sheet(round_: Round) -> WallContent:
    """One slip per player of the round, table by table (both players of a table together),
    byes last: what they played so far and the boxes for this round's result."""
    tournament = round_.tournament
    games = round_games(round_)
    players = {p.pk: p for p in tournament.players.all()}
    earlier = games_up_to(tournament, round_.number - 1)
    ranked = standings.compute(tournament, earlier, list(players)) if earlier else ()
    place = {row.player: row for row in ranked}
    faction = faction_names(tournament)
    history: dict[int, list[SlipGame]] = defaultdict(list)
    for game in sorted(earlier, key=lambda g: g.round):
        for me in game.players:
            other = next((p for p in game.players if p != me), None)
            result, score = game_result(game, me)
            history[me].append(SlipGame(game.round, game.table,
                                        players[other].name if other else "", result, score))
    label = points_label(tournament)
    slips = []
    for game in games:
        seats = [(game.player_a, game.player_b)]
        if not game.is_bye:
            seats.append((game.player_b, game.player_a))
        for me, opponent in seats:
            row = place.get(me.pk)
            slips.append(Slip(
                name=me.name, club=me.club, faction=faction(me.faction),
                table=None if game.is_bye else game.table,
                opponent=opponent.name if opponent else "",
                opponent_club=opponent.club if opponent else "",
                mission=game.mission.name if game.mission else "",
                standing=ordinal_standing(row.rank, len(ranked), row.points, label) if row else "",
                history=tuple(history[me.pk])))
    title = gettext("Round %(number)d: results slip") % {"number": round_.number}
    return WallContent(kind=SLIPS, header=header(round_, title), slips=tuple(slips),
                       slip_rounds=max(0, round_.number - 1))
