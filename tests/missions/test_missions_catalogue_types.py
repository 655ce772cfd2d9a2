"""Catalogue dataclasses built from the catalogue's JSON shape (brief of issue 3)."""

import json
from pathlib import Path

import pytest

from missions.catalogue_types import MissionSpec, StratagemException, VpRules
from missions.legality import allowance_for
from missions.margin import DEFAULT_BANDS, MarginBand
from tests.missions.cod_catalogue import ALLOWANCE, CATEGORIES, MISSIONS

ROOT = Path(__file__).resolve().parents[2]

DEVASTATION = {
    "slug": "devastation-totale",
    "name_en": "ignored",
    "kind": "special",
    "d6": None,
    "order": 7,
    "objective_kind": "destroy_hq_ruin",
    "uses_victory_points": False,
    "roles": ["attacker", "defender"],
    "first_turn": "roll_off",
    "special_rules_by_level": {"alpha": ["stratagemes", "aube-crepuscule"]},
    "victory_points": {"own_operational": "none"},
    "stratagem_exceptions": [
        {
            "kind": "repeatable",
            "role": "attacker",
            "stratagem": "batiment-mine",
            "category": None,
            "count": None,
            "counts_toward_limit": True,
        },
        {
            "kind": "free",
            "role": "defender",
            "stratagem": "fortifications",
            "count": None,
            "counts_toward_limit": False,
        },
    ],
}


def test_mission_from_mapping():
    mission = MissionSpec.from_mapping(DEVASTATION)
    assert mission.has_roles and mission.roles == ("attacker", "defender")
    assert mission.special_rules("alpha") == ("stratagemes", "aube-crepuscule")
    assert mission.special_rules("omega") == ()
    assert mission.victory_points == VpRules("none")
    assert mission.stratagem_exceptions == (
        StratagemException("repeatable", "attacker", stratagem="batiment-mine"),
        StratagemException(
            "free", "defender", stratagem="fortifications", counts_toward_limit=False
        ),
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "bonus"},
        {"kind": "free"},
        {"kind": "repeatable", "stratagem": "piege", "role": "umpire"},
        {"kind": "extra", "category": "arsenal"},
        {"kind": "extra", "category": "arsenal", "count": 0},
        {"kind": "forbidden_category"},
        {"kind": "free", "stratagem": "piege", "count": 0},
    ],
)
def test_bad_exceptions(kwargs):
    with pytest.raises(ValueError):
        StratagemException(**kwargs)


@pytest.mark.parametrize(
    "changes",
    [
        {"kind": "campaign"},
        {"objective_kind": "treasure"},
        {"first_turn": "loser"},
        {"roles": ["defender", "attacker"]},
        {"roles": [], "first_turn": "attacker"},
    ],
)
def test_bad_missions(changes):
    with pytest.raises(ValueError):
        MissionSpec.from_mapping({**DEVASTATION, **changes})


def _catalogue():
    path = ROOT / "missions" / "data" / "cities_of_death.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


needs_catalogue = pytest.mark.skipif(_catalogue() is None, reason="catalogue data file absent")


@needs_catalogue
def test_catalogue_missions_agree_with_the_rules_reading_of_these_tests():
    # Two independent readings of the rules (the data file and cod_catalogue) must agree on
    # everything the engines read.
    data = {m["slug"]: MissionSpec.from_mapping(m) for m in _catalogue()["missions"]}
    assert set(data) == set(MISSIONS)
    for slug, ours in MISSIONS.items():
        theirs = data[slug]
        fields = ("kind", "d6", "objective_kind", "uses_victory_points", "roles", "first_turn")
        assert [getattr(theirs, f) for f in fields] == [getattr(ours, f) for f in fields], slug
        for level in ALLOWANCE:
            assert set(theirs.special_rules(level)) == set(ours.special_rules(level)), slug
            for role in (None, "attacker", "defender"):
                assert allowance_for(ALLOWANCE[level], role, theirs.stratagem_exceptions) == (
                    allowance_for(ALLOWANCE[level], role, ours.stratagem_exceptions)
                ), (slug, level, role)
        if ours.uses_victory_points:
            assert theirs.victory_points == ours.victory_points, slug


@needs_catalogue
def test_catalogue_stratagems_levels_and_bands():
    catalogue = _catalogue()
    assert {s["slug"]: s["category"] for s in catalogue["stratagems"]} == CATEGORIES
    assert {lv["slug"]: lv["stratagems_per_player"] for lv in catalogue["levels"]} == ALLOWANCE
    bands = [MarginBand(b["slug"], b["min_fraction"]) for b in catalogue["margin_bands"]]
    assert bands == list(DEFAULT_BANDS)
