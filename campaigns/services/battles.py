"""The battles of a campaign turn (R17, R28–R32, G12–G14, G17).

Staff generate them once the attacks and reactions are declared: one per attacked territory,
each contested one a league ``Game`` of the turn's round between the two sides' players. The
players report and confirm it through ``games/{id}/report/`` and ``confirm/``; the report's
``"campaign": {"swept", "destroyed"}`` is checked here (``report_outcome``) and kept in the
report's outcome, so a disagreement on it is a disputed result like any other. Then the winner
says who stays and the loser where each detachment retreats (``make_choices``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from campaigns import notice_queue as notices
from campaigns.engine.battles import Battle, battles
from campaigns.engine.map import adjacent, enemy
from campaigns.engine.state import ATTACKS_PHASE, CampaignState
from campaigns.engine.turn import BattleResult, retreat_options
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignBattle, CampaignOrder, CampaignReveal, CampaignTurn
from campaigns.services import air as campaign_air
from campaigns.services import declarations as campaign_declarations
from campaigns.services.campaign import (
    army_points_of,
    control_of,
    locked,
    refusal,
    settings_of,
    side_of_actor,
    sides_of,
    staff_turn,
    state_of,
    turn_row,
)
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Game
from systems.registry import campaign_system

BATTLES_PHASE = "battles"  # the turn's phase once its battles are generated: no more orders
RETREAT_CHOICE_REQUIRED = "retreat_choice_required"


def engine_battles(campaign: Campaign, state: CampaignState) -> dict[str, Battle]:
    """The engine's battles of ``state``, by territory."""
    basis = settings_of(campaign).battle_points_basis
    return {b.territory: b for b in battles(state, basis=basis, army_points=army_points_of(campaign))}


def attacker_reserves(battle: CampaignBattle) -> list[str]:
    """R30: the attacker's airborne detachments « ne venant pas d'un territoire adjacent »
    follow the reserves rules: landings from orbit, and transports from a base that is not
    adjacent to the battle."""
    adjacency = settings_of(battle.turn.campaign).adjacency
    names: list[str] = []
    for row in CampaignOrder.objects.filter(pk__in=battle.attack_ids).order_by("pk"):
        if not row.from_code or not adjacent(row.from_code, battle.territory, adjacency):
            names += list(row.detachments)
    return names


def _reveal(campaign: Campaign, turn: CampaignTurn, fight: Battle) -> None:
    """R12: « … que lorsqu'une bataille est engagée »: every detachment in the battle is seen by
    the enemy from now on."""
    sides = sides_of(campaign)
    fighting = {fight.attacker: fight.attackers,
                fight.defender: fight.defender_deployed + fight.defender_reserves}
    for side, names in fighting.items():
        for det in sides[side].detachments.filter(name__in=names):
            seen, created = CampaignReveal.objects.get_or_create(
                detachment=det, to_side=enemy(side),
                defaults={"source": "battle", "turn": turn.number})
            if not created and seen.level != CampaignReveal.FULL:  # only its war engines (R25)
                seen.level, seen.source, seen.turn = CampaignReveal.FULL, "battle", turn.number
                seen.save(update_fields=["level", "source", "turn"])


def _create(campaign: Campaign, turn: CampaignTurn, fight: Battle, table: int | None
            ) -> CampaignBattle:
    game = None
    if fight.contested:
        sides = sides_of(campaign)
        attacker, defender = sides[fight.attacker].player, sides[fight.defender].player
        game = Game.objects.create(round=turn.round, table=table, player_a=attacker,
                                   player_b=defender,
                                   roles={str(attacker.pk): "attacker", str(defender.pk): "defender"})
        _reveal(campaign, turn, fight)
    return CampaignBattle.objects.create(
        turn=turn, game=game, territory=fight.territory, attacker=fight.attacker,
        defender=fight.defender, contested=fight.contested, attack_ids=list(fight.attack_ids),
        attackers=list(fight.attackers), defender_deployed=list(fight.defender_deployed),
        defender_reserves=list(fight.defender_reserves), attacker_points=fight.attacker_points,
        defender_points=fight.defender_points, fortifications=fight.fortifications,
        at_stake=dict(fight.at_stake), isolated=list(fight.isolated))


@transaction.atomic
def generate_battles(actor: Actor, campaign: Campaign, number: int) -> list[CampaignBattle]:
    """Step 5 of the turn: the battle sheets of the accepted attacks (campaigns/engine/battles).
    Closes the attacks phase: the battles are fixed once their games exist."""
    row, turn = staff_turn(actor, campaign, number)
    if turn.phase == BATTLES_PHASE:
        raise Conflict(_("The battles of this turn are already generated."), "battles_generated")
    if turn.phase != ATTACKS_PHASE:
        raise Conflict(_("Battles come from the attacks: open the attacks phase first."),
                       "phase_order")
    campaign_declarations.reveal(actor, row, turn)  # G11: sealed attacks and reactions
    campaign_air.before_next_step(actor, row, turn, None)  # R14: landings intercepted first
    fights = engine_battles(row, state_of(row, turn)).values()
    created, table = [], 0
    for fight in fights:
        table += fight.contested
        created.append(_create(row, turn, fight, table if fight.contested else None))
    turn.phase = BATTLES_PHASE
    turn.save(update_fields=["phase"])
    notices.queue_campaign_battles(row, number)
    record(actor, "campaign_battles_generated", row.tournament, turn,
           {"campaign": row.slug, "turn": number,
            "battles": [{"id": b.pk, "territory": b.territory, "game": b.game_id} for b in created]})
    return created


# Results ----------------------------------------------------------------------------------

def winner_side(battle: CampaignBattle) -> str | None:
    """The side that won a confirmed battle (None: a draw, G12); an undefended territory is the
    attacker's (G13)."""
    if not battle.contested:
        return battle.attacker
    winner = battle.game.winner_id
    if winner is None:
        return None
    return battle.attacker if winner == battle.game.player_a_id else battle.defender


def confirmed(battle: CampaignBattle) -> bool:
    return not battle.contested or (battle.game is not None
                                    and battle.game.status == Game.Status.CONFIRMED)


def battle_result(battle: CampaignBattle) -> BattleResult | None:
    """What was reported and chosen for ``battle``; None while its game is unconfirmed."""
    if not confirmed(battle):
        return None
    facts = (battle.game.outcome or {}).get("campaign", {}) if battle.contested else {}
    return BattleResult(winner_side(battle), frozenset(facts.get("swept", ())),
                        frozenset(facts.get("destroyed", ())), frozenset(battle.stay),
                        dict(battle.retreat_to))


def battle_results(turn: CampaignTurn) -> dict[str, BattleResult]:
    """The known results of the turn's battles, by territory (the engine's close reads them)."""
    out = {}
    for battle in turn.battles.select_related("game"):
        result = battle_result(battle)
        if result is not None:
            out[battle.territory] = result
    return out


def control_after(campaign: Campaign, turn: CampaignTurn) -> dict[str, str]:
    """The map once the known results are applied: retreats look at it (R32, G14)."""
    control = control_of(campaign)
    for battle in turn.battles.select_related("game"):
        if confirmed(battle) and winner_side(battle) == battle.attacker:
            control[battle.territory] = battle.attacker
    return control


def report_outcome(game: Game, outcome: Mapping[str, Any], facts: Mapping[str, Any] | None
                   ) -> dict[str, Any]:
    """The outcome a report of ``game`` stores (events/services/results.report): a campaign
    battle's ``"campaign"`` facts are checked against the battle and kept under that key."""
    if facts is None and game.round.tournament.game_system.slug != campaign_system().slug:
        return dict(outcome)
    battle = CampaignBattle.objects.filter(game=game).first()
    if battle is None:
        if facts is None:
            return dict(outcome)
        raise Invalid(_("Only the battles of a campaign carry “campaign”."), "campaign_not_used")
    # The close locks the turn too: a result cannot change under a closing turn.
    turn = CampaignTurn.objects.select_for_update(of=("self",)).get(pk=battle.turn_id)
    if turn.closed_at is not None:
        raise Conflict(_("Turn %(number)s is closed.") % {"number": turn.number}, "turn_closed")
    facts = facts or {}
    swept, destroyed = sorted(set(facts.get("swept", ()))), sorted(set(facts.get("destroyed", ())))
    fighting = set(battle.attackers + battle.defender_deployed + battle.defender_reserves)
    for name in swept + destroyed:
        if name not in fighting:
            raise refusal("detachment_not_in_battle",
                          {"detachment": name, "territory": battle.territory})
    return {**outcome, "campaign": {"swept": swept, "destroyed": destroyed}}


# Choices after a battle -------------------------------------------------------------------

def retreat_choices(campaign: Campaign, turn: CampaignTurn, battle: CampaignBattle
                    ) -> dict[str, tuple[str, ...]]:
    """Where each of the loser's surviving detachments may retreat: the nearest friendly
    territories once the known results are applied (R32, G14); empty: destroyed."""
    result = battle_result(battle)
    if result is None:
        return {}
    state = state_of(campaign, turn)
    fight = engine_battles(campaign, state)[battle.territory]
    return dict(retreat_options(state, fight, result, control_after(campaign, turn)))


def _check_stay(battle: CampaignBattle, keeper: str, stay: Sequence[str]) -> None:
    """R32: the winner's detachments in the battle may stay; G12: after a draw only the
    defender's reactors may (its deployed detachments are there already)."""
    result = battle_result(battle)
    gone = result.destroyed if result is not None else frozenset()
    allowed = set(battle.attackers if keeper == battle.attacker else battle.defender_reserves)
    for name in stay:
        if name not in allowed or name in gone:
            raise refusal("stay_invalid", {"detachment": name, "territory": battle.territory})


def _check_retreat(options: Mapping[str, tuple[str, ...]], chosen: Mapping[str, str]) -> None:
    """G14: a retreat goes to one of the nearest friendly territories; with two or more, the
    owner must say which."""
    for name in chosen:
        if name not in options or not options[name]:
            raise Invalid(_("“%(detachment)s” does not retreat from this battle.")
                          % {"detachment": name}, "retreat_not_needed")
    for name, codes in options.items():
        pick = chosen.get(name)
        if not codes or (pick is None and len(codes) == 1):
            continue
        if pick not in codes:
            params = {"detachment": name, "options": list(codes)}
            raise Invalid(campaign_message(RETREAT_CHOICE_REQUIRED, params),
                          RETREAT_CHOICE_REQUIRED, **params)


def get_battle(campaign: Campaign, battle_id: int) -> CampaignBattle:
    battle = CampaignBattle.objects.select_related("game", "turn").filter(
        pk=battle_id, turn__campaign=campaign).first()
    if battle is None:
        raise NotFound(_("This campaign has no such battle."), "battle_not_found")
    return battle


@transaction.atomic
def make_choices(actor: Actor, campaign: Campaign, battle_id: int, *,
                 stay: Sequence[str] | None = None,
                 retreat_to: Mapping[str, str] | None = None) -> CampaignBattle:
    """R32 once the result is confirmed: the winner (``stay``) and the loser (``retreat_to``)."""
    row = locked(campaign)
    battle = get_battle(row, battle_id)
    mine = None if actor.is_staff else side_of_actor(actor, row)
    if not actor.is_staff and mine is None:
        raise Forbidden(_("Only the campaign's players and organisers can do this."),
                        "not_a_participant")
    turn = turn_row(row, battle.turn.number)
    if not confirmed(battle):
        raise refusal("battles_unconfirmed", {"territory": battle.territory}, Conflict)
    if stay is None and retreat_to is None:
        raise Invalid(_("Send “stay” or “retreat_to”."), "choice_required")
    winner = winner_side(battle)
    keeper = winner if winner is not None else battle.defender
    if stay is not None:
        if mine is not None and mine.side != keeper:
            raise Forbidden(_("Only the winner chooses who stays."), "not_your_choice")
        _check_stay(battle, keeper, stay)
        battle.stay = sorted(set(stay))
    if retreat_to is not None:
        if mine is not None and mine.side != battle.defender:
            raise Forbidden(_("Only the defeated defender chooses where to retreat."),
                            "not_your_choice")
        if winner != battle.attacker:
            raise Invalid(_("Nobody retreats from this battle."), "retreat_not_needed")
        _check_retreat(retreat_choices(row, turn, battle), retreat_to)
        battle.retreat_to = dict(retreat_to)
    battle.save(update_fields=["stay", "retreat_to"])
    record(actor, "campaign_battle_choices", row.tournament, battle,
           {"campaign": row.slug, "battle": battle.pk, "territory": battle.territory,
            "stay": battle.stay, "retreat_to": battle.retreat_to})
    return battle
