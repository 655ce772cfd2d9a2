"""The events' e-mail notices: what the event services queue, and the letters they send.

The ``queue_*`` functions are called inside the services' transactions (notices.outbox: sent
after the commit, none for a rolled-back action). The builders read the committed rows when
the task runs and are registered with the notices dispatcher by ``register`` (EventsConfig).
A game played as another context's (a campaign battle) has its report written by that
context's report writer (``notices.letters.report_letters``).
"""
from __future__ import annotations

from functools import partial

from django.db.models import Q
from django.urls import reverse

from events import formats
from events.messages import role_name
from events.models import Game, Player, PlayerList, Report, Round, Tournament
from events.systems import NOT_FOR_EVENTS
from notices import letters as registry
from notices import texts
from notices.letters import Letter, absolute, profile_link, stamp_of
from notices.models import Notice
from notices.outbox import queue

Kind = Notice.Kind
LOCKED_OR_LATER = (Tournament.Status.LISTS_LOCKED, Tournament.Status.RUNNING)


# Queueing (inside the services' transactions) -----------------------------------------------

def queue_round_published(round_: Round) -> None:
    """Each player of a round just published: table, opponent, mission or scenario. A round
    published again after a re-pairing is a new event (its new publication time)."""
    queue(Kind.ROUND_PUBLISHED, round_.pk, stamp_of(round_.published_at))


def queue_report(game: Game, report: Report) -> None:
    """Called as ``report`` is stored, before the game's status moves: a player's report tells
    the opponent; a staff report on a disputed game tells both players it is settled."""
    if report.by_player_id is not None:
        queue(Kind.RESULT_REPORTED, report.pk)
    elif game.status == Game.Status.DISPUTED:
        queue(Kind.DISPUTE_SETTLED, report.pk)


def queue_status(tournament: Tournament, target: str, step_id: int) -> None:
    """After a lifecycle step: locking the lists tells every player. Each lock is its own
    notice, keyed by the audit entry of that step (unique, unlike a clock reading)."""
    if target == Tournament.Status.LISTS_LOCKED:
        queue(Kind.LISTS_LOCKED, tournament.pk, str(step_id))


def queue_registered(player: Player) -> None:
    """A player just registered (or a walk-in's registration just linked to an account): the
    confirmation with their check-in code. Players without an account have no address yet."""
    if player.user_id is not None:
        queue(Kind.REGISTERED, player.pk)


def queue_confirmed(game: Game, report: Report) -> None:
    """A game's result just confirmed by ``report``: a campaign battle's choices (who stays,
    where to retreat) now wait on its players. Other events' games queue nothing (no query:
    the game's system is loaded with it)."""
    if game.round.tournament.game_system.kind in NOT_FOR_EVENTS:
        queue(Kind.CAMPAIGN_CHOICE, report.pk)


# The letters (in the task queue) ---------------------------------------------------------------

def _table(event: Tournament, game: Game, me: Player, them: Player | None) -> texts.Table:
    return texts.Table(event=event.name, round=formats.round_name(event, game.round.number),
                       table=game.table, me=me.name,
                       opponent=them.name if them else None,
                       link=absolute(reverse("game", args=[game.pk])))


def _sides(game: Game) -> list[tuple[Player, Player | None]]:
    if game.player_b is None:
        return [(game.player_a, None)]
    return [(game.player_a, game.player_b), (game.player_b, game.player_a)]


def round_letters(round_id: int, stamp: str) -> list[Letter]:
    round_ = Round.objects.select_related("tournament", "mission").filter(pk=round_id).first()
    if (round_ is None or round_.status == Round.Status.DRAFT or round_.published_at is None
            or stamp_of(round_.published_at) != stamp):
        return []  # unpublished since, or published again (that publication has its own task)
    event = round_.tournament
    # Tables with an account holder only, without the dice logs: a letter reads neither.
    games = (round_.games.select_related("round", "mission", "player_a__user", "player_b__user")
             .filter(Q(player_a__user__isnull=False) | Q(player_b__user__isnull=False))
             .defer("rolls", "pregame", "deviations", "list_problems", "declarations"))
    key = f"{round_.pk}@{stamp}"
    letters = []
    for game in games:
        for me, them in _sides(game):
            if me.user is None:
                continue
            compose = partial(_compose_round, event, round_, game, me, them)
            letters.append(Letter(event, me.user, key, compose))
    return letters


def _compose_round(event: Tournament, round_: Round, game: Game, me: Player,
                   them: Player | None) -> texts.Letter:
    mission = game.mission or round_.mission
    role = game.roles.get(str(me.pk), "") if game.roles else ""
    return texts.round_published(
        _table(event, game, me, them), mission=mission.name if mission else "",
        scenario=round_.scenario, role=str(role_name(role)) if role else "",
        profile_link=profile_link())


def _report(report_id: int) -> Report | None:
    # Unordered (one row at most): ordering a select of nine joined tables by the report's
    # Meta.ordering cost the worker as much as compiling the rest of it.
    found = Report.objects.select_related(
        "game__round__tournament__game_system", "game__player_a__user", "game__player_b__user",
        "game__winner").filter(pk=report_id).order_by()
    return next(iter(found), None)


def _result(game: Game, winner_id: int | None, victory_points: dict[str, int],
            me: Player) -> str:
    names = {p.pk: p.name for p in (game.player_a, game.player_b) if p is not None}
    points = {names[pid]: victory_points.get(str(pid)) for pid in game.player_ids}
    winner = names.get(winner_id) if winner_id else None
    return texts.result_text(winner, winner_id == me.pk, points)


def _other_context(report: Report, *, settled: bool) -> list[Letter] | None:
    """A game played as another context's (a campaign battle): that context's letters."""
    if report.game.round.tournament.game_system.kind not in NOT_FOR_EVENTS:
        return None
    return registry.report_letters(report, settled=settled) or []


def reported_letters(report_id: int, stamp: str) -> list[Letter]:
    report = _report(report_id)
    if report is None or report.by_player_id is None or report.status not in (
            Report.Status.REPORTED, Report.Status.DISPUTED):
        return []  # confirmed or replaced meanwhile: nothing left to act on
    other = _other_context(report, settled=False)
    if other is not None:
        return other
    game = report.game
    event = game.round.tournament
    letters = []
    for me, them in _sides(game):
        if me.pk == report.by_player_id or them is None or me.user is None:
            continue

        def compose(me: Player = me, them: Player = them) -> texts.Letter:
            result = _result(game, report.winner_id, report.victory_points, me)
            return texts.result_reported(_table(event, game, me, them), result,
                                         disputed=report.status == Report.Status.DISPUTED,
                                         profile_link=profile_link())

        letters.append(Letter(event, me.user, str(report.pk), compose))
    return letters


def settled_letters(report_id: int, stamp: str) -> list[Letter]:
    report = _report(report_id)
    if report is None or report.game.status != Game.Status.CONFIRMED:
        return []
    other = _other_context(report, settled=True)
    if other is not None:
        return other
    game = report.game
    event = game.round.tournament
    letters = []
    for me, them in _sides(game):
        if me.user is None:
            continue

        def compose(me: Player = me, them: Player | None = them) -> texts.Letter:
            result = _result(game, game.winner_id, game.victory_points, me)
            return texts.dispute_settled(_table(event, game, me, them), result,
                                         profile_link=profile_link())

        letters.append(Letter(event, me.user, str(report.pk), compose))
    return letters


def locked_letters(tournament_id: int, stamp: str) -> list[Letter]:
    event = Tournament.objects.filter(pk=tournament_id).first()
    if event is None or event.status not in LOCKED_OR_LATER:
        return []  # reopened before the task ran
    players = event.players.filter(dropped=False, user__isnull=False).select_related("user")
    valid = dict(PlayerList.objects.filter(player__tournament=event, role="")
                 .values_list("player_id", "army_list__valid"))
    key = f"{event.pk}@{stamp}"
    letters = []
    for player in players:
        state = None if player.pk not in valid else ("valid" if valid[player.pk] else "invalid")
        link = absolute(reverse("player_list", args=[event.slug, player.pk]))
        compose = partial(texts.lists_locked, event.name, player.name, state, link,
                          profile_link())
        letters.append(Letter(event, player.user, key, compose))
    return letters


def register() -> None:
    """Hand the events' letters to the notices dispatcher (EventsConfig.ready)."""
    registry.register(Kind.ROUND_PUBLISHED, round_letters)
    registry.register(Kind.RESULT_REPORTED, reported_letters)
    registry.register(Kind.DISPUTE_SETTLED, settled_letters)
    registry.register(Kind.LISTS_LOCKED, locked_letters)
