"""Closing a turn (steps 5–7 of *Déroulement d'un tour de jeu* and the end-of-turn D6).

G20 order: battles applied → isolation for the next turn → territory score → other-sectors D6 →
victory check. The players' confirmed battle results come in; the next turn's state, the control
changes, the score entries and the victory (if any) go out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from campaigns.engine.battles import ENEMY_FORCE, Battle, battles
from campaigns.engine.map import SIDES, enemy, home_side, isolated, nearest_friendly
from campaigns.engine.scoring import (
    BATTLE_WON,
    EVERY_TURN_HELD,
    ISOLATED_LOST,
    OTHER_SECTORS,
    OTHER_SECTORS_TABLE,
    SWEPT,
    VICTORY_SCORE,
    OtherSectors,
    ScoreEntry,
    Victory,
    detachment_loss_penalty,
    other_sectors,
    roll_other_sectors,
    territory_entries,
    victory,
)
from campaigns.engine.state import FORTIFY, CampaignState
from config.refusals import CodedRefusal
from missions.dice import Roller


class CloseRefused(CodedRefusal):
    """The turn cannot close yet: a stable code and its params."""


@dataclass(frozen=True)
class BattleResult:
    """What the players reported and chose for one battle (keyed by its territory).

    ``winner`` is a side, or None for a draw (G12: the defender keeps the territory and the
    attackers go back). ``swept`` and ``destroyed`` name detachments of either side; ``stay``
    names the winner's detachments that stay in the territory (the others go back where they
    came from, R32); ``retreat_to`` sends each of the loser's defending detachments to one of
    its nearest friendly territories when there is a choice (G14).
    """

    winner: str | None
    swept: frozenset[str] = frozenset()
    destroyed: frozenset[str] = frozenset()
    stay: frozenset[str] = frozenset()
    retreat_to: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CloseSettings:
    territory_scoring: str = EVERY_TURN_HELD
    battle_points_basis: str = ENEMY_FORCE
    army_points: Mapping[str, int] | None = None
    other_sectors_table: Mapping[int, int] = field(default_factory=lambda: OTHER_SECTORS_TABLE)
    victory_score: int = VICTORY_SCORE


@dataclass(frozen=True)
class ControlChange:
    territory: str
    from_side: str
    to_side: str


@dataclass(frozen=True)
class Relocation:
    """A detachment that changed place at the close: ``to`` None means destroyed."""

    side: str
    detachment: str
    from_code: str | None
    to: str | None
    reason: str  # stay | retreat | destroyed


@dataclass(frozen=True)
class TurnClose:
    state: CampaignState
    control_changes: tuple[ControlChange, ...]
    isolated_next_turn: frozenset[str]
    entries: tuple[ScoreEntry, ...]
    other_sectors: Mapping[str, OtherSectors]
    scores: Mapping[str, int]
    victory: Victory | None
    relocations: tuple[Relocation, ...]


def retreat_options(state: CampaignState, battle: Battle, result: BattleResult,
                    control: Mapping[str, str]) -> Mapping[str, tuple[str, ...]]:
    """Where each of the losing defender's surviving detachments may retreat (R32, G14)."""
    if result.winner != battle.attacker or not battle.contested:
        return {}
    gone = result.destroyed | set(battle.isolated)
    return {name: nearest_friendly(control, battle.defender, battle.territory, state.adjacency)
            for name in battle.defender_deployed + battle.defender_reserves if name not in gone}


def close_turn(
    state: CampaignState, results: Mapping[str, BattleResult], scores: Mapping[str, int], *,
    settings: CloseSettings | None = None, other_sectors_dice: Mapping[str, int] | None = None,
    roller: Roller | None = None, surrendered: frozenset[str] = frozenset(),
) -> TurnClose:
    """Apply the battles and score the turn. ``scores`` are the totals before this turn's
    entries. Each side's other-sectors die comes from ``other_sectors_dice`` or, failing that,
    ``roller`` (west's first). Raises CloseRefused: ``battles_unconfirmed``,
    ``retreat_choice_required``, ``stay_invalid``, ``major_unguarded``."""
    cfg = settings or CloseSettings()
    fights = battles(state, basis=cfg.battle_points_basis, army_points=cfg.army_points)
    for battle in fights:
        if battle.contested and battle.territory not in results:
            raise CloseRefused("battles_unconfirmed", territory=battle.territory)
        _check_names(battle, results.get(battle.territory))

    # 1. Battles: control first, so every retreat looks at the map after all the battles.
    control = dict(state.control)
    changes = []
    for battle in fights:
        result = _result_for(battle, results)
        if result.winner == battle.attacker:
            changes.append(ControlChange(battle.territory, battle.defender, battle.attacker))
            control[battle.territory] = battle.attacker
    entries: list[ScoreEntry] = []
    relocations: list[Relocation] = []
    after = replace(state, control=control)
    for battle in fights:
        result = _result_for(battle, results)
        after = _apply_battle(after, battle, result, control, entries, relocations)
    _check_majors_after(state, after, relocations)

    # R27/G29: a fortification lasts until the territory changes hands; a requested one is made
    # if the side still holds the territory.
    changed = {c.territory for c in changes}
    fortified = {code for code in state.fortified if code not in changed}
    fortified |= {a.order.to for a in state.accepted(kinds=(FORTIFY,))
                  if a.order.to and control[a.order.to] == a.order.side}

    # 2. Isolation for the next turn (R33).
    isolated_next = isolated(control)

    # 3. Territory score (R36, G16).
    captured = frozenset(c.territory for c in changes if c.from_side == home_side(c.territory))
    entries += territory_entries(control, state.majors, mode=cfg.territory_scoring,
                                 captured=captured)

    # 4. Other sectors (R40, G19): each side rolls for its own score, west first.
    totals = {side: scores.get(side, 0) + sum(e.points for e in entries if e.side == side)
              for side in SIDES}
    sectors = {}
    for side in SIDES:
        if other_sectors_dice and side in other_sectors_dice:
            outcome = other_sectors(other_sectors_dice[side], totals[side], cfg.other_sectors_table)
        elif roller is not None:
            outcome = roll_other_sectors(roller, totals[side], side, cfg.other_sectors_table)
        else:
            raise ValueError("the other-sectors dice need entered faces or a roller")
        sectors[side] = outcome
        entries.append(ScoreEntry(side, OTHER_SECTORS, outcome.delta))
        totals[side] = outcome.new_score

    # 5. Victory (R35, G21).
    won = victory(control, totals, threshold=cfg.victory_score, surrendered=surrendered)
    next_state = replace(after, control=control, isolated=isolated_next,
                         fortified=frozenset(fortified), phase=None, orders=())
    return TurnClose(next_state, tuple(changes), isolated_next, tuple(entries), sectors,
                     totals, won, tuple(relocations))


def _result_for(battle: Battle, results: Mapping[str, BattleResult]) -> BattleResult:
    """The reported result; an undefended territory is the attacker's whatever was sent (G13)."""
    result = results.get(battle.territory)
    if battle.contested and result is not None:
        return result
    return replace(result or BattleResult(winner=battle.attacker), winner=battle.attacker)


def _check_names(battle: Battle, result: BattleResult | None) -> None:
    if result is None:
        return
    if result.winner is not None and result.winner not in (battle.attacker, battle.defender):
        raise ValueError(f"unknown side {result.winner!r}")
    fighting = set(battle.attackers + battle.defender_deployed + battle.defender_reserves)
    for name in result.swept | result.destroyed:
        if name not in fighting:
            raise CloseRefused("detachment_not_in_battle", detachment=name,
                               territory=battle.territory)
    winners = (set(battle.attackers) if result.winner == battle.attacker
               else set(battle.defender_reserves))
    for name in result.stay:
        if name not in winners:
            raise CloseRefused("stay_invalid", detachment=name, territory=battle.territory)


def _side_of(battle: Battle, name: str) -> str:
    return battle.attacker if name in battle.attackers else battle.defender


def _apply_battle(state: CampaignState, battle: Battle, result: BattleResult,
                  control: Mapping[str, str], entries: list[ScoreEntry],
                  relocations: list[Relocation]) -> CampaignState:
    if not battle.contested:  # G13: captured without a battle, no battle score
        return _stays(state, battle, result, relocations)
    winner = result.winner
    if winner is not None:  # R37
        gained = battle.at_stake["attacker" if winner == battle.attacker else "defender"]
        if gained:
            entries.append(ScoreEntry(winner, BATTLE_WON, gained, battle.territory))
    loser = enemy(winner) if winner is not None else None
    # R34: isolated detachments « sont détruits totalement s'ils perdent une bataille ».
    isolated_lost = {n for n in battle.isolated if loser is not None and _side_of(battle, n) == loser}
    destroyed = set(result.destroyed) | isolated_lost
    for name in sorted(destroyed | result.swept):
        side = _side_of(battle, name)
        det = state.detachment(side, name)
        was_isolated = name in battle.isolated and name in destroyed
        penalty = detachment_loss_penalty(det.points, isolated=was_isolated,
                                          swept=name in result.swept)
        if penalty:  # R38/R39: the larger loss, labelled by the rule that gave it
            kind = ISOLATED_LOST if was_isolated else SWEPT
            entries.append(ScoreEntry(side, kind, -penalty, name))
    for name in sorted(destroyed):
        side = _side_of(battle, name)
        det = state.detachment(side, name)
        relocations.append(Relocation(side, name, det.location, None, "destroyed"))
        state = state.moved(side, name, None, destroyed=True)
    state = _stays(state, battle, result, relocations, skip=destroyed)
    if winner == battle.attacker:
        options = retreat_options(state, battle, result, control)
        for name, codes in options.items():
            if name in destroyed:
                continue
            det = state.detachment(battle.defender, name)
            if not codes:  # G14: nowhere to go, the detachment is destroyed
                relocations.append(Relocation(battle.defender, name, det.location, None, "destroyed"))
                state = state.moved(battle.defender, name, None, destroyed=True)
                continue
            chosen = result.retreat_to.get(name)
            if chosen is None and len(codes) == 1:
                chosen = codes[0]
            if chosen not in codes:
                raise CloseRefused("retreat_choice_required", detachment=name, options=list(codes))
            relocations.append(Relocation(battle.defender, name, det.location, chosen, "retreat"))
            state = state.moved(battle.defender, name, chosen)
    return state


def _stays(state: CampaignState, battle: Battle, result: BattleResult,
           relocations: list[Relocation], skip: frozenset[str] | set[str] = frozenset()
           ) -> CampaignState:
    """R32: the winner's detachments named in ``stay`` move into the territory; the others go
    back where they came from (they never left it on the map)."""
    winner = result.winner if result.winner is not None else battle.defender
    for name in sorted(result.stay - set(skip)):
        det = state.detachment(winner, name)
        if det is None or det.location == battle.territory:
            continue
        relocations.append(Relocation(winner, name, det.location, battle.territory, "stay"))
        state = state.moved(winner, name, battle.territory)
    return state


def _check_majors_after(before: CampaignState, after: CampaignState,
                        relocations: list[Relocation]) -> None:
    """R10: a stay choice may not leave one of the side's own majors that it still holds
    without a ground detachment."""
    for move in relocations:
        if move.reason != "stay" or move.from_code is None:
            continue
        code = move.from_code
        if (code in after.majors and home_side(code) == move.side
                and after.control[code] == move.side
                and not any(d.holds_ground for d in after.at(code, move.side))):
            raise CloseRefused("major_unguarded", territory=code)
