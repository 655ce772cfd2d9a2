"""Invariants of the Cities of Death catalogue data file (missions/data/cities_of_death.json)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from missions.catalogue_types import EXCEPTION_KINDS, OBJECTIVE_KINDS, MissionSpec

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "missions" / "data" / "cities_of_death.json"

# Expected values below come from the API contract (api-v1.md, "Slugs") and the rules digest,
# not from the data file itself.
LEVELS = ["alpha", "gamma", "omega"]
STRATAGEMS_PER_LEVEL = {"alpha": 1, "gamma": 2, "omega": 3}  # digest §2.2
CATEGORIES = ["batiments-strategiques", "coups-tordus", "arsenal", "obstacles", "deploiement"]
STRATAGEMS = [
    "depot-de-munitions",
    "centre-de-commandement",
    "reserve-de-carburant",
    "centre-medical",
    "centrale-energetique",
    "point-dobservation",
    "sanctuaire",
    "piege",
    "batiment-mine",
    "fortifications",
    "snipers-delite",
    "tir-plongeant",
    "bombardement-preliminaire",
    "sapeurs",
    "filins-de-rappel",
    "obus-de-siege",
    "equipement-de-demolition",
    "fils-barbeles",
    "pieges-a-chars",
    "barricades",
    "frappe-en-profondeur",
    "infiltrateurs",
    "rats-degouts",
]
# Digest §3.4: 7 Key Buildings, 6 Dirty Tricks, 4 Armoury, 3 Obstacles, 3 Deployment.
STRATAGEMS_PER_CATEGORY = {
    "batiments-strategiques": 7,
    "coups-tordus": 6,
    "arsenal": 4,
    "obstacles": 3,
    "deploiement": 3,
}
STANDARD_MISSIONS = [
    "accrochage",
    "position-strategique",
    "domination",
    "offensive-majeure",
    "assaut-urbain",
]
SPECIAL_MISSIONS = [
    "le-defi",
    "devastation-totale",
    "renforts",
    "assaut-general",
    "attaque-eclair",
    "assassinat",
]
SPECIAL_RULES = {
    "stratagemes",
    "aube-crepuscule",
    "combat-nocturne",
    "duree-aleatoire",
    "reserves",
    "points-de-victoire",
}
# Digest §8.1 "Who plays first".
FIRST_TURN = {
    "le-defi": "attacker",
    "devastation-totale": "roll_off",
    "renforts": "roll_off",
    "assaut-general": "defender",
    "attaque-eclair": "attacker",
    "assassinat": "attacker",
}
VP_MISSIONS = {"offensive-majeure", "attaque-eclair", "assassinat"}  # digest §7.6
PLACEMENT_TARGETS = {"ruin", "ruins_or_obstacles", "table", "army", "ground_level", None}
PLACEMENT_ZONES = {"any", "own_deployment_zone", "outside_enemy_deployment_zone", None}
OUTCOME_TYPES = {"count_per_player", "bool_per_player", "player_or_none", "count", "bool"}
DIAGRAM_KINDS = {
    "quarters",
    "diagonal_quarters",
    "long_edges",
    "short_edge_vs_long_edge",
    "quarter_vs_objective",
    "edges_and_centre",
}


@pytest.fixture(scope="module")
def catalogue() -> dict[str, Any]:
    return json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))


def _slugs(rows: list[dict[str, Any]]) -> list[str]:
    return [row["slug"] for row in rows]


def _missions(catalogue: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["slug"]: m for m in catalogue["missions"]}


def _walk(node: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every JSON object in the tree with a readable path, for error messages."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}[{index}]")


def test_levels_match_the_rules(catalogue: dict[str, Any]) -> None:
    levels = catalogue["levels"]
    assert _slugs(levels) == LEVELS
    assert [lvl["order"] for lvl in levels] == [1, 2, 3]
    assert {lvl["slug"]: lvl["stratagems_per_player"] for lvl in levels} == STRATAGEMS_PER_LEVEL
    alpha, gamma, omega = levels
    assert (alpha["ruins_min"], alpha["ruins_max"]) == (2, 3)
    assert (gamma["ruins_min"], gamma["ruins_max"]) == (4, 6)
    # Omega: "as many as possible", so neither bound is set.
    assert (omega["ruins_min"], omega["ruins_max"]) == (None, None)
    sizes = [(lvl["table_width_cm"], lvl["table_depth_cm"]) for lvl in levels]
    assert sizes == [(120, 120), (120, 120), (180, 120)]


def test_special_rules_are_exactly_the_six(catalogue: dict[str, Any]) -> None:
    rules = _slugs(catalogue["special_rules"])
    assert len(rules) == len(set(rules))
    assert set(rules) == SPECIAL_RULES


def test_special_rule_params_follow_the_rules(catalogue: dict[str, Any]) -> None:
    params = {r["slug"]: r["params"] for r in catalogue["special_rules"]}
    assert params["duree-aleatoire"] == {"extra_turn_on": 4, "max_extra_turns": 3}  # §7.4
    assert params["reserves"]["arrives_on"] == {"1": None, "2": 4, "3": 3, "4": 2}  # §7.5
    assert params["points-de-victoire"] == {"threshold_percent": 25}  # §7.6


def test_categories_in_catalogue_order(catalogue: dict[str, Any]) -> None:
    categories = catalogue["stratagem_categories"]
    assert _slugs(categories) == CATEGORIES
    assert [c["order"] for c in categories] == list(range(1, len(CATEGORIES) + 1))


def test_stratagems_are_the_23_in_catalogue_order(catalogue: dict[str, Any]) -> None:
    stratagems = catalogue["stratagems"]
    assert _slugs(stratagems) == STRATAGEMS
    assert [s["order"] for s in stratagems] == list(range(1, 24))


def test_stratagems_per_category(catalogue: dict[str, Any]) -> None:
    counts = Counter(s["category"] for s in catalogue["stratagems"])
    assert dict(counts) == STRATAGEMS_PER_CATEGORY


def test_stratagem_placement_values(catalogue: dict[str, Any]) -> None:
    for stratagem in catalogue["stratagems"]:
        placement = stratagem["placement"]
        assert placement["target"] in PLACEMENT_TARGETS, stratagem["slug"]
        assert placement["zone"] in PLACEMENT_ZONES, stratagem["slug"]
        assert isinstance(placement["one_per_ruin"], bool)
        assert isinstance(placement["secret"], bool)
        assert stratagem["markers"] in (None, "D3+3"), stratagem["slug"]
        assert stratagem["range_inches"] is None or stratagem["range_inches"] > 0


def test_key_buildings_go_on_ruins_one_per_ruin(catalogue: dict[str, Any]) -> None:
    # Digest §3.5.1 general rules 1 and 2.
    for stratagem in catalogue["stratagems"]:
        if stratagem["category"] == "batiments-strategiques":
            assert stratagem["placement"]["target"] == "ruin"
            assert stratagem["placement"]["one_per_ruin"] is True


def test_missions_in_order_with_d6(catalogue: dict[str, Any]) -> None:
    missions = catalogue["missions"]
    assert _slugs(missions) == STANDARD_MISSIONS + SPECIAL_MISSIONS
    assert [m["order"] for m in missions] == list(range(1, 12))
    for d6, mission in enumerate(missions[:5], start=1):
        assert (mission["kind"], mission["d6"]) == ("standard", d6)
    for mission in missions[5:]:
        assert (mission["kind"], mission["d6"]) == ("special", None)


def test_roles_and_first_turn(catalogue: dict[str, Any]) -> None:
    for slug, mission in _missions(catalogue).items():
        if slug in STANDARD_MISSIONS:
            assert mission["roles"] == []
            assert mission["first_turn"] == "roll_off"
        else:
            assert mission["roles"] == ["attacker", "defender"]
            assert mission["first_turn"] == FIRST_TURN[slug]


def test_objective_kinds_are_known(catalogue: dict[str, Any]) -> None:
    kinds = [m["objective_kind"] for m in catalogue["missions"]]
    assert len(set(kinds)) == len(kinds)
    assert set(kinds) == set(OBJECTIVE_KINDS)


def test_special_rules_by_level_reference_known_rules(catalogue: dict[str, Any]) -> None:
    for mission in catalogue["missions"]:
        by_level = mission["special_rules_by_level"]
        assert list(by_level) == LEVELS, mission["slug"]
        for rules in by_level.values():
            assert rules and set(rules) <= SPECIAL_RULES, mission["slug"]
            assert len(rules) == len(set(rules))
            assert "stratagemes" in rules


def test_special_missions_do_not_vary_by_level(catalogue: dict[str, Any]) -> None:
    # Digest §8.0: special missions list their rules without per-level variation.
    for slug in SPECIAL_MISSIONS:
        lists = list(_missions(catalogue)[slug]["special_rules_by_level"].values())
        assert all(rules == lists[0] for rules in lists), slug
        assert {"aube-crepuscule", "duree-aleatoire"} <= set(lists[0])


def test_standard_missions_grow_with_level(catalogue: dict[str, Any]) -> None:
    # Digest §6.0: Gamma adds Dawn & Dusk, Omega adds Random Game Length.
    for slug in STANDARD_MISSIONS:
        by_level = _missions(catalogue)[slug]["special_rules_by_level"]
        assert "aube-crepuscule" not in by_level["alpha"]
        assert set(by_level["gamma"]) - set(by_level["alpha"]) == {"aube-crepuscule"}
        assert set(by_level["omega"]) - set(by_level["gamma"]) == {"duree-aleatoire"}


def test_victory_points_flag_matches_the_rule_list(catalogue: dict[str, Any]) -> None:
    for slug, mission in _missions(catalogue).items():
        expected = slug in VP_MISSIONS
        assert mission["uses_victory_points"] is expected, slug
        for rules in mission["special_rules_by_level"].values():
            assert ("points-de-victoire" in rules) is expected, slug
        own = mission["victory_points"]["own_operational"]
        assert (own != "none") is expected, slug


def test_stratagem_exceptions(catalogue: dict[str, Any]) -> None:
    stratagems, categories = set(STRATAGEMS), set(CATEGORIES)
    found = set()
    for slug, mission in _missions(catalogue).items():
        for exception in mission["stratagem_exceptions"]:
            assert exception["kind"] in EXCEPTION_KINDS
            assert exception["role"] in ("attacker", "defender", None)
            assert exception["stratagem"] is None or exception["stratagem"] in stratagems
            assert exception["category"] is None or exception["category"] in categories
            found.add(
                (
                    slug,
                    exception["kind"],
                    exception["role"],
                    exception["stratagem"] or exception["category"],
                )
            )
    # Digest §3.1 implementer note and §8.3-§8.6.
    assert found == {
        ("devastation-totale", "repeatable", "attacker", "batiment-mine"),
        ("devastation-totale", "free", "defender", "fortifications"),
        ("renforts", "extra", "defender", "batiments-strategiques"),
        ("assaut-general", "free", "attacker", "bombardement-preliminaire"),
        ("attaque-eclair", "forbidden_category", None, "deploiement"),
    }


def test_only_assassination_uses_role_charts(catalogue: dict[str, Any]) -> None:
    for slug, mission in _missions(catalogue).items():
        if slug == "assassinat":
            assert mission["role_charts"] == {
                "attacker": "strike-and-withdraw-attacker",
                "defender": "strike-and-withdraw-defender",
            }
        else:
            assert mission["role_charts"] == {}


def test_outcome_fields(catalogue: dict[str, Any]) -> None:
    for slug, mission in _missions(catalogue).items():
        fields = mission["outcome_fields"]
        assert all(f["type"] in OUTCOME_TYPES for f in fields), slug
        names = [f["name"] for f in fields]
        assert len(names) == len(set(names))
        # Pure VP missions report no objective; every other mission reports one.
        assert (not fields) is (mission["objective_kind"] in ("annihilation", "blitz")), slug


def test_game_length(catalogue: dict[str, Any]) -> None:
    for slug, mission in _missions(catalogue).items():
        assert mission["game_turns"] == 6
        # The special missions' 6 turns is a Muster default ([Gap] §8.0) and must say so.
        has_note = mission["game_turns_note_fr"] is not None
        assert has_note is (slug in SPECIAL_MISSIONS), slug


def test_diagrams(catalogue: dict[str, Any]) -> None:
    diagrams = {m["slug"]: m["diagram"] for m in catalogue["missions"]}
    key_sets = {frozenset(d) for d in diagrams.values()}
    assert len(key_sets) == 1, "every diagram should carry the same keys"
    for slug, diagram in diagrams.items():
        assert diagram["kind"] in DIAGRAM_KINDS, slug
        for key, value in diagram.items():
            if key.endswith("_inches"):
                assert value is None or (isinstance(value, int) and value > 0), (slug, key)
    for slug in STANDARD_MISSIONS:  # digest §6.0
        assert diagrams[slug]["centre_exclusion_inches"] == 12
        assert diagrams[slug]["enemy_distance_inches"] == 18
    assert diagrams["devastation-totale"]["centre_exclusion_inches"] == 6  # §8.3
    assert diagrams["attaque-eclair"]["road"] is True  # §8.6


def test_catalogue_missions_load_into_engine_specs(catalogue: dict[str, Any]) -> None:
    specs = [MissionSpec.from_mapping(m) for m in catalogue["missions"]]
    assert [s.slug for s in specs] == STANDARD_MISSIONS + SPECIAL_MISSIONS


def test_every_text_is_bilingual_and_non_empty(catalogue: dict[str, Any]) -> None:
    checked = 0
    for path, obj in _walk(catalogue):
        for key, value in obj.items():
            if not key.endswith("_fr"):
                continue
            twin = key[:-3] + "_en"
            assert twin in obj, f"{path}.{key} has no English twin"
            english = obj[twin]
            if value is None:
                assert english is None, f"{path}.{twin}"
                continue
            texts = (
                list(zip(value, english, strict=True))
                if isinstance(value, list)
                else [(value, english)]
            )
            for french_text, english_text in texts:
                assert isinstance(french_text, str) and french_text.strip(), f"{path}.{key}"
                assert isinstance(english_text, str) and english_text.strip(), f"{path}.{twin}"
                checked += 1
        english_keys = {k for k in obj if k.endswith("_en")}
        assert {k[:-3] + "_fr" for k in english_keys} <= set(obj), path
    assert checked > 100


def test_distance_units_per_language(catalogue: dict[str, Any]) -> None:
    # French texts measure in "ps", English ones with the inch mark; never the other way round.
    inch_mark = re.compile(r"\d\"")
    ps_unit = re.compile(r"\d ps\b")
    for path, obj in _walk(catalogue):
        for key, value in obj.items():
            texts = value if isinstance(value, list) else [value]
            for text in (t for t in texts if isinstance(t, str)):
                if key.endswith("_fr"):
                    assert not inch_mark.search(text), f"{path}.{key}"
                elif key.endswith("_en"):
                    assert not ps_unit.search(text), f"{path}.{key}"


def test_margin_bands(catalogue: dict[str, Any]) -> None:
    bands = catalogue["margin_bands"]
    assert _slugs(bands) == ["draw", "minor_victory", "solid_victory", "massacre"]
    fractions = [b["min_fraction"] for b in bands]
    assert fractions[0] == 0.0
    assert fractions == sorted(set(fractions))
    assert catalogue["margin_bands_note_fr"] and catalogue["margin_bands_note_en"]
