"""Result reports: a player reports, the opponent confirms or disputes, staff settle.

Every report is a row of its own; the game row (locked with ``select_for_update``) holds the
state they lead to, so parallel reports and confirmations of a game are applied one after the
other. Only that row is locked: the games of other tables report and confirm in parallel (the
round's row is locked only to complete the round, see ``_complete_round_if_done``), and a
report or confirmation makes the same queries whatever the size of the event."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from campaigns.services.battles import report_outcome
from config.metrics import record_report
from events import formats
from events import notice_letters as notices
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Game, Player, PlayerList, Report, Round, Tournament
from events.scoring import bands_of, tournament_points
from events.services.rounds import complete_if_done
from events.systems import Scored, normalised
from missions import legality, objectives
from missions import services as missions
from missions.messages import outcome_message, stratagem_message

OPEN = (Report.Status.REPORTED, Report.Status.DISPUTED)
UNCONFIRMED = (Game.Status.PENDING, Game.Status.REPORTED, Game.Status.DISPUTED)
MAX_VP = 1_000_000


@dataclass(frozen=True)
class ResultInput:
    """A report's content with player ids as ints; ``winner`` None with no outcome is a draw."""

    winner: int | None = None
    outcome: Mapping[str, Any] | None = None
    victory_points: Mapping[int, int] = field(default_factory=dict)
    stratagems: Mapping[int, Sequence[str]] = field(default_factory=dict)
    comment: str = ""
    # The game system's own result facts (api-v1-systems: the report's top-level "outcome").
    facts: Mapping[str, Any] | None = None
    # An Epic 40,000 campaign battle's "campaign" facts (campaigns/services/battles).
    campaign: Mapping[str, Any] | None = None


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update(of=("self",)).select_related(
            "round__tournament__level", "round__tournament__game_system", "mission", "player_a",
            "player_b").get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(_("No such game."), "game_not_found") from None


def side_of(actor: Actor, game: Game) -> Player | None:
    """The player of ``game`` that ``actor`` is, if any."""
    if actor.user_id is None:
        return None
    found = next((p for p in (game.player_a, game.player_b)
                  if p is not None and p.user_id == actor.user_id), None)
    if found is not None:
        return found
    # A format whose entrants have more than one account (doubles) names the others.
    event_format = formats.get(game.round.tournament.format)
    if event_format is None or event_format.entrant_users is None:
        return None
    return next((p for p in (game.player_a, game.player_b)
                 if p is not None and actor.user_id in event_format.entrant_users(p)), None)


def visible_game(actor: Actor, game: Game) -> Player | None:
    """The actor's side; 404 for a game of a draft round or event unless staff, 403 for a
    stranger."""
    me = side_of(actor, game)
    hidden = (game.round.status == Round.Status.DRAFT
              or game.round.tournament.status == Tournament.Status.DRAFT)
    if hidden and not actor.is_staff:
        raise NotFound(_("No such game."), "game_not_found")
    if me is None and not actor.is_staff:
        raise Forbidden(_("Only the players of this game or an organiser can do this."),
                        "not_your_game")
    return me


def _check_content(game: Game, content: ResultInput) -> Scored:
    """Validate the report against the game, its mission and its game system; returns what the
    report records."""
    ids = set(game.player_ids)
    for pid in [*content.victory_points, *content.stratagems]:
        if pid not in ids:
            raise Invalid(_("Player %(id)s did not play in this game.") % {"id": pid}, "player_not_in_game")
    if any(not 0 <= int(v) <= MAX_VP for v in content.victory_points.values()):
        raise Invalid(_("Victory points must be between 0 and %(max)s.") % {"max": MAX_VP}, "vp_invalid")
    check_stratagems(game, content.stratagems)
    winner = recorded_winner(game, content)
    tournament = game.round.tournament
    bands = bands_of(tournament.scoring or {})
    given = set(content.victory_points)
    if bands is not None and not tournament.rules.derives_victory_points and given != set(ids):
        raise Invalid(_("This event ranks by victory points: give both players' victory points."),
                      "victory_points_required")
    scored = _system_result(game, content, winner)
    return scored if bands is None else _by_table(game, scored, bands)


def _system_result(game: Game, content: ResultInput, winner: int | None) -> Scored:
    """The game system's reading of the report's ``outcome`` (events/systems)."""
    rules = game.round.tournament.rules
    facts = dict(content.facts or {})
    if rules.outcome is None:
        if facts:
            raise Invalid(_("Reports of this game system carry no outcome."), "outcome_not_used")
        return Scored(winner, dict(content.victory_points), dict(content.outcome or {}))
    try:
        facts = normalised(rules.outcome, facts)
    except serializers.ValidationError as exc:
        raise serializers.ValidationError({"outcome": exc.detail}) from None
    lists = _current_entries(game) if rules.needs_lists() else {}
    return rules.score(game, winner, dict(content.victory_points), facts, lists)


def _current_entries(game: Game) -> dict[int, list[dict[str, Any]]]:
    rows = PlayerList.objects.filter(player_id__in=game.player_ids, role="").values_list(
        "player_id", "army_list__entries")
    return {pid: list(entries or ()) for pid, entries in rows}


def _by_table(game: Game, scored: Scored, bands) -> Scored:
    """Scoring ``vp_table``: the band of the victory-point difference decides the result (the first band is a draw); a winner that contradicts it is
    refused, no winner given takes the band's."""
    ids = game.player_ids
    first, second = (int(scored.victory_points.get(pid, 0)) for pid in ids)
    result = tournament_points((first, second), bands)
    derived = None if result.draw else (ids[0] if first > second else ids[1])
    if scored.winner is not None and scored.winner != derived:
        raise Invalid(_("The winner does not match the victory points."), "result_inconsistent")
    return replace(scored, winner=derived)


def recorded_winner(game: Game, content: ResultInput) -> int | None:
    """The winner a report of ``content`` records (None: a draw): the ticked one, or the
    objective's verdict when there is an outcome. The game page previews a report with it."""
    winner = content.winner
    if winner is not None and winner not in set(game.player_ids):
        raise Invalid(_("The winner must be one of the two players."), "winner_not_in_game")
    if content.outcome is not None:
        if game.mission is None:
            raise Invalid(_("This game has no mission objective to report."), "outcome_not_used")
        decided = _decide(game, content)
        if content.winner is not None and decided != content.winner:
            raise Invalid(_("The winner does not match the objective outcome."), "result_inconsistent")
        winner = decided
    return winner


def preview(game: Game, content: ResultInput) -> Scored:
    """What ``report`` would record for ``content`` (the system's reading of its facts and the
    event's band table included), checked as ``report`` checks it; nothing is stored. The game
    page says it before a report is sent; ``Invalid`` (or a malformed outcome) as ``report``."""
    return _check_content(game, content)


def _decide(game: Game, content: ResultInput) -> int | None:
    sides = tuple(str(p) for p in game.player_ids)
    points = {str(k): int(v) for k, v in content.victory_points.items()}
    vp = missions.vp_result(sides, points) if points else None  # type: ignore[arg-type]
    try:
        decision = objectives.decide(game.mission.objective_kind, content.outcome or {},
                                     sides=sides, roles=game.roles or None, vp=vp)  # type: ignore[arg-type]
    except objectives.OutcomeError as exc:
        raise Invalid(outcome_message(exc.code, exc.params), exc.code) from None
    return None if decision.winner is None else int(decision.winner)


def check_stratagems(game: Game, declared: Mapping[int, Sequence[str]]) -> None:
    if not declared or game.mission is None:
        return
    categories = missions.stratagem_categories()
    exceptions = missions.exceptions_of(game.mission)
    allowance = game.round.tournament.level.stratagems_per_player
    for pid, slugs in declared.items():
        problems = legality.check_stratagems(
            list(slugs), allowance=allowance, role=game.roles.get(str(pid)),
            categories=categories, exceptions=exceptions)
        if problems:
            first = problems[0]
            raise Invalid(stratagem_message(first.code, first.params, missions.catalogue_names()),
                          first.code)


def _same_result(a: Report, b: Report) -> bool:
    return (a.winner_id, a.outcome, a.victory_points) == (b.winner_id, b.outcome, b.victory_points)


@transaction.atomic
def report(actor: Actor, game_id: int, content: ResultInput) -> Game:
    game = locked_game(game_id)
    me = visible_game(actor, game)
    if game.is_bye:
        raise Conflict(_("A bye has no result to report."), "game_is_bye")
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(_("Publish the round before reporting results."), "round_not_published")
    staff = actor.is_staff and me is None
    event_format = formats.get(game.round.tournament.format)
    if not staff and event_format is not None and event_format.check_report is not None:
        event_format.check_report(game)
    if not staff and game.status == Game.Status.CONFIRMED:
        raise Conflict(_("This result is already confirmed; ask an organiser to change it."),
                       "game_confirmed")
    scored = _check_content(game, content)
    new = Report(
        game=game, reporter=actor.user, by_player=me, winner_id=scored.winner,
        outcome=report_outcome(game, scored.outcome, content.campaign),
        comment=content.comment[:500],
        victory_points={str(k): int(v) for k, v in scored.victory_points.items()},
        stratagems={str(k): list(v) for k, v in content.stratagems.items()},
    )
    open_reports = _open_reports(game)
    if staff:
        _store(game, new)
        _settle(actor, game, new, replaced=open_reports)
    else:
        _player_report(actor, game, new, me, open_reports)
    return game


def _open_reports(game: Game) -> list[Report]:
    """The game's reported or disputed reports, newest first (one query, a handful of rows)."""
    return list(game.reports.filter(status__in=OPEN).order_by("-created_at", "-pk"))


def _store(game: Game, new: Report) -> None:
    new.save(force_insert=True)
    transaction.on_commit(lambda: record_report("reported"))  # muster_reports_total
    notices.queue_report(game, new)  # before the status moves: it tells a settled dispute


def _mark(reports: Sequence[Report], status: str) -> None:
    if reports:
        Report.objects.filter(pk__in=[r.pk for r in reports]).update(status=status)


def _player_report(actor: Actor, game: Game, new: Report, me: Player,
                   open_reports: Sequence[Report]) -> None:
    mine = [r for r in open_reports if r.by_player_id == me.pk]
    theirs = next((r for r in open_reports if r.by_player_id != me.pk), None)
    if theirs is not None and _same_result(theirs, new):
        # Both players reported the same result: that is a confirmation.
        _store(game, new)
        _settle(actor, game, new, replaced=[*mine, theirs])
        return
    if theirs is not None:
        new.status = Report.Status.DISPUTED
    _store(game, new)
    _mark(mine, Report.Status.SUPERSEDED)
    status = Game.Status.DISPUTED if theirs is not None else Game.Status.REPORTED
    if theirs is not None:
        _mark([theirs], Report.Status.DISPUTED)
    _set_status(game, status)
    record(actor, f"result_{status}", game.round.tournament, game, {"game": game.pk, "report": new.pk})


def _set_status(game: Game, status: str) -> None:
    game.status = status
    game.save(update_fields=["status"])


def _settle(actor: Actor, game: Game, chosen: Report, replaced: Sequence[Report] = ()) -> None:
    """Make ``chosen`` the game's result; ``replaced`` (its other open reports) are superseded."""
    _mark(replaced, Report.Status.SUPERSEDED)
    chosen.status = Report.Status.CONFIRMED
    chosen.confirmed_by, chosen.confirmed_at = actor.user, timezone.now()
    chosen.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    transaction.on_commit(lambda: record_report("confirmed"))
    game.status = Game.Status.CONFIRMED
    game.winner_id, game.victory_points = chosen.winner_id, chosen.victory_points
    game.outcome = chosen.outcome
    game.save(update_fields=["status", "winner", "victory_points", "outcome"])
    notices.queue_confirmed(game, chosen)  # a campaign battle's choices now wait
    record(actor, "result_confirmed", game.round.tournament, game,
           {"game": game.pk, "report": chosen.pk, "winner": chosen.winner_id,
            "victory_points": chosen.victory_points, "by_staff": actor.is_staff})
    _complete_round_if_done(game)


def _complete_round_if_done(game: Game) -> None:
    """Complete the round of ``game``, just confirmed, if no game of it is left open, without
    queueing every confirmation of the round on the round's row.

    An open game of the round that nobody is changing right now, locked here until the commit
    (rows locked by others are skipped, so this never waits), proves the round is not done:
    that game can only be settled after this commit, by a transaction that checks again. With
    no such witness (the round's last games, or all of its open games being settled at this
    moment) the round row is locked and the games counted as ``complete_if_done`` does. The
    last confirmation to commit always takes that path (its witness would have to be settled
    after it), and the round lock makes it see every other confirmation's commit."""
    witness = (Game.objects.select_for_update(skip_locked=True, no_key=True)
               .filter(round_id=game.round_id, status__in=UNCONFIRMED).exclude(pk=game.pk)
               .order_by().values_list("pk", flat=True)[:1])
    if not list(witness):
        complete_if_done(Round.objects.select_for_update().get(pk=game.round_id))


@transaction.atomic
def confirm(actor: Actor, game_id: int) -> Game:
    """The opponent (or staff) accepts the open report; a repeated confirmation is harmless."""
    game = locked_game(game_id)
    me = visible_game(actor, game)
    if game.status == Game.Status.CONFIRMED:
        return game
    open_reports = _open_reports(game)
    if not open_reports:
        raise Conflict(_("There is no reported result to confirm yet."), "nothing_to_confirm")
    latest, *older = open_reports
    if me is not None and latest.by_player_id == me.pk:
        raise Forbidden(_("Your opponent must confirm the result you reported."), "own_report")
    if game.status == Game.Status.DISPUTED and me is not None:
        raise Conflict(_("This result is disputed: report the result again or ask an organiser."),
                       "game_disputed")
    _settle(actor, game, latest, replaced=older)
    return game


@transaction.atomic
def dispute(actor: Actor, game_id: int, reason: str = "") -> Game:
    game = locked_game(game_id)
    me = visible_game(actor, game)
    latest = game.reports.filter(status__in=OPEN).order_by("-created_at", "-pk").first()
    if game.status != Game.Status.REPORTED or latest is None:
        raise Conflict(_("Only a reported, unconfirmed result can be disputed."), "nothing_to_dispute")
    if me is not None and latest.by_player_id == me.pk:
        raise Forbidden(_("You cannot dispute your own report."), "own_report")
    latest.status = Report.Status.DISPUTED
    latest.save(update_fields=["status"])
    _set_status(game, Game.Status.DISPUTED)
    record(actor, "result_disputed", game.round.tournament, game,
           {"game": game.pk, "report": latest.pk, "reason": reason[:500]})
    return game
