"""The Cities of Death catalogue written for the tests straight from rules/cities-of-death.md."""

from missions.catalogue_types import MissionSpec, StratagemException, VpRules

# api-v1.md "Slugs": standard missions by D6 1..5, special missions in catalogue order.
STANDARD = (
    "accrochage",
    "position-strategique",
    "domination",
    "offensive-majeure",
    "assaut-urbain",
)
SPECIAL = (
    "le-defi",
    "devastation-totale",
    "renforts",
    "assaut-general",
    "attaque-eclair",
    "assassinat",
)

KEY_BUILDINGS = "batiments-strategiques"
DIRTY_TRICKS = "coups-tordus"
DEPLOYMENT = "deploiement"

# §3.4 catalogue overview: stratagem -> category.
CATEGORIES = {
    **dict.fromkeys(
        (
            "depot-de-munitions",
            "centre-de-commandement",
            "reserve-de-carburant",
            "centre-medical",
            "centrale-energetique",
            "point-dobservation",
            "sanctuaire",
        ),
        KEY_BUILDINGS,
    ),
    **dict.fromkeys(
        (
            "piege",
            "batiment-mine",
            "fortifications",
            "snipers-delite",
            "tir-plongeant",
            "bombardement-preliminaire",
        ),
        DIRTY_TRICKS,
    ),
    **dict.fromkeys(
        ("sapeurs", "filins-de-rappel", "obus-de-siege", "equipement-de-demolition"), "arsenal"
    ),
    **dict.fromkeys(("fils-barbeles", "pieges-a-chars", "barricades"), "obstacles"),
    **dict.fromkeys(("frappe-en-profondeur", "infiltrateurs", "rats-degouts"), DEPLOYMENT),
}

# §2.2 / §7.1: stratagems per player.
ALLOWANCE = {"alpha": 1, "gamma": 2, "omega": 3}

# §6.0: special rules by level for missions 1, 2, 3, 5; §6.4 adds victory points.
_STANDARD_RULES = {
    "alpha": ("stratagemes",),
    "gamma": ("stratagemes", "aube-crepuscule"),
    "omega": ("stratagemes", "aube-crepuscule", "duree-aleatoire"),
}
_VP_RULES = {level: (*rules, "points-de-victoire") for level, rules in _STANDARD_RULES.items()}


def _special_rules(*rules: str) -> dict[str, tuple[str, ...]]:
    # §8.0: special missions list their rules without per-level variation.
    return dict.fromkeys(ALLOWANCE, ("stratagemes", "aube-crepuscule", "duree-aleatoire", *rules))


def _standard(slug: str, d6: int, objective: str) -> MissionSpec:
    vp = slug == "offensive-majeure"
    return MissionSpec(
        slug=slug,
        kind="standard",
        objective_kind=objective,
        d6=d6,
        order=d6,
        uses_victory_points=vp,
        special_rules_by_level=_VP_RULES if vp else _STANDARD_RULES,
    )


def _special(slug: str, order: int, objective: str, first_turn: str, **extra) -> MissionSpec:
    return MissionSpec(
        slug=slug,
        kind="special",
        objective_kind=objective,
        order=order,
        roles=("attacker", "defender"),
        first_turn=first_turn,
        **extra,
    )


MISSIONS = {
    m.slug: m
    for m in (
        _standard("accrochage", 1, "flags"),
        _standard("position-strategique", 2, "capture_building"),
        _standard("domination", 3, "hold"),
        _standard("offensive-majeure", 4, "annihilation"),
        _standard("assaut-urbain", 5, "enemy_positions"),
        # §8.2
        _special(
            "le-defi", 6, "breakout", "attacker", special_rules_by_level=_special_rules("reserves")
        ),
        # §8.3: more than one Mined Building (attacker); Fortify any number, outside the quota.
        _special(
            "devastation-totale",
            7,
            "destroy_hq_ruin",
            "roll_off",
            special_rules_by_level=_special_rules(),
            stratagem_exceptions=(
                StratagemException("repeatable", "attacker", stratagem="batiment-mine"),
                StratagemException("free", "defender", stratagem="fortifications"),
            ),
        ),
        # §8.4: one extra stratagem for the defender, a Strategic (Key) Building.
        _special(
            "renforts",
            8,
            "reinforce",
            "roll_off",
            special_rules_by_level=_special_rules("reserves"),
            stratagem_exceptions=(
                StratagemException("extra", "defender", category=KEY_BUILDINGS, count=1),
            ),
        ),
        # §8.5: a free Preliminary Bombardment for the attacker; the defender plays first.
        _special(
            "assaut-general",
            9,
            "plant_all_flags",
            "defender",
            special_rules_by_level=_special_rules("reserves"),
            stratagem_exceptions=(
                StratagemException(
                    "free", "attacker", stratagem="bombardement-preliminaire", count=1
                ),
            ),
        ),
        # §8.6: no Deployment stratagem for anyone; the defender's VP for losses are doubled.
        _special(
            "attaque-eclair",
            10,
            "blitz",
            "attacker",
            uses_victory_points=True,
            special_rules_by_level=_special_rules("points-de-victoire", "reserves"),
            victory_points=VpRules("both", defender_doubles=True, attacker_scores_exits=True),
            stratagem_exceptions=(
                StratagemException("forbidden_category", None, category=DEPLOYMENT),
            ),
        ),
        # §8.7: only the attacker's surviving scoring units are added.
        _special(
            "assassinat",
            11,
            "assassination",
            "attacker",
            uses_victory_points=True,
            special_rules_by_level=_special_rules("points-de-victoire", "reserves"),
            victory_points=VpRules("attacker"),
        ),
    )
}
