"""Stratagem declarations (rules §2.7, §3.1–§3.2): each player's choice, made before deployment.

A declaration is checked with the same legality engine as a result report. It may be replaced
until a result is reported (the audit log keeps the old and new choice), never after.
Both players see both declarations at once: §3.2 declares openly, one at a time, in turn.
"""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Game, Round
from events.services.results import check_stratagems, locked_game, visible_game

MAX_DECLARED = 20


@transaction.atomic
def declare(actor: Actor, game_id: int, player_id: int, slugs: Sequence[str]) -> Game:
    """Store ``player_id``'s declaration for game ``game_id`` (that player or staff only)."""
    game = locked_game(game_id)
    me = visible_game(actor, game)
    if player_id not in game.player_ids:
        raise Invalid(_("Player %(id)s did not play in this game.") % {"id": player_id},
                      "player_not_in_game")
    if not actor.is_staff and (me is None or me.pk != player_id):
        raise Forbidden(_("Only that player or an organiser can declare their stratagems."),
                        "not_your_declaration")
    _check_open(game)
    chosen = [str(slug) for slug in slugs][:MAX_DECLARED + 1]
    if len(chosen) > MAX_DECLARED:
        raise Invalid(_("Too many stratagems."), "stratagem_limit")
    check_stratagems(game, {player_id: chosen})
    key = str(player_id)
    old = game.declarations.get(key)
    game.declarations = {**game.declarations, key: chosen}
    game.save(update_fields=["declarations"])
    record(actor, "stratagems_declared", game.round.tournament, game,
           {"game": game.pk, "player": player_id, "old": old, "new": chosen})
    return game


def _check_open(game: Game) -> None:
    if game.is_bye:
        raise Conflict(_("A bye has no stratagems to declare."), "game_is_bye")
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(_("This round is not published yet."), "round_not_published")
    if game.status == Game.Status.CONFIRMED or game.reports.exists():
        raise Conflict(_("A result has been reported: the declarations can no longer change."),
                       "declarations_closed")
