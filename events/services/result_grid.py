"""Results at a glance: staff enter or settle many tables at once. Each table goes through
``results.report`` (a staff report confirms at once and settles a dispute) or
``results.confirm``, in a transaction of its own, and only if the game is still as the staff
member saw it: a table someone else changed meanwhile is refused, never overwritten."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.audit import Actor
from events.errors import Conflict
from events.models import Game, PlayerList, Report, Round
from events.services import results
from events.services.tournaments import require_staff


def version_of(status: str, reports: int) -> str:
    """What a staff member saw of a game: every report adds a row, every confirmation or
    dispute moves the status, so any change since the page was loaded shows here."""
    return f"{status}.{reports}"


def current_version(game: Game) -> str:
    return version_of(game.status, game.reports.count())


def round_lists(round_: Round) -> dict[int, list[dict[str, Any]]]:
    """Player id -> the entries of their current main list, for every player of the round's
    tables, in one query: what a grid row offers to tick (destroyed models, looting units)."""
    games = Game.objects.filter(round=round_)
    rows = PlayerList.objects.filter(
        Q(player_id__in=games.values("player_a_id")) | Q(player_id__in=games.values("player_b_id")),
        role="").values_list("player_id", "army_list__entries")
    return {pid: list(entries or ()) for pid, entries in rows}


def game_lists(game: Game) -> dict[int, list[dict[str, Any]]]:
    """Player id -> the entries of their current main list, for the game's two players (one
    query): what the admin game page's system report form offers to tick."""
    rows = PlayerList.objects.filter(player_id__in=game.player_ids, role="").values_list(
        "player_id", "army_list__entries")
    return {pid: list(entries or ()) for pid, entries in rows}


@transaction.atomic
def enter(actor: Actor, game_id: int, seen: str,
          content: results.ResultInput | None) -> Game:
    """Record ``content`` as a staff result for the game (None: confirm its open report), if
    the game is still at version ``seen``. The game's row lock is taken first and held until
    the commit, so of two organisers sending the same table, the second sees the first's result."""
    require_staff(actor)
    game = results.locked_game(game_id)
    if current_version(game) != seen:
        raise Conflict(changed_message(game), "game_changed")
    if content is None:
        return results.confirm(actor, game_id)
    return results.report(actor, game_id, content)


def changed_message(game: Game) -> str:
    """Says what the game became, so the staff member can decide again."""
    latest = game.reports.select_related("reporter").order_by("-created_at", "-pk").first()
    params = {"table": game.table, "status": Game.Status(game.status).label,
              "result": _result_words(game), "by": _who(game, latest)}
    if game.status == Game.Status.CONFIRMED:
        message = _("Table %(table)s changed since this page was loaded: its result is now "
                    "confirmed (%(result)s, %(by)s). Nothing was written for it.")
    elif latest is not None:
        message = _("Table %(table)s changed since this page was loaded: it is now "
                    "“%(status)s” (last report %(by)s). Nothing was written for it.")
    else:
        message = _("Table %(table)s changed since this page was loaded: it is now "
                    "“%(status)s”. Nothing was written for it.")
    return message % params


def _result_words(game: Game) -> str:
    if game.winner_id is None:
        return str(_("a draw"))
    winner = game.player_a if game.winner_id == game.player_a_id else game.player_b
    return _("%(player)s won") % {"player": getattr(winner, "name", "?")}


def _who(game: Game, report: Report | None) -> str:
    if report is None:
        return ""
    if report.by_player_id is None:
        name = report.reporter.get_username() if report.reporter else "?"
        return _("by the organiser %(name)s") % {"name": name}
    player = game.player_a if report.by_player_id == game.player_a_id else game.player_b
    return _("by %(player)s") % {"player": getattr(player, "name", "?")}
