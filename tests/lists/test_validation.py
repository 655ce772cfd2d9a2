"""Validation engine: hand cases from the charts (cities-of-death.md §2.1, §8.7) and properties."""
from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from armylists.messages import render_problem
from armylists.validation import (
    KNOWN_SLOTS,
    ChartSpec,
    Entry,
    Problem,
    SlotCount,
    chart_from_rows,
    check_points_limit,
    validate,
)

from .digest_charts import ATTACKER, DEFENDER, STANDARD

CHARTS = (STANDARD, ATTACKER, DEFENDER)


def units(slot: str | None, count: int, points: int = 100, prefix: str = "") -> list[Entry]:
    label = prefix or (slot or "none")
    return [Entry(f"{label} {i + 1}", slot, points) for i in range(count)]


def codes(report) -> list[tuple[str, str | None]]:
    return [(problem.code, problem.slot) for problem in report.errors]


# --- hand cases -------------------------------------------------------------------------------

def test_minimal_standard_list_is_valid():
    report = validate(units("hq", 1) + units("troops", 2), STANDARD, 1500)
    assert report.valid
    assert report.errors == ()
    assert report.total_points == 300


def test_four_heavy_support_on_standard_chart_is_above_max():
    entries = units("hq", 1) + units("troops", 2) + units("heavy_support", 4, prefix="Predator")
    report = validate(entries, STANDARD, 1500)
    assert not report.valid
    (error,) = report.errors
    assert error.code == "slot_above_max"
    assert error.slot == "heavy_support"
    assert error.params["count"] == 4
    assert error.params["max"] == 3
    assert error.params["names"] == ("Predator 1", "Predator 2", "Predator 3", "Predator 4")


def test_one_troops_choice_is_below_min():
    report = validate(units("hq", 1) + units("troops", 1), STANDARD, 1500)
    (error,) = report.errors
    assert (error.code, error.slot) == ("slot_below_min", "troops")
    assert dict(error.params) == {"count": 1, "min": 2}


def test_no_hq_is_below_min_and_three_hq_above_max():
    assert codes(validate(units("troops", 2), STANDARD, 1500)) == [("slot_below_min", "hq")]
    report = validate(units("hq", 3) + units("troops", 2), STANDARD, 1500)
    assert codes(report) == [("slot_above_max", "hq")]
    assert report.errors[0].params["max"] == 2


@pytest.mark.parametrize(
    ("total", "expected"),
    [(1499, []), (1500, []), (1501, [("points_over_limit", None)])],
)
def test_points_limit_boundary(total, expected):
    entries = [Entry("Captain", "hq", total - 200), Entry("A", "troops", 100), Entry("B", "troops", 100)]
    report = validate(entries, STANDARD, 1500)
    assert codes(report) == expected


def test_points_over_limit_params():
    entries = [Entry("Captain", "hq", 1301), Entry("A", "troops", 100), Entry("B", "troops", 100)]
    (error,) = validate(entries, STANDARD, 1500).errors
    assert dict(error.params) == {"total": 1501, "limit": 1500, "excess": 1}


@pytest.mark.parametrize(
    ("chart", "slot", "count", "code", "bound"),
    [
        # Attacker: HQ 1..2, Elites 2..6, Troops 0..2, Fast Attack 1..3 (§8.7).
        (ATTACKER, "elites", 1, "slot_below_min", 2),
        (ATTACKER, "elites", 7, "slot_above_max", 6),
        (ATTACKER, "troops", 3, "slot_above_max", 2),
        (ATTACKER, "fast_attack", 4, "slot_above_max", 3),
        (ATTACKER, "hq", 3, "slot_above_max", 2),
        # Defender: HQ 1..1, Troops 3..9, Elites 0..1, Heavy Support 0..3 (§8.7).
        (DEFENDER, "hq", 2, "slot_above_max", 1),
        (DEFENDER, "troops", 2, "slot_below_min", 3),
        (DEFENDER, "troops", 10, "slot_above_max", 9),
        (DEFENDER, "elites", 2, "slot_above_max", 1),
        (DEFENDER, "heavy_support", 4, "slot_above_max", 3),
    ],
)
def test_strike_and_withdraw_bounds(chart, slot, count, code, bound):
    base = {limit.slot: limit.min for limit in chart.slots}
    base[slot] = count
    entries = [entry for name, n in base.items() for entry in units(name, n)]
    report = validate(entries, chart, 100_000)
    (error,) = report.errors
    assert (error.code, error.slot) == (code, slot)
    assert error.params["count"] == count
    assert error.params["max" if code == "slot_above_max" else "min"] == bound


@pytest.mark.parametrize(("chart", "slot"), [(ATTACKER, "heavy_support"), (DEFENDER, "fast_attack")])
def test_slot_missing_from_chart_is_forbidden(chart, slot):
    legal = [e for limit in chart.slots for e in units(limit.slot, limit.min)]
    report = validate([*legal, Entry("Intruder", slot, 50)], chart, 100_000)
    (error,) = report.errors
    assert (error.code, error.slot) == ("slot_forbidden", slot)
    assert dict(error.params) == {"count": 1, "names": ("Intruder",)}
    assert report.slots[slot] == SlotCount(count=1, min=0, max=0)


def test_every_problem_at_once_in_stable_order():
    entries = units("elites", 7) + units("heavy_support", 1) + [Entry("Big", None, 5000)]
    report = validate(entries, ATTACKER, 1000)
    assert codes(report) == [
        ("points_over_limit", None),
        ("slot_below_min", "hq"),
        ("slot_above_max", "elites"),
        ("slot_below_min", "fast_attack"),
        ("slot_forbidden", "heavy_support"),
    ]


def test_slots_report_lists_every_chart_slot_in_chart_order():
    report = validate(units("hq", 1), ATTACKER, 1000)
    assert list(report.slots) == ["hq", "troops", "elites", "fast_attack"]
    assert report.slots["troops"] == SlotCount(0, 0, 2)
    assert report.slots["elites"] == SlotCount(0, 2, 6)


def test_entry_without_slot_and_zero_points_are_warnings_only():
    entries = units("hq", 1) + units("troops", 2) + [Entry("Rhino", None, 50), Entry("Free", "troops", 0)]
    report = validate(entries, STANDARD, 1500)
    assert report.valid
    assert [(w.code, w.params["name"]) for w in report.warnings] == [
        ("entry_without_slot", "Rhino"),
        ("entry_zero_points", "Free"),
    ]
    assert report.total_points == 350


def test_unknown_slot_code_is_a_warning_and_counts_in_points():
    entries = units("hq", 1) + units("troops", 2) + [Entry("Fort", "fortification", 40)]
    report = validate(entries, STANDARD, 1500)
    assert report.valid
    (warning,) = report.warnings
    assert (warning.code, warning.slot, warning.params["count"]) == ("unknown_slot", "fortification", 1)
    assert "fortification" not in report.slots
    assert report.total_points == 340


def test_optional_none_means_no_upper_limit():
    chart = chart_from_rows("open", [("troops", 1, None)])
    assert chart.slots[0].max is None
    report = validate(units("troops", 50), chart, 10**6)
    assert report.valid
    assert report.slots["troops"] == SlotCount(50, 1, None)


def test_chart_from_rows_derives_min_and_max():
    chart = chart_from_rows("x", [("hq", 1, 1), ("troops", 3, 6)])
    assert [(s.slot, s.min, s.max) for s in chart.slots] == [("hq", 1, 2), ("troops", 3, 9)]
    with pytest.raises(ValueError):
        chart_from_rows("x", [("hq", 1, 1), ("hq", 0, 1)])
    with pytest.raises(ValueError):
        chart_from_rows("x", [("hq", -1, 1)])


def test_chart_points_range():
    chart = chart_from_rows("patrol", [("hq", 1, 0)], points_min=200, points_max=400)
    low = validate([Entry("Boss", "hq", 150)], chart, 400)
    assert codes(low) == [("points_below_chart_min", None)]
    assert dict(low.errors[0].params) == {"total": 150, "min": 200}
    high = validate([Entry("Boss", "hq", 450)], chart, 500)
    assert codes(high) == [("points_above_chart_max", None)]
    assert validate([Entry("Boss", "hq", 300)], chart, 400).valid


def test_check_points_limit():
    chart = chart_from_rows("patrol", [("hq", 1, 0)], points_min=200, points_max=400)
    assert check_points_limit(chart, 300) is None
    problem = check_points_limit(chart, 1500)
    assert problem is not None and problem.code == "points_limit_outside_chart"
    assert dict(problem.params) == {"limit": 1500, "min": 200, "max": 400}
    assert check_points_limit(STANDARD, 1) is None


def test_problem_is_hashable_and_frozen():
    problem = Problem("slot_forbidden", "hq", {"names": ["a", "b"], "count": 2})
    assert problem.params["names"] == ("a", "b")
    assert problem == Problem("slot_forbidden", "hq", {"count": 2, "names": ("a", "b")})
    assert len({problem, Problem("slot_forbidden", "hq", {"count": 2, "names": ["a", "b"]})}) == 1
    with pytest.raises(TypeError):
        problem.params["count"] = 3  # type: ignore[index]
    assert problem.to_dict() == {"code": "slot_forbidden", "slot": "hq", "params": {"names": ["a", "b"], "count": 2}}


def test_report_to_dict_matches_api_shape():
    data = validate(units("hq", 1) + units("troops", 1), STANDARD, 1500).to_dict()
    assert set(data) == {"valid", "total_points", "slots", "errors", "warnings"}
    assert data["slots"]["troops"] == {"count": 1, "min": 2, "max": 6}
    assert data["errors"] == [{"code": "slot_below_min", "slot": "troops", "params": {"count": 1, "min": 2}}]


# --- properties -------------------------------------------------------------------------------

SLOT_CHOICES = st.sampled_from((*KNOWN_SLOTS, None))
entry_st = st.builds(
    Entry,
    name=st.text(alphabet="abcdefgh XYZ", min_size=1, max_size=8),
    slot=SLOT_CHOICES,
    points=st.integers(min_value=0, max_value=400),
    models=st.integers(min_value=1, max_value=20),
)
entries_st = st.lists(entry_st, max_size=25)
chart_st = st.sampled_from(CHARTS)
limit_st = st.integers(min_value=0, max_value=3000)


def slot_count(report, slot: str) -> int:
    return report.slots[slot].count if slot in report.slots else 0


@settings(max_examples=200)
@given(entries_st, entry_st, chart_st, limit_st)
def test_adding_an_entry_never_lowers_its_slot_count_or_the_total(entries, extra, chart, limit):
    before = validate(entries, chart, limit)
    after = validate([*entries, extra], chart, limit)
    assert after.total_points >= before.total_points
    if extra.slot is not None:
        assert slot_count(after, extra.slot) == slot_count(before, extra.slot) + 1


@settings(max_examples=200)
@given(entries_st, chart_st, limit_st)
def test_total_is_the_sum_and_valid_iff_no_errors(entries, chart, limit):
    report = validate(entries, chart, limit)
    assert report.total_points == sum(entry.points for entry in entries)
    assert report.valid == (len(report.errors) == 0)
    for limit_row in chart.slots:
        expected = sum(1 for entry in entries if entry.slot == limit_row.slot)
        assert report.slots[limit_row.slot].count == expected


@settings(max_examples=200)
@given(entries_st, chart_st, limit_st)
def test_slot_errors_match_the_chart_bounds(entries, chart, limit):
    report = validate(entries, chart, limit)
    found = {(p.code, p.slot) for p in report.errors}
    for row in chart.slots:
        count = sum(1 for entry in entries if entry.slot == row.slot)
        assert (("slot_below_min", row.slot) in found) == (count < row.min)
        assert (("slot_above_max", row.slot) in found) == (row.max is not None and count > row.max)
    chart_slots = {row.slot for row in chart.slots}
    for slot in KNOWN_SLOTS:
        used = any(entry.slot == slot for entry in entries)
        assert (("slot_forbidden", slot) in found) == (used and slot not in chart_slots)
    total = sum(entry.points for entry in entries)
    assert (("points_over_limit", None) in found) == (total > limit)


@settings(max_examples=200)
@given(st.data(), chart_st)
def test_errors_do_not_depend_on_entry_order(data, chart):
    entries = data.draw(entries_st)
    limit = data.draw(limit_st)
    shuffled = data.draw(st.permutations(entries))
    first, second = validate(entries, chart, limit), validate(shuffled, chart, limit)
    assert first.errors == second.errors
    assert first.slots == second.slots
    assert sorted(map(repr, first.warnings)) == sorted(map(repr, second.warnings))


@st.composite
def legal_list(draw, chart: ChartSpec):
    entries: list[Entry] = []
    for row in chart.slots:
        high = row.max if row.max is not None else row.min + 3
        count = draw(st.integers(min_value=row.min, max_value=high))
        entries += [Entry(f"{row.slot} {i}", row.slot, draw(st.integers(1, 300))) for i in range(count)]
    return draw(st.permutations(entries))


@settings(max_examples=200)
@given(st.data())
def test_legal_list_plus_one_forbidden_unit_gives_exactly_slot_forbidden(data):
    chart = data.draw(st.sampled_from((ATTACKER, DEFENDER)))
    entries = data.draw(legal_list(chart))
    forbidden = data.draw(st.sampled_from([s for s in KNOWN_SLOTS if s not in chart.by_slot]))
    intruder = Entry("Intruder", forbidden, data.draw(st.integers(1, 300)))
    limit = sum(entry.points for entry in entries) + intruder.points
    assert validate(entries, chart, limit).valid
    position = data.draw(st.integers(0, len(entries)))
    report = validate([*entries[:position], intruder, *entries[position:]], chart, limit)
    assert [(p.code, p.slot) for p in report.errors] == [("slot_forbidden", forbidden)]


def test_an_unknown_slot_warning_names_its_slot_and_units_in_both_languages():
    params = {"count": 2, "names": ("Bastion", "Aegis line")}
    with translation.override("en"):
        english = render_problem("unknown_slot", "fortification", params, {})
    with translation.override("fr"):
        french = render_problem("unknown_slot", "fortification", params, {})
    assert english == ("fortification: 2 choices (Bastion, Aegis line); "
                       "no slot of this game system has this code.")
    assert "Bastion, Aegis line" in french and "aucun emplacement" in french
