"""Pair, roll and publish rounds: standings -> pairing engine -> games, every die logged."""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import fields, replace
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from config.bulk_insert import insert_objects
from config.gc_pause import gc_paused
from events import event_cache, formats, pairing
from events import notice_letters as notices
from events.audit import Actor, record
from events.errors import Conflict, Invalid, NotFound
from events.models import Game, Player, PlayerList, Round, Tournament
from events.services.standings import pairing_states
from events.services.tournaments import advance, locked_tournament, require_staff
from events.systems import NOT_FOR_EVENTS
from missions import services as missions
from missions.catalogue_types import MissionSpec
from missions.dice import Roller
from missions.models import Mission
from missions.pregame import pregame
from missions.selection import roll_mission

Status = Tournament.Status
# Pairing round 1 while registration is open locks the lists first (api-v1: a client that never
# calls the status endpoint can run a whole event).
PAIRABLE = (Status.REGISTRATION_OPEN, Status.LISTS_LOCKED, Status.RUNNING)


def active_players(tournament: Tournament) -> list[Player]:
    players = tournament.players.filter(dropped=False)
    if tournament.require_check_in:
        players = players.filter(checked_in=True)
    return list(players)


def pairing_settings(tournament: Tournament, number: int) -> pairing.PairingSettings:
    return pairing.PairingSettings(
        round_number=number, club_weight=tournament.club_weight,
        faction_weight=tournament.faction_weight, seed=tournament.seed,
        bye_priority=tournament.bye_priority,
    )


def _next_number(tournament: Tournament) -> tuple[int, Round | None]:
    """The number to pair and the draft round it replaces, or a 409."""
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.status == Round.Status.DRAFT:
        return last.number, last
    if last is not None:
        blocking = list(last.games.exclude(status=Game.Status.CONFIRMED)
                        .order_by("table").values_list("table", flat=True))
        if blocking:
            raise Conflict(_("Round %(number)s still has results to confirm: %(tables)s.")
                           % {"number": last.number, "tables": tables_text(blocking)},
                           "round_unconfirmed")
    number = (last.number if last else 0) + 1
    if number > tournament.rounds:
        raise Conflict(_("All %(rounds)s rounds have been paired.") % {"rounds": tournament.rounds},
                       "rounds_exhausted")
    return number, None


MAX_NAMED_TABLES = 12


def tables_text(tables: Sequence[int | None]) -> str:
    """"tables 3, 7 and 12": the first MAX_NAMED_TABLES, then how many more (a message on a
    phone stays short)."""
    numbers = [str(t) for t in tables if t is not None]
    shown, rest = numbers[:MAX_NAMED_TABLES], len(numbers) - MAX_NAMED_TABLES
    if rest > 0:
        return ngettext("tables %(tables)s and %(n)s more", "tables %(tables)s and %(n)s more",
                        rest) % {"tables": ", ".join(shown), "n": rest}
    if len(shown) == 1:
        return _("table %(table)s") % {"table": shown[0]}
    return _("tables %(tables)s and %(last)s") % {"tables": ", ".join(shown[:-1]), "last": shown[-1]}


def _check_pairs_players(tournament: Tournament) -> None:
    """A format that pairs its own units (``EventFormat.pair_round``: a team event's matches)
    is never paired player by player here: not by the admin's actions, nor by re-pairing."""
    event_format = formats.get(tournament.format)
    if event_format is not None and event_format.pair_round is not None:
        raise Conflict(_("The rounds of this %(format)s are paired by its format, not player by player.")
                       % {"format": event_format.label}, "format_pairs_rounds")


def _check_pairable(tournament: Tournament) -> None:
    _check_pairs_players(tournament)
    if tournament.game_system.kind in NOT_FOR_EVENTS:
        # A campaign's turns are opened by the campaign, never paired as Swiss rounds.
        raise Conflict(_("This event is a campaign: its turns are opened from the campaign."),
                       "campaign_event")
    if tournament.status == Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    if tournament.status not in PAIRABLE:
        raise Conflict(_("Open registration before pairing the first round."), "registration_not_open")


class Paired(NamedTuple):
    """A round just paired and its games as stored, primary keys set (answered without a re-read)."""

    round: Round
    games: list[Game]


def pair_next_round(actor: Actor, tournament: Tournament, *, draft: bool = False) -> Round:
    """Pair the next round (or re-pair the draft one) and publish it unless ``draft``."""
    return pair_next(actor, tournament, draft=draft).round


@gc_paused()  # a large round's short-lived objects would set off full collections (issue #15)
@transaction.atomic
def pair_next(actor: Actor, tournament: Tournament, *, draft: bool = False) -> Paired:
    """Pair the next round (or re-pair the draft one), publish it unless ``draft``, and hand
    back the round with its games.

    The tournament row lock serialises concurrent calls: a double click either re-pairs the
    same draft or meets the 409 of an unconfirmed round, never a second round."""
    require_staff(actor)
    locked = locked_tournament(tournament)
    _check_pairable(locked)
    number, replaced = _next_number(locked)
    players = active_players(locked)
    event_format = formats.get(locked.format)
    if event_format is not None and event_format.pairing_players is not None:
        players = event_format.pairing_players(locked, number, players)
    if len(players) < 2:
        raise Conflict(_("At least two players are needed to pair a round."), "not_enough_players")
    # Each step audited as the status endpoint logs it; a refusal below rolls them back.
    if locked.status == Status.REGISTRATION_OPEN:
        advance(actor, locked, Status.LISTS_LOCKED)
    advance(actor, locked, Status.RUNNING)
    states, pks = pairing_states(locked, players)
    if event_format is not None and event_format.had_byes is not None:
        states = _with_byes(states, pks, event_format.had_byes(locked, number))
    result = pairing.pair_round(states, pairing_settings(locked, number))
    pairings = [replace(p, players=tuple(pks[n] for n in p.players)) for p in result.pairings]
    if replaced is not None:
        replaced.games.all().delete()
        round_ = replaced
    else:
        round_ = Round(tournament=locked, number=number)
    round_.status = Round.Status.DRAFT
    round_.pairing = {"cost": dict(zip(pairing.COST_TIERS, result.cost, strict=True)),
                      "rematches": result.rematches, "method": result.method}
    games = _roll_and_create(actor, locked, round_, pairings, [p.pk for p in players])
    record(actor, "round_repaired" if replaced else "round_paired", locked, round_,
           {"round": number, "games": len(result.pairings), **round_.pairing})
    if not draft:
        _publish(actor, locked, round_)
    return Paired(round_, games)


def _with_byes(states: list[pairing.PlayerState], pks: dict[int, int],
               had_byes: set[int]) -> list[pairing.PlayerState]:
    """The format's byes (``EventFormat.had_byes``, database ids) marked on the engine's input."""
    return [replace(s, had_bye=True) if pks[s.id] in had_byes else s for s in states]


def _roll_and_create(actor: Actor, tournament: Tournament, round_: Round,
                     pairings: Sequence[pairing.Pairing], player_ids: Collection[int]) -> list[Game]:
    """Roll the missions and pre-game dice from the tournament's stream and store the games.

    Systems without rolled missions get plain tables: the round carries the organisers' scenario."""
    if not tournament.rules.rolls_missions:
        round_.mission, round_.rolls = None, []
        round_.save()
        games = [_plain_game(round_, p) for p in pairings]
        _flag_lists(tournament, games, player_ids)
        insert_objects(Game, games)
        return games
    missions_by_slug = {m.slug: m for m in Mission.objects.all()}
    specs = {slug: missions.mission_spec(m) for slug, m in missions_by_slug.items()}
    standard, special = missions.mission_table(missions_by_slug.values())
    per_table = tournament.missions == Tournament.Missions.PER_TABLE
    # One DiceBatch row for the round's rolls (a large round rolls thousands).
    with missions.rolling(tournament.dice, actor.user if actor.user_id else None, batch=True) as roller:
        if not per_table:
            chosen = roll_mission(roller, tournament.on_six, standard, special)
            round_.mission = missions_by_slug[chosen.slug]
            round_.rolls = [missions.roll_data(r) for r in chosen.log]
        else:
            round_.mission, round_.rolls = None, []
        round_.save()
        games = [
            _game(roller, tournament, round_, p, missions_by_slug, specs, standard, special)
            for p in pairings
        ]
    _flag_lists(tournament, games, player_ids)
    insert_objects(Game, games)
    return games


def roll_and_create(actor: Actor, tournament: Tournament, round_: Round,
                    pairings: Sequence[pairing.Pairing], player_ids: Collection[int]) -> list[Game]:
    """What a paired round's games get (missions, pre-game rolls, scenario round, list flags),
    for a format that pairs its own units (a team event's matches): the same code, not a copy.
    With no pairings it sets up the round alone (its mission, rolled when one per round).
    ``player_ids``: the players of ``pairings`` (their lists are read once for the flags)."""
    return _roll_and_create(actor, tournament, round_, pairings, player_ids)


def roll_game(roller: Roller, tournament: Tournament, round_: Round, pairing_: pairing.Pairing) -> Game:
    """One game (unsaved) as a paired round's games are rolled: its mission is ``round_.mission``
    when set, else rolled from ``roller``; then its pre-game rolls. For games made one by one
    (a team draft seats its games as it goes)."""
    if round_.mission is not None:  # nothing to roll: the one mission's rules are enough
        mission = round_.mission
        return _game(roller, tournament, round_, pairing_, {mission.slug: mission},
                     {mission.slug: missions.mission_spec(mission)}, [], [])
    by_slug = {m.slug: m for m in Mission.objects.all()}
    specs = {slug: missions.mission_spec(m) for slug, m in by_slug.items()}
    standard, special = missions.mission_table(by_slug.values())
    return _game(roller, tournament, round_, pairing_, by_slug, specs, standard, special)


def flag_lists(tournament: Tournament, games: list[Game], player_ids: Collection[int]) -> None:
    """Note on unsaved games each player without a legal list (as a paired round's games)."""
    _flag_lists(tournament, games, player_ids)


def _plain_game(round_: Round, pairing_: pairing.Pairing) -> Game:
    """A table (or a bye, confirmed at once) without mission or pre-game rolls."""
    ids = pairing_.players
    game = Game(round=round_, table=pairing_.table, player_a_id=ids[0],
                player_b_id=ids[1] if len(ids) == 2 else None, deviations=list(pairing_.deviations))
    if len(ids) == 1:
        game.status = Game.Status.CONFIRMED  # a bye needs no report
    return game


NOT_DECISIONS = ("rolls", "players")  # of a PregameResult: the rest is stored as the decisions


def _game(roller: Roller, tournament: Tournament, round_: Round, pairing_: pairing.Pairing,
          missions_by_slug: dict[str, Mission], specs: dict[str, MissionSpec], standard: list[str],
          special: list[str]) -> Game:
    ids = pairing_.players
    game = _plain_game(round_, pairing_)
    if game.is_bye:
        return game
    rolls: list[dict[str, Any]] = []
    if round_.mission is None:
        chosen = roll_mission(roller, tournament.on_six, standard, special)
        rolls = [missions.roll_data(r) for r in chosen.log]
        game.mission = missions_by_slug[chosen.slug]
    else:
        game.mission = round_.mission
    result = pregame(roller, specs[game.mission.slug], tournament.level.slug, (str(ids[0]), str(ids[1])),
                     turn_system=tournament.turn_system)
    game.rolls = rolls + [missions.roll_data(r) for r in result.rolls]
    # The decisions are plain strings: read the fields (asdict would deep-copy every roll).
    game.pregame = {f.name: getattr(result, f.name) for f in fields(result) if f.name not in NOT_DECISIONS}
    if result.attacker is not None:
        game.roles = {result.attacker: "attacker", result.defender: "defender"}
    return game


def _flag_lists(tournament: Tournament, games: list[Game], player_ids: Collection[int]) -> None:
    """Note each player without a legal list for the chart their role needs."""
    rows = PlayerList.objects.filter(player__in=list(player_ids)).values_list(
        "player_id", "role", "army_list__valid", "army_list__chart__slug")
    lists = {(pid, role): (valid, chart) for pid, role, valid, chart in rows}
    for game in games:
        if game.is_bye or (game.mission is None and tournament.rules.rolls_missions):
            continue
        game.list_problems = [
            problem for pid in game.player_ids
            if (problem := _list_problem(tournament, game, pid, lists)) is not None
        ]


def _list_problem(tournament: Tournament, game: Game, pid: int,
                  lists: dict[tuple[int, str], tuple[bool, str]]) -> dict[str, Any] | None:
    role = game.roles.get(str(pid))
    role_chart = game.mission.role_charts.get(role) if role and game.mission else None
    key = (pid, role) if role_chart else (pid, "")
    chart = role_chart or tournament.chart.slug
    found = lists.get(key)
    if found is None:
        return {"player": pid, "code": "list_missing", "role": role, "chart": chart}
    if not found[0]:
        return {"player": pid, "code": "list_invalid", "role": role, "chart": chart}
    return None


def _publish(actor: Actor, tournament: Tournament, round_: Round) -> None:
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    record(actor, "round_published", tournament, round_, {"round": round_.number})
    notices.queue_round_published(round_)
    event_cache.warm_up(tournament.pk)  # every phone reloads the event page now
    complete_if_done(round_)


def get_round(tournament: Tournament, number: int, *, staff: bool) -> Round:
    round_ = tournament.round_set.filter(number=number).select_related("mission", "clock").first()
    if round_ is None or (round_.status == Round.Status.DRAFT and not staff):
        raise NotFound(_("No such round."), "round_not_found")
    return round_


@transaction.atomic
def publish_round(actor: Actor, tournament: Tournament, number: int) -> Round:
    require_staff(actor)
    locked = locked_tournament(tournament)
    round_ = get_round(locked, number, staff=True)
    if round_.status == Round.Status.DRAFT:
        _publish(actor, locked, round_)
    return round_


@transaction.atomic
def repair_published_round(actor: Actor, tournament: Tournament, number: int,
                           confirmation: Any) -> Round:
    """Re-pair a published round: the organiser types its number; no result may exist yet."""
    require_staff(actor)
    locked = locked_tournament(tournament)
    _check_pairs_players(locked)
    round_ = get_round(locked, number, staff=True)
    if str(confirmation).strip() != str(number):
        raise Invalid(_("Type the round number (%(number)s) to confirm.") % {"number": number},
                      "confirmation_mismatch")
    if locked.round_set.filter(number__gt=number).exists():
        raise Conflict(_("Only the latest round can be paired again."), "round_not_latest")
    # Lock the games before looking for reports: a report being written now is either
    # committed (and seen below) or finds its game deleted, never deleted with it.
    list(Game.objects.select_for_update().filter(round=round_).values_list("pk", flat=True))
    if round_.games.filter(reports__isnull=False).exists():
        raise Conflict(_("Results have been reported in this round: it can no longer be paired again."),
                       "round_has_results")
    was_published = round_.status != Round.Status.DRAFT
    round_.status = Round.Status.DRAFT
    round_.save(update_fields=["status"])
    record(actor, "round_unpublished", locked, round_, {"round": number})
    return pair_next_round(actor, locked, draft=not was_published)


MAX_SCENARIO = 5000


@transaction.atomic
def set_scenario(actor: Actor, tournament: Tournament, number: int, text: str) -> Round:
    """Staff write the scenario a round is played with (systems without rolled missions, or a
    note beside a rolled one); the text is kept as typed, at most MAX_SCENARIO characters."""
    require_staff(actor)
    locked = locked_tournament(tournament)
    round_ = get_round(locked, number, staff=True)
    text = text.strip()
    if len(text) > MAX_SCENARIO:
        raise Invalid(_("A scenario has at most %(max)s characters.") % {"max": MAX_SCENARIO},
                      "scenario_too_long")
    if round_.scenario != text:
        previous, round_.scenario = round_.scenario, text
        round_.save(update_fields=["scenario"])
        record(actor, "round_scenario", locked, round_, {"round": number, "before": previous, "after": text})
    return round_


def complete_if_done(round_: Round) -> None:
    """Mark a published round completed once every game is confirmed (and back if reopened)."""
    if round_.status == Round.Status.DRAFT:
        return
    open_games = round_.games.exclude(status=Game.Status.CONFIRMED).exists()
    status = Round.Status.PUBLISHED if open_games else Round.Status.COMPLETED
    if round_.status != status:
        round_.status = status
        round_.save(update_fields=["status"])
        if status == Round.Status.COMPLETED:  # the final standings of the round are read now
            event_cache.warm_up(round_.tournament_id)
