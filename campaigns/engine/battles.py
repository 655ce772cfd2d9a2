"""The battles a turn's accepted attacks and reactions call for (R17, R28–R31, R37, G13, G17).

All the attacks of one turn against one territory make one battle: the seed never has two
battles for one territory in a turn, and the defender cannot fight twice at once [Muster choice].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from campaigns.engine.map import CODES
from campaigns.engine.scoring import battle_win_points
from campaigns.engine.state import ATTACK, REACTION, CampaignState
from campaigns.engine.tools import INITIATIVE_COUNTERS, fortifications_allowed

ENEMY_FORCE, ENEMY_ARMY = "enemy_force", "enemy_army"  # G17, setting battle_points_basis
BATTLE_POINTS_BASES = (ENEMY_FORCE, ENEMY_ARMY)


@dataclass(frozen=True)
class Battle:
    """One battle: ``contested`` is False when nobody defends (G13: captured without a battle,
    no battle score, the attack still used). ``isolated`` lists the detachments fighting from an
    isolated territory (R34: destroyed if they lose)."""

    territory: str
    attack_ids: tuple[int, ...]
    attacker: str
    defender: str
    attackers: tuple[str, ...]
    defender_deployed: tuple[str, ...]
    defender_reserves: tuple[str, ...]
    attacker_points: int
    defender_points: int
    fortifications: int
    at_stake: Mapping[str, int]
    isolated: tuple[str, ...]
    contested: bool

    initiative_counters = INITIATIVE_COUNTERS  # R17: the attacker 3, the defender 2


def battles(
    state: CampaignState, *, basis: str = ENEMY_FORCE,
    army_points: Mapping[str, int] | None = None,
) -> tuple[Battle, ...]:
    """One battle per attacked territory, in map order.

    R30: the defender's detachments in the territory that did not react elsewhere deploy;
    reactors are reserves. R31: fortifications from the deployed force only. R37/G17: each side
    stakes 1 per full 1,000 points of the enemy force in the battle (reactors included), or of
    the enemy's whole army with ``basis="enemy_army"``.
    """
    if basis not in BATTLE_POINTS_BASES:
        raise ValueError(f"basis must be one of {BATTLE_POINTS_BASES}")
    attacks = state.accepted(kinds=(ATTACK,))
    out = []
    for code in CODES:
        here = [a for a in attacks if a.order.to == code]
        if not here:
            continue
        attacker = here[0].order.side
        defender = state.control[code]
        ids = tuple(a.id for a in here)
        attackers = tuple(n for a in here for n in a.order.detachments)
        reserves = tuple(n for a in state.accepted(defender, (REACTION,))
                         if a.order.for_attack in ids for n in a.order.detachments)
        committed = state.committed(defender)
        deployed = tuple(d.name for d in state.at(code, defender) if d.name not in committed)
        # R13: a landed detachment's vehicles still in orbit do not fight (force_points).
        points = {name: state.detachment(attacker, name).force_points for name in attackers}
        d_points = {name: state.detachment(defender, name).force_points
                    for name in deployed + reserves}
        attacker_total = sum(points.values())
        defender_total = sum(d_points.values())
        deployed_total = sum(d_points[n] for n in deployed)
        if basis == ENEMY_ARMY and army_points is not None:
            stake_vs_defender, stake_vs_attacker = army_points[defender], army_points[attacker]
        else:
            stake_vs_defender, stake_vs_attacker = defender_total, attacker_total
        isolated = tuple(
            [n for a in here if a.order.from_ in state.isolated for n in a.order.detachments]
            + ([*deployed] if code in state.isolated else [])
        )
        out.append(Battle(
            territory=code, attack_ids=ids, attacker=attacker, defender=defender,
            attackers=attackers, defender_deployed=deployed, defender_reserves=reserves,
            attacker_points=attacker_total, defender_points=defender_total,
            fortifications=fortifications_allowed(deployed_total, code in state.fortified),
            at_stake={"attacker": battle_win_points(stake_vs_defender),
                      "defender": battle_win_points(stake_vs_attacker)},
            isolated=isolated, contested=bool(deployed or reserves),
        ))
    return tuple(out)
