"""Stratagem legality (rules §3.1, §7.1, §8.3–§8.6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.catalogue_types import StratagemException
from missions.legality import Allowance, allowance_for, check_stratagems
from tests.missions.cod_catalogue import ALLOWANCE, CATEGORIES, DEPLOYMENT, KEY_BUILDINGS, MISSIONS

SLUGS = sorted(CATEGORIES)


def codes(declared, level="gamma", role=None, mission=None):
    exceptions = MISSIONS[mission].stratagem_exceptions if mission else ()
    problems = check_stratagems(
        declared,
        allowance=ALLOWANCE[level],
        role=role,
        categories=CATEGORIES,
        exceptions=exceptions,
    )
    return [p.code for p in problems]


@pytest.mark.parametrize(
    ("level", "declared", "expected"),
    [
        # §3.1 / §7.1: Alpha 1, Gamma 2, Omega 3.
        ("alpha", ["piege"], []),
        ("alpha", ["piege", "sapeurs"], ["stratagem_limit"]),
        ("gamma", ["piege", "sapeurs"], []),
        ("gamma", ["piege", "sapeurs", "barricades"], ["stratagem_limit"]),
        ("omega", ["piege", "sapeurs", "barricades"], []),
        ("omega", [], []),
        # §3.1: each stratagem only once.
        ("gamma", ["piege", "piege"], ["stratagem_duplicate"]),
        ("alpha", ["piege", "piege"], ["stratagem_duplicate"]),
        (
            "gamma",
            ["piege", "piege", "sapeurs", "barricades"],
            ["stratagem_duplicate", "stratagem_limit"],
        ),
        ("gamma", ["not-a-stratagem"], ["stratagem_unknown"]),
    ],
)
def test_standard_missions(level, declared, expected):
    assert codes(declared, level) == expected


@pytest.mark.parametrize(
    ("mission", "role", "level", "declared", "expected"),
    [
        # §8.3: the attacker may take several Mined Buildings (still inside the quota by default).
        ("devastation-totale", "attacker", "gamma", ["batiment-mine"] * 2, []),
        ("devastation-totale", "attacker", "gamma", ["batiment-mine"] * 3, ["stratagem_limit"]),
        ("devastation-totale", "defender", "gamma", ["batiment-mine"] * 2, ["stratagem_duplicate"]),
        # §8.3: the defender fortifies any number of ruins outside his quota.
        ("devastation-totale", "defender", "alpha", ["fortifications"] * 5 + ["piege"], []),
        (
            "devastation-totale",
            "attacker",
            "alpha",
            ["fortifications"] * 2,
            ["stratagem_duplicate"],
        ),
        # §8.4: the defender has one more slot, for a Strategic (Key) Building only.
        ("renforts", "defender", "alpha", ["piege", "centre-medical"], []),
        ("renforts", "defender", "alpha", ["depot-de-munitions", "centre-medical"], []),
        ("renforts", "defender", "alpha", ["piege", "fils-barbeles"], ["stratagem_limit"]),
        (
            "renforts",
            "defender",
            "alpha",
            ["piege", "centre-medical", "sanctuaire"],
            ["stratagem_limit"],
        ),
        ("renforts", "attacker", "alpha", ["piege", "centre-medical"], ["stratagem_limit"]),
        # §8.5: the attacker's Preliminary Bombardment is free.
        ("assaut-general", "attacker", "alpha", ["bombardement-preliminaire", "piege"], []),
        (
            "assaut-general",
            "attacker",
            "alpha",
            ["bombardement-preliminaire"] * 2,
            ["stratagem_duplicate"],
        ),
        (
            "assaut-general",
            "defender",
            "alpha",
            ["bombardement-preliminaire", "piege"],
            ["stratagem_limit"],
        ),
        # §8.6: no Deployment stratagem, for either player.
        ("attaque-eclair", "attacker", "gamma", ["infiltrateurs"], ["stratagem_forbidden"]),
        ("attaque-eclair", "defender", "gamma", ["rats-degouts", "piege"], ["stratagem_forbidden"]),
        ("attaque-eclair", "defender", "gamma", ["piege", "sapeurs"], []),
        ("assassinat", "attacker", "alpha", ["infiltrateurs"], []),
    ],
)
def test_special_mission_exceptions(mission, role, level, declared, expected):
    assert codes(declared, level, role, mission) == expected


def test_problem_params_name_the_fault():
    problems = check_stratagems(
        ["piege", "piege", "infiltrateurs", "zz"],
        allowance=1,
        role="attacker",
        categories=CATEGORIES,
        exceptions=MISSIONS["attaque-eclair"].stratagem_exceptions,
    )
    by_code = {p.code: dict(p.params) for p in problems}
    assert by_code["stratagem_unknown"] == {"stratagem": "zz"}
    assert by_code["stratagem_forbidden"] == {"stratagem": "infiltrateurs", "category": DEPLOYMENT}
    assert by_code["stratagem_duplicate"] == {"stratagem": "piege", "declared": 2, "allowed": 1}
    assert "stratagem_limit" not in by_code


def test_limit_params():
    (problem,) = check_stratagems(
        ["piege", "sapeurs", "barricades"],
        allowance=1,
        role="defender",
        categories=CATEGORIES,
        exceptions=MISSIONS["renforts"].stratagem_exceptions,
    )
    assert problem.code == "stratagem_limit"
    assert dict(problem.params) == {"counted": 3, "allowed": 1, "extras": {KEY_BUILDINGS: 1}}


def test_allowance_for_the_special_missions():
    renforts = MISSIONS["renforts"].stratagem_exceptions
    assert allowance_for(1, "defender", renforts).extras == {KEY_BUILDINGS: 1}
    assert allowance_for(1, "attacker", renforts).extras == {}
    general = allowance_for(2, "attacker", MISSIONS["assaut-general"].stratagem_exceptions)
    assert (general.base, general.free) == (2, {"bombardement-preliminaire": 1})
    devastation = MISSIONS["devastation-totale"].stratagem_exceptions
    assert allowance_for(3, "defender", devastation).free == {"fortifications": None}
    assert allowance_for(3, "attacker", devastation).repeatable == {"batiment-mine": None}
    assert allowance_for(3, "attacker", devastation).free == {}
    blitz = allowance_for(2, None, MISSIONS["attaque-eclair"].stratagem_exceptions)
    assert blitz.forbidden_categories == frozenset({DEPLOYMENT})


def test_repeatable_outside_the_quota_and_capped_copies():
    exceptions = [
        StratagemException(
            "repeatable", None, stratagem="piege", count=3, counts_toward_limit=False
        )
    ]
    assert codes_with(["piege"] * 3 + ["sapeurs"], 1, exceptions) == []
    assert codes_with(["piege"] * 4, 1, exceptions) == ["stratagem_duplicate"]
    assert Allowance(1, free={"piege": 2}).max_copies("piege") == 2
    assert Allowance(1).max_copies("piege") == 1


def codes_with(declared, allowance, exceptions, role=None):
    return [
        p.code
        for p in check_stratagems(
            declared, allowance=allowance, role=role, categories=CATEGORIES, exceptions=exceptions
        )
    ]


def test_bad_arguments():
    with pytest.raises(ValueError):
        allowance_for(-1, None, ())
    with pytest.raises(ValueError):
        allowance_for(1, "umpire", ())


levels = st.sampled_from(sorted(ALLOWANCE))


@given(levels, st.data())
def test_distinct_within_allowance_is_legal(level, data):
    chosen = data.draw(st.lists(st.sampled_from(SLUGS), unique=True, max_size=ALLOWANCE[level]))
    assert codes(chosen, level) == []


@given(levels, st.data())
def test_adding_a_duplicate_gives_exactly_duplicate(level, data):
    chosen = data.draw(
        st.lists(st.sampled_from(SLUGS), unique=True, min_size=1, max_size=ALLOWANCE[level])
    )
    again = data.draw(st.sampled_from(chosen))
    assert codes([*chosen, again], level) == ["stratagem_duplicate"]


@given(levels, st.data())
def test_too_many_distinct_gives_exactly_limit(level, data):
    chosen = data.draw(
        st.lists(st.sampled_from(SLUGS), unique=True, min_size=ALLOWANCE[level] + 1, max_size=6)
    )
    assert codes(chosen, level) == ["stratagem_limit"]


@given(
    st.lists(st.sampled_from([*SLUGS, "unknown-one"]), max_size=8),
    st.sampled_from(sorted(MISSIONS)),
    st.sampled_from(["attacker", "defender"]),
    st.randoms(use_true_random=False),
)
def test_order_does_not_matter(declared, mission, role, rnd):
    shuffled = list(declared)
    rnd.shuffle(shuffled)
    exceptions = MISSIONS[mission].stratagem_exceptions
    kwargs = {"allowance": 2, "role": role, "categories": CATEGORIES, "exceptions": exceptions}
    assert check_stratagems(declared, **kwargs) == check_stratagems(shuffled, **kwargs)
