"""An included Muster event changing status (finishing, or reopened), or one of its games
corrected once it finished, brings the circuits that count it up to date."""
from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save


def _tournament_saved(sender, instance, created: bool = False, update_fields=None, **kwargs) -> None:
    if created or (update_fields is not None and "status" not in update_fields):
        return
    from circuits.models import Circuit

    ids = list(Circuit.objects.filter(events__tournament=instance).values_list("pk", flat=True))
    for pk in ids:
        circuit = Circuit(pk=pk)
        transaction.on_commit(lambda c=circuit: _refresh(c))


# A game's fields that a circuit reads (who played, who won, the points): a save naming none
# of them (a table move, declarations) changes no standings.
RESULT_FIELDS = frozenset({"status", "winner", "victory_points", "outcome", "player_a", "player_b"})


def _game_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """A result stored (a staff correction: events/services/results._settle saves the game):
    after the commit, the circuits counting its event, if finished, are brought up to date.
    The query waits for the commit, so a running event's reports cost nothing inside theirs."""
    if update_fields is not None and not RESULT_FIELDS.intersection(update_fields):
        return
    if _running(instance):
        return  # a running event's report or confirmation: no circuit counts it yet
    round_id = instance.round_id
    transaction.on_commit(lambda: _game_corrected(round_id))


def _running(game) -> bool:
    """Whether the game's event, as already loaded with it (the result services load the round
    and the event with the game), is not finished; False when it was not loaded."""
    from events.models import Game, Round, Tournament

    if not Game.round.is_cached(game) or not Round.tournament.is_cached(game.round):
        return False
    return game.round.tournament.status != Tournament.Status.FINISHED


def _game_corrected(round_id: int) -> None:
    from circuits.models import Circuit
    from events.models import Tournament

    ids = list(Circuit.objects.filter(
        events__tournament__round_set__pk=round_id,
        events__tournament__status=Tournament.Status.FINISHED).values_list("pk", flat=True))
    for pk in ids:
        _refresh(Circuit(pk=pk))


def _refresh(circuit) -> None:
    from circuits.services import compute

    with transaction.atomic():
        compute.changed(circuit)


def connect() -> None:
    from events.models import Game, Tournament

    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="circuits-tournament-saved")
    post_save.connect(_game_saved, sender=Game, dispatch_uid="circuits-game-saved")
