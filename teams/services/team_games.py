"""The games of a team round get what a paired round's games get (issue #26): the mission, per
round or per table as the event sets ``missions``, and the pre-game rolls from the event's seeded
dice stream, or for a system without rolled missions a plain table (the round carries the
scenario). The rolling is events' own (``events.services.rounds.roll_and_create``, ``roll_game``).

When each die is rolled, so that the same seed gives the same missions:

- ``draft: "none"``: the games are made at pairing, all at once, through the very call that
  pairs an individual event's round: the rolls follow the tables' order.
- ``draft: "wtc"``: every mission is rolled at pairing, before any draft move: the round's
  (per round) or each table's of the round, in table order (stored in the round's ``pairing``
  summary as ``table_missions``; the captains see them as they choose tables). The drafts of a
  round run side by side and a staff undo remakes games: a mission rolled when the draft seats
  its game would depend on which captain commits first and could be re-rolled by an undo. The
  pre-game rolls name the two players, so they are rolled when the draft seats them, from the
  event's stream (logged, never reused; an undone game's rolls stay in the log).
"""
from __future__ import annotations

import copy

from config.bulk_insert import insert_objects
from events.audit import Actor
from events.models import Game, Round, Tournament
from events.pairing import Pairing
from events.services import rounds as event_rounds
from missions import services as missions
from missions.models import Mission
from missions.selection import roll_mission
from teams.models import MatchGame, TeamMatch
from teams.services.draft_reads import members_of

TABLE_MISSIONS = "table_missions"  # key of the round's pairing summary: {"<table>": {mission, rolls}}


def games_in_order(actor: Actor, tournament: Tournament, round_: Round, matches: list[TeamMatch]) -> None:
    """No draft: member i against member i on the match's tables, rolled as a round's games."""
    pairings, links, ids = [], [], []
    rosters = members_of(sorted({team for match in matches for team in match.team_ids}))
    for match in matches:
        first, second = ([player for player, _user in rosters[team]] for team in (match.first_id, match.second_id))
        for i, pair in enumerate(zip(first, second, strict=True)):
            pairings.append(Pairing(match.first_table + i, pair))
            links.append(match)
            ids.extend(pair)
    games = event_rounds.roll_and_create(actor, tournament, round_, pairings, ids)
    insert_objects(MatchGame, [MatchGame(match=m, game=g, role="") for m, g in zip(links, games, strict=True)])


def missions_before_draft(actor: Actor, tournament: Tournament, round_: Round, tables: list[int]) -> None:
    """WTC draft: the round's mission (per round) or each table's (per table), rolled now."""
    event_rounds.roll_and_create(actor, tournament, round_, [], [])
    if not tournament.rules.rolls_missions or tournament.missions != Tournament.Missions.PER_TABLE:
        return
    standard, special = missions.mission_table()
    planned = {}
    with missions.rolling(tournament.dice, actor.user if actor.user_id else None, batch=True) as roller:
        for table in sorted(tables):
            chosen = roll_mission(roller, tournament.on_six, standard, special)
            planned[str(table)] = {"mission": chosen.slug, "rolls": [missions.roll_data(r) for r in chosen.log]}
    round_.pairing = {**round_.pairing, TABLE_MISSIONS: planned}
    round_.save(update_fields=["pairing"])


def seat_game(actor: Actor, match: TeamMatch, table: int, players: tuple[int, int], role: str) -> Game:
    """A game the draft has just fixed: its table's mission (rolled at pairing) and its
    pre-game rolls from the event's stream."""
    round_ = match.round
    tournament = round_.tournament
    pairing_ = Pairing(table, players)
    if not tournament.rules.rolls_missions:
        game = Game(round=round_, table=table, player_a_id=players[0], player_b_id=players[1])
    else:
        planned = round_.pairing.get(TABLE_MISSIONS, {}).get(str(table))
        seated = copy.copy(round_)  # the round as this table sees it: its mission is the table's
        if planned is not None:
            seated.mission = Mission.objects.get(slug=planned["mission"])
        with missions.rolling(tournament.dice, actor.user if actor.user_id else None) as roller:
            game = event_rounds.roll_game(roller, tournament, seated, pairing_)
        game.round = round_
        if planned is not None:
            game.rolls = planned["rolls"] + game.rolls
    event_rounds.flag_lists(tournament, [game], players)
    game.save()
    MatchGame.objects.create(match=match, game=game, role=role)
    return game
