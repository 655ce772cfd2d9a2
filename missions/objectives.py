"""Winner of a game from its objective outcome (rules §6.1–§6.5, §8.2–§8.7)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from missions.catalogue_types import ROLES
from missions.errors import CodedError
from missions.victory import VpResult

# The outcome each objective kind expects: key -> "count_by_side" | "bool_by_side" |
# "side_or_none" | "bool" | "count". Report forms can be built from this table.
OUTCOME_FIELDS: dict[str, dict[str, str]] = {
    "flags": {"flags": "count_by_side"},
    "hold": {"ruins": "count_by_side"},
    "capture_building": {"holder": "side_or_none"},
    "enemy_positions": {"occupies_enemy_ruin": "bool_by_side"},
    "breakout": {"units_exited": "count", "units_starting": "count", "units_destroyed": "count"},
    "destroy_hq_ruin": {"hq_ruin_destroyed": "bool"},
    "reinforce": {"building_captured": "bool"},
    "plant_all_flags": {"all_flags_planted": "bool"},
    "annihilation": {},
    "blitz": {},
    "assassination": {"target_hq_destroyed": "bool"},
}
OPTIONAL_KEYS = frozenset({"units_destroyed"})
BREAKOUT_BASES = ("starting", "surviving")


class OutcomeError(CodedError):
    """An outcome that does not fit its objective kind."""


@dataclass(frozen=True)
class Decision:
    """The winning side's name (None for a draw) and a reason code a template can translate."""

    winner: str | None
    reason: str


@dataclass(frozen=True)
class _Game:
    sides: tuple[str, str]
    outcome: Mapping[str, Any]
    roles: Mapping[str, str] | None
    vp: VpResult | None
    tie_break_by_vp: bool
    breakout_basis: str

    def by_role(self, role: str) -> str:
        if self.roles is None or sorted(self.roles.get(s, "") for s in self.sides) != sorted(ROLES):
            raise OutcomeError("roles_required")
        return next(side for side in self.sides if self.roles[side] == role)

    def vp_winner(self) -> str | None:
        if self.vp is None:
            raise OutcomeError("vp_required")
        if self.vp.winner is not None and self.vp.winner not in self.sides:
            raise OutcomeError("outcome_side_unknown", side=self.vp.winner)
        return self.vp.winner


def decide(
    objective_kind: str,
    outcome: Mapping[str, Any],
    *,
    sides: tuple[str, str],
    roles: Mapping[str, str] | None = None,
    vp: VpResult | None = None,
    tie_break_by_vp: bool = False,
    breakout_basis: str = "starting",
) -> Decision:
    """Decide the game from ``outcome`` (shape: OUTCOME_FIELDS[objective_kind]).

    Gaps made parameters: equal flag/ruin counts are a draw unless ``tie_break_by_vp`` (§6.1,
    §6.3 say nothing); Le Défi's "half of his units" counts against the ``starting`` army or
    the units ``surviving`` at the end (§8.2 does not say).
    """
    if objective_kind not in OUTCOME_FIELDS:
        raise OutcomeError("objective_kind_unknown", kind=objective_kind)
    if sides[0] == sides[1]:
        raise OutcomeError("sides_not_distinct")
    if breakout_basis not in BREAKOUT_BASES:
        raise ValueError(f"breakout_basis must be one of {BREAKOUT_BASES}")
    _validate_outcome(objective_kind, outcome, sides)
    game = _Game(sides, outcome, roles, vp, tie_break_by_vp, breakout_basis)
    return _DECIDERS[objective_kind](game)


def _validate_outcome(kind: str, outcome: Mapping[str, Any], sides: tuple[str, str]) -> None:
    if not isinstance(outcome, Mapping):
        raise OutcomeError("outcome_not_mapping")
    fields = OUTCOME_FIELDS[kind]
    unexpected = sorted(set(outcome) - set(fields))
    if unexpected:
        raise OutcomeError("outcome_key_unexpected", keys=unexpected)
    for key, shape in fields.items():
        if key not in outcome:
            if key in OPTIONAL_KEYS:
                continue
            raise OutcomeError("outcome_key_missing", key=key)
        _check_value(key, shape, outcome[key], sides)


def _check_value(key: str, shape: str, value: Any, sides: tuple[str, str]) -> None:
    if shape in ("count_by_side", "bool_by_side"):
        if not isinstance(value, Mapping) or set(value) != set(sides):
            raise OutcomeError("outcome_side_unknown", key=key, expected=list(sides))
        for item in value.values():
            _check_scalar(key, "count" if shape == "count_by_side" else "bool", item)
    elif shape == "side_or_none":
        if value is not None and value not in sides:
            raise OutcomeError("outcome_side_unknown", key=key, expected=list(sides))
    else:
        _check_scalar(key, shape, value)


def _check_scalar(key: str, shape: str, value: Any) -> None:
    is_bool = isinstance(value, bool)
    ok = is_bool if shape == "bool" else (isinstance(value, int) and not is_bool and value >= 0)
    if not ok:
        raise OutcomeError("outcome_value_invalid", key=key, expected=shape)


def _most(key: str) -> Callable[[_Game], Decision]:
    """Flags (§6.1) and Hold (§6.3): the side with the larger count wins."""

    def decide_most(game: _Game) -> Decision:
        a, b = (game.outcome[key][side] for side in game.sides)
        if a != b:
            return Decision(game.sides[0] if a > b else game.sides[1], f"most_{key}")
        if game.tie_break_by_vp:
            return Decision(game.vp_winner(), f"equal_{key}_vp")
        return Decision(None, f"equal_{key}")

    return decide_most


def _capture_building(game: _Game) -> Decision:
    """Position Stratégique (§6.2): the occupier of the vital building wins, else a draw."""
    holder = game.outcome["holder"]
    return Decision(holder, "building_held" if holder else "building_unheld")


def _enemy_positions(game: _Game) -> Decision:
    """Assaut Urbain (§6.5): occupying the enemy's ruin wins; both or neither is a draw."""
    takers = [side for side in game.sides if game.outcome["occupies_enemy_ruin"][side]]
    if len(takers) == 1:
        return Decision(takers[0], "enemy_position_taken")
    return Decision(None, "both_positions_taken" if takers else "no_position_taken")


def _breakout(game: _Game) -> Decision:
    """Le Défi (§8.2): the attacker wins by getting at least half of his units off the table."""
    exited = game.outcome["units_exited"]
    starting = game.outcome["units_starting"]
    destroyed = game.outcome.get("units_destroyed", 0)
    if exited + destroyed > starting:
        raise OutcomeError(
            "outcome_counts_inconsistent", exited=exited, destroyed=destroyed, starting=starting
        )
    base = starting - destroyed if game.breakout_basis == "surviving" else starting
    if exited > 0 and exited * 2 >= base:
        return Decision(game.by_role("attacker"), "breakout_succeeded")
    return Decision(game.by_role("defender"), "breakout_failed")


def _attacker_if(key: str) -> Callable[[_Game], Decision]:
    """Dévastation Totale, Renforts, Assaut Général (§8.3–§8.5): attacker iff done, else defender."""

    def decide_flag(game: _Game) -> Decision:
        if game.outcome[key]:
            return Decision(game.by_role("attacker"), key)
        return Decision(game.by_role("defender"), f"not_{key}")

    return decide_flag


def _by_vp(game: _Game) -> Decision:
    """Offensive Majeure (§6.4) and Attaque Éclair (§8.6): most victory points wins."""
    winner = game.vp_winner()
    return Decision(winner, "most_vp" if winner else "equal_vp")


def _assassination(game: _Game) -> Decision:
    """Assassinat (§8.7): if the target HQ died, most VP wins; otherwise the defender wins."""
    if not game.outcome["target_hq_destroyed"]:
        return Decision(game.by_role("defender"), "target_hq_survived")
    game.by_role("attacker")  # roles must be valid even when VP decide
    winner = game.vp_winner()
    return Decision(winner, "most_vp" if winner else "equal_vp")


_DECIDERS: dict[str, Callable[[_Game], Decision]] = {
    "flags": _most("flags"),
    "hold": _most("ruins"),
    "capture_building": _capture_building,
    "enemy_positions": _enemy_positions,
    "breakout": _breakout,
    "destroy_hq_ruin": _attacker_if("hq_ruin_destroyed"),
    "reinforce": _attacker_if("building_captured"),
    "plant_all_flags": _attacker_if("all_flags_planted"),
    "annihilation": _by_vp,
    "blitz": _by_vp,
    "assassination": _assassination,
}
