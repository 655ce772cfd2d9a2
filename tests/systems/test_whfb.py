"""Warhammer Battle list rules (seed 003_1fce7fa05f0552a5.txt): options, baggage, percentages."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.whfb import army as whfb
from systems.whfb.army import AdvancedRules, WfbEntry

ALL_ON = AdvancedRules(mantlets=True, stakes=True, baggage=True)


def codes(report):
    return [p.code for p in report.errors]


def test_seed_costs_two_points_per_model_for_each_option():
    # « Equiper une unité de mantelets coûte +2pts. par figurine »; piques de bois « pour +2pts.
    # par figurine ».
    archers = WfbEntry("Archers", "core", 100, models=10, tags=frozenset({"shooting"}),
                       options=("mantlets", "stakes"))
    report = whfb.validate([archers], 2000, ALL_ON)
    assert [(s.option, s.points) for s in report.surcharges] == [("mantlets", 20), ("stakes", 20)]
    assert report.base_points == report.total_points == 140 and report.valid


@given(st.integers(0, 200), st.lists(st.sampled_from(whfb.OPTIONS), max_size=4))
def test_a_surcharge_is_exactly_two_times_the_models_per_option(models, options):
    entry = WfbEntry("Unit", "core", 50, models=models, tags=frozenset({"shooting"}), options=tuple(options))
    report = whfb.validate([entry], 100_000, ALL_ON)
    assert all(s.points == 2 * models for s in report.surcharges)
    assert len(report.surcharges) == len(set(options))
    assert report.base_points == 50 + 2 * models * len(set(options))


@pytest.mark.parametrize(("unit_type", "tags", "allowed"), [
    ("infantry", {"shooting"}, True),  # « unité de tireurs à pied »
    ("war_machine", set(), True),  # « ou une machine de guerre »
    ("infantry", set(), False), ("cavalry", {"shooting"}, False), ("monster", set(), False),
    ("chariot", {"shooting"}, False),
])
def test_stakes_only_on_foot_shooters_and_war_machines(unit_type, tags, allowed):
    entry = WfbEntry("U", "special", 100, models=5, unit_type=unit_type, tags=frozenset(tags), options=("stakes",))
    report = whfb.validate([entry], 2000, ALL_ON)
    if allowed:
        assert report.errors == ()
    else:
        assert codes(report) == ["option_not_allowed"]
        assert report.errors[0].params == {"option": "stakes", "unit_type": unit_type, "name": "U"}


def test_mantlets_fit_any_unit_type():
    entries = [WfbEntry(t, "special", 10, unit_type=t, options=("mantlets",)) for t in whfb.UNIT_TYPES]
    assert whfb.validate(entries, 2000, ALL_ON).errors == ()


def test_options_the_event_has_not_enabled():
    entry = WfbEntry("Crossbows", "core", 100, models=10, tags=frozenset({"shooting"}),
                     options=("mantlets", "stakes", "pavise"))
    report = whfb.validate([entry], 2000, AdvancedRules(stakes=True))
    assert codes(report) == ["option_disabled", "option_unknown"]
    assert report.errors[0].params == {"option": "mantlets", "name": "Crossbows"}
    assert report.errors[1].params == {"option": "pavise", "name": "Crossbows"}


@given(st.integers(0, 1_000_000))
def test_the_baggage_allowance_is_a_tenth_rounded_down(base):
    # « Les bagages ajoutent +10% de valeur d'armée »; WG2: 10 % of base_points, rounded down.
    assert whfb.baggage_allowance(base) == base // 10


def army(points=1995):
    return [WfbEntry("General", "lords", 300, unit_type="character"),
            WfbEntry("Spearmen", "core", points - 300, models=20)]


def test_extra_allowance_baggage_sits_on_top_of_the_limit():
    # WG1 default: up to 10 % on top of the limit; points_over_limit looks at base_points only.
    base = army(2000)
    ok = whfb.validate([*base, WfbEntry("Wagon", "core", 200, baggage=True)], 2000, ALL_ON)
    assert ok.valid and (ok.base_points, ok.total_points) == (2000, 2200)
    assert (ok.baggage.points, ok.baggage.allowance) == (200, 200)
    over = whfb.validate([*base, WfbEntry("Wagon", "core", 201, baggage=True)], 2000, ALL_ON)
    assert codes(over) == ["baggage_over_allowance"]
    assert over.errors[0].params == {"points": 201, "allowance": 200}


def test_allowance_rounds_down_on_an_odd_base():
    report = whfb.validate([*army(1995), WfbEntry("Wagon", "core", 200, baggage=True)], 2000, ALL_ON)
    assert report.baggage.allowance == 199 and codes(report) == ["baggage_over_allowance"]


def test_within_limit_baggage_must_reach_the_allowance_and_counts_toward_the_limit():
    rules = AdvancedRules(baggage=True, baggage_mode="within_limit")
    short = whfb.validate([*army(1800), WfbEntry("Wagon", "core", 150, baggage=True)], 2000, rules)
    assert codes(short) == ["baggage_below_required"]
    assert short.errors[0].params == {"points": 150, "required": 180}
    over = whfb.validate([*army(1900), WfbEntry("Wagon", "core", 190, baggage=True)], 2000, rules)
    assert codes(over) == ["points_over_limit"]
    assert over.errors[0].params == {"total": 2090, "limit": 2000, "excess": 90}
    none = whfb.validate(army(1800), 2000, rules)
    assert codes(none) == ["baggage_below_required"]


def test_baggage_must_be_core_enabled_and_not_undead_or_daemon():
    wagon = WfbEntry("Wagon", "special", 100, baggage=True)
    report = whfb.validate([*army(2000), wagon], 2000, AdvancedRules(), faction="vampire-counts",
                           faction_tags=frozenset({"undead"}))
    assert codes(report) == ["baggage_not_core", "baggage_disabled", "baggage_not_allowed"]
    assert report.errors[2].params == {"faction": "vampire-counts"}
    # Flagged entries never count in base_points, whatever errors they raise.
    assert report.base_points == 2000 and report.total_points == 2100


def test_undead_need_no_baggage_in_within_limit_mode():
    rules = AdvancedRules(baggage=True, baggage_mode="within_limit")
    report = whfb.validate(army(2000), 2000, rules, faction="daemons-of-chaos", faction_tags=frozenset({"daemon"}))
    assert report.valid and report.baggage is None


def test_no_baggage_block_when_the_rule_is_off():
    assert whfb.validate(army(), 2000).baggage is None
    assert whfb.validate(army(), 2000, ALL_ON).baggage == whfb.Baggage(0, 199)


def test_points_over_limit_uses_the_chart_engine_shape():
    report = whfb.validate(army(2100), 2000)
    assert [p.to_dict() for p in report.errors] == [
        {"code": "points_over_limit", "slot": None, "params": {"total": 2100, "limit": 2000, "excess": 100}}]


# [Outside knowledge] whfb-standard percentages as data (systems/warhammer-battle.md §3.4).
STANDARD = whfb.percent_limits({"rare": {"max": 25}, "core": {"min": 25}, "lords": {"max": 50},
                                "heroes": {"max": 50}, "special": {"max": 50}})


def test_percent_limits_in_slot_order():
    assert [limit.slot for limit in STANDARD] == ["lords", "heroes", "core", "special", "rare"]


def test_percentage_limits_on_base_points():
    entries = [WfbEntry("Lord", "lords", 1100, unit_type="character"), WfbEntry("Core", "core", 400),
               WfbEntry("Rare", "rare", 500)]
    report = whfb.validate(entries, 2000, limits=STANDARD)
    assert [(p.code, p.slot, dict(p.params)) for p in report.errors] == [
        ("slot_above_max_pct", "lords", {"points": 1100, "percent": 55, "max": 50}),
        ("slot_below_min_pct", "core", {"points": 400, "percent": 20, "min": 25}),
    ]  # rare at exactly 25 % is allowed


def test_baggage_is_outside_the_percentage_base():
    entries = [WfbEntry("Lord", "lords", 500), WfbEntry("Core", "core", 500),
               WfbEntry("Wagon", "core", 100, baggage=True)]
    assert whfb.validate(entries, 2000, ALL_ON, limits=STANDARD).valid


def test_unknown_slots_are_a_warning():
    report = whfb.validate([WfbEntry("Odd", "allies", 10)], 2000)
    assert report.valid and [w.code for w in report.warnings] == ["unknown_slot"]


@pytest.mark.parametrize("bad", [{"min": 30, "max": 20}, {"max": 120}, {"min": -1}])
def test_impossible_percentages_are_refused(bad):
    with pytest.raises(ValueError):
        whfb.percent_limits({"core": bad})


def test_entries_and_rules_refuse_unknown_kinds():
    with pytest.raises(ValueError):
        WfbEntry("X", "core", 10, unit_type="tank")
    with pytest.raises(ValueError):
        AdvancedRules(baggage_mode="sometimes")
