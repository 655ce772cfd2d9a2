"""Frozen dataclasses describing the Cities of Death catalogue as the pure engines need it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["attacker", "defender"]
ROLES: tuple[str, ...] = ("attacker", "defender")

EXCEPTION_KINDS = ("repeatable", "free", "extra", "forbidden_category")
OBJECTIVE_KINDS = (
    "flags",
    "capture_building",
    "hold",
    "annihilation",
    "enemy_positions",
    "breakout",
    "destroy_hq_ruin",
    "reinforce",
    "plant_all_flags",
    "blitz",
    "assassination",
)
FIRST_TURN_MODES = ("roll_off", "attacker", "defender")
OWN_OPERATIONAL_MODES = ("both", "attacker", "none")

# Special-rule slug of Dawn & Dusk (rules §7.2); the pre-game engine rolls for it when present.
DAWN_AND_DUSK = "aube-crepuscule"


@dataclass(frozen=True)
class LevelSpec:
    """A mission level (rules §2.2): only what the engines read."""

    slug: str
    stratagems_per_player: int


@dataclass(frozen=True)
class StratagemSpec:
    """A stratagem and the slug of its category (rules §3.4)."""

    slug: str
    category: str


@dataclass(frozen=True)
class StratagemException:
    """A mission's change to the stratagem quota (rules §3.1, §8.3–§8.6).

    - ``repeatable``: ``stratagem`` may be declared more than once (``count`` copies, None = any).
    - ``free``: up to ``count`` copies of ``stratagem`` (None = any number) are outside the quota.
    - ``extra``: ``count`` more slots, usable only by stratagems of ``category``.
    - ``forbidden_category``: no stratagem of ``category`` may be declared.

    ``role`` None means the exception applies to both players.
    ``counts_toward_limit`` False makes copies of a ``repeatable`` stratagem free too.
    """

    kind: str
    role: str | None = None
    stratagem: str | None = None
    category: str | None = None
    count: int | None = None
    counts_toward_limit: bool = True

    def __post_init__(self) -> None:
        if self.kind not in EXCEPTION_KINDS:
            raise ValueError(f"unknown stratagem exception kind {self.kind!r}")
        if self.role is not None and self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if self.kind in ("repeatable", "free") and not self.stratagem:
            raise ValueError(f"a {self.kind!r} exception needs a stratagem slug")
        if self.kind in ("extra", "forbidden_category") and not self.category:
            raise ValueError(f"a {self.kind!r} exception needs a category slug")
        if self.kind == "extra" and (self.count is None or self.count < 1):
            raise ValueError("an 'extra' exception needs a count of at least 1")
        if self.count is not None and self.count < 1:
            raise ValueError("an exception count must be at least 1 (or None for any number)")

    def applies_to(self, role: str | None) -> bool:
        """True when this exception concerns a player holding ``role``."""
        return self.role is None or self.role == role

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> StratagemException:
        """Build from the catalogue's JSON shape."""
        return cls(
            kind=data["kind"],
            role=data.get("role"),
            stratagem=data.get("stratagem"),
            category=data.get("category"),
            count=data.get("count"),
            counts_toward_limit=data.get("counts_toward_limit", data["kind"] != "free"),
        )


@dataclass(frozen=True)
class VpRules:
    """How a mission scores victory points (rules §7.6, §8.6, §8.7; api-v1 victory-points).

    ``own_operational``: whose own operational units still on the table score their points.
    ``defender_doubles``: the defender scores double for attacker units destroyed or damaged.
    ``attacker_scores_exits``: the attacker scores the points of its units that left the table.
    """

    own_operational: str = "both"
    defender_doubles: bool = False
    attacker_scores_exits: bool = False

    def __post_init__(self) -> None:
        if self.own_operational not in OWN_OPERATIONAL_MODES:
            raise ValueError(f"unknown own_operational mode {self.own_operational!r}")

    @property
    def needs_roles(self) -> bool:
        """True when scoring depends on which side attacks."""
        return (
            self.own_operational == "attacker"
            or self.defender_doubles
            or self.attacker_scores_exits
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> VpRules:
        """Build from the catalogue's JSON shape."""
        return cls(
            own_operational=data.get("own_operational", "both"),
            defender_doubles=bool(data.get("defender_doubles", False)),
            attacker_scores_exits=bool(data.get("attacker_scores_exits", False)),
        )


@dataclass(frozen=True)
class MissionSpec:
    """A mission (rules §6, §8): only what the engines read."""

    slug: str
    kind: str
    objective_kind: str
    d6: int | None = None
    order: int = 0
    uses_victory_points: bool = False
    roles: tuple[str, ...] = ()
    first_turn: str = "roll_off"
    # Mapping level slug -> special-rule slugs; excluded from hashing because dicts are unhashable.
    special_rules_by_level: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    victory_points: VpRules = field(default_factory=VpRules)
    stratagem_exceptions: tuple[StratagemException, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in ("standard", "special"):
            raise ValueError(f"unknown mission kind {self.kind!r}")
        if self.objective_kind not in OBJECTIVE_KINDS:
            raise ValueError(f"unknown objective kind {self.objective_kind!r}")
        if self.first_turn not in FIRST_TURN_MODES:
            raise ValueError(f"unknown first_turn mode {self.first_turn!r}")
        if self.roles not in ((), ROLES):
            raise ValueError("roles must be empty or ('attacker', 'defender')")
        if self.first_turn != "roll_off" and not self.roles:
            raise ValueError("a mission without roles must roll off for the first turn")

    @property
    def has_roles(self) -> bool:
        """True for missions with an attacker and a defender."""
        return bool(self.roles)

    def special_rules(self, level: str) -> tuple[str, ...]:
        """The special-rule slugs in play at ``level`` (empty when the level is not listed)."""
        return tuple(self.special_rules_by_level.get(level, ()))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> MissionSpec:
        """Build from the catalogue's JSON shape (unknown keys such as names are ignored)."""
        rules_by_level = data.get("special_rules_by_level") or {}
        return cls(
            slug=data["slug"],
            kind=data["kind"],
            objective_kind=data["objective_kind"],
            d6=data.get("d6"),
            order=data.get("order", 0),
            uses_victory_points=bool(data.get("uses_victory_points", False)),
            roles=tuple(data.get("roles") or ()),
            first_turn=data.get("first_turn", "roll_off"),
            special_rules_by_level={lvl: tuple(r) for lvl, r in rules_by_level.items()},
            victory_points=VpRules.from_mapping(data.get("victory_points") or {}),
            stratagem_exceptions=tuple(
                StratagemException.from_mapping(e) for e in data.get("stratagem_exceptions") or ()
            ),
        )
