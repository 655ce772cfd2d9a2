"""Urban War profile cards and commandos (seed 002_6c948cbe0f018e4c.txt)."""

import json

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from armylists.catalogue import read
from systems.urban_war import commando as urban_war
from systems.urban_war.commando import (
    CalOption,
    CardOption,
    CommandoModel,
    CommandoRules,
    ProfileCard,
)
from systems.urban_war.list_messages import TEMPLATES, render_urban_war_problem

CARDS = urban_war.load_cards()
MARINE = "43101"


def marines(count, cal=0, commander_at=0, **kwargs):
    return [CommandoModel(MARINE, cal, commander=index == commander_at, **kwargs) for index in range(count)]


def codes(report):
    return [p.code for p in report.errors]


# The card as printed in the seed -------------------------------------------------------------

def test_card_43101_is_the_seed_card():
    # Seed lines 58-62 (recto): « COLONIAL MARINE / AS SH ST T W CD SZ MV / 3 4 4 4 1 4 2 4 »;
    # lines 65-69: « CAL FS FU » rows 0 0, 1 1, 2 2; lines 87-102 (verso): « EQUIPMENT COST
    # CAL0 CAL1 CAL2 CAL3 … 20 26 33 N/A », « OPTIONS COST MODIFIER None », « 43101 ».
    card = CARDS[MARINE]
    assert card.card == "43101"
    assert card.name_en == card.name_fr == "Colonial Marine"
    assert dict(card.stats) == {"AS": 3, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 4, "SZ": 2, "MV": 4}
    assert [(o.cal, o.fs, o.cost) for o in card.cal_options] == [(0, 0, 20), (1, 1, 26), (2, 2, 33), (3, None, None)]
    assert card.available_cals == (0, 1, 2)
    assert card.options == () and card.options_cost_modifier == "None"
    assert card.faction == "viridian"


def test_card_in_the_contract_shape():
    assert CARDS[MARINE].to_dict("fr") == {
        "card": "43101", "name": "Colonial Marine", "faction": "viridian",
        "stats": {"AS": 3, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 4, "SZ": 2, "MV": 4},
        "cal_options": [{"cal": 0, "fs": 0, "cost": 20}, {"cal": 1, "fs": 1, "cost": 26},
                        {"cal": 2, "fs": 2, "cost": 33}, {"cal": 3, "fs": None, "cost": None}],
        "options": [],
    }
    card = urban_war.card_from_dict({**read(urban_war.DATA_FILE)["profile_cards"][0], "options": [
        {"code": "scope", "name_en": "Scope", "name_fr": "Lunette", "cost": 4}]})
    assert card.to_dict("fr")["options"] == [{"code": "scope", "name": "Lunette", "cost": 4}]
    assert card.to_dict("en")["options"] == [{"code": "scope", "name": "Scope", "cost": 4}]


def test_data_file_holds_the_system_and_the_chart():
    data = read(urban_war.DATA_FILE)
    assert data["game_system"]["slug"] == "urban-war" and data["game_system"]["kind"] == "commando"
    assert {data["game_system"]["name_en"], data["game_system"]["name_fr"]} == {"Urban War"}
    chart = data["charts"][0]
    assert chart["slug"] == "urban-war-commando"
    assert chart["rules"] == {"size_min": 6, "size_max": 20, "commander": "exactly_one", "max_copies": None}
    assert {f["slug"] for f in data["factions"]} == {c["faction"] for c in data["profile_cards"]}
    # N/A is stored as null, as the contract's profiles answer shows it.
    raw = json.dumps(data["profile_cards"][0]["cal_options"][3])
    assert raw == '{"cal": 3, "fs": null, "cost": null}'


@pytest.mark.parametrize(("cal", "cost"), [(0, 20), (1, 26), (2, 33)])
def test_seed_costs_per_calibre(cal, cost):
    assert urban_war.model_cost(CARDS[MARINE], cal) == cost


def test_cal3_is_not_available():
    with pytest.raises(urban_war.CalNotAvailable):
        urban_war.model_cost(CARDS[MARINE], 3)


@pytest.mark.parametrize("change", [
    {"stats": {"AS": 3}},  # a missing characteristic
    {"stats": {"AS": 11, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 4, "SZ": 2, "MV": 4}},  # U-R6 1-10
    {"stats": {"AS": 3, "SH": 4, "ST": 4, "T": 4, "W": 0, "CD": 4, "SZ": 2, "MV": 4}},  # W >= 1
    {"cal_options": [{"cal": 0, "fs": 0, "cost": 20}, {"cal": 0, "fs": 1, "cost": 26}]},
    {"cal_options": [{"cal": -1, "fs": 0, "cost": 20}]},  # U-R3 CAL >= 0
    {"cal_options": [{"cal": 0, "fs": None, "cost": 20}]},  # an available CAL has a First Strike
])
def test_bad_cards_are_refused(change):
    row = {**read(urban_war.DATA_FILE)["profile_cards"][0], **change}
    with pytest.raises(ValueError):
        urban_war.card_from_dict(row)


# Commando validation -------------------------------------------------------------------------

def test_a_valid_commando_gives_the_contract_fields():
    models = [CommandoModel(MARINE, 2, commander=True, label="Sgt Rook"), *marines(5, cal=1, commander_at=-1)]
    report = urban_war.validate_commando(models, CARDS, 250)
    assert report.valid and report.errors == ()
    assert report.total_points == 33 + 5 * 26
    assert report.models == 6 and report.follow_up_actions == 2 + 5
    assert report.commander == "Sgt Rook"
    assert report.to_dict()["entries"][:2] == [
        {"profile": "43101", "label": "Sgt Rook", "cal": 2, "points": 33, "fs": 2, "fu": 2},
        {"profile": "43101", "label": "43101-1", "cal": 1, "points": 26, "fs": 1, "fu": 1},
    ]
    assert set(report.to_dict()) == {"valid", "total_points", "models", "follow_up_actions", "commander",
                                     "entries", "errors", "warnings"}


def test_every_problem_at_once_in_the_documented_order():
    models = [
        CommandoModel(MARINE, 3, commander=True, label="A"),
        CommandoModel("99999", 1, commander=True, label="A"),
        CommandoModel(MARINE, 2, options=("jetpack",)),
    ]
    report = urban_war.validate_commando(models, CARDS, 30, CommandoRules(max_copies=1))
    assert [(p.code, dict(p.params)) for p in report.errors] == [
        ("points_over_limit", {"total": 33, "limit": 30, "excess": 3}),
        ("commando_size_below_min", {"count": 3, "min": 6}),
        ("commander_multiple", {"count": 2}),
        ("cal_not_available", {"profile": "43101", "cal": 3, "available": (0, 1, 2)}),
        ("unknown_profile", {"profile": "99999"}),
        ("option_not_available", {"profile": "43101", "option": "jetpack", "label": "43101-1"}),
        ("label_duplicate", {"label": "A", "count": 2}),
        ("profile_copies_above_max", {"profile": "43101", "count": 2, "max": 1}),
    ]
    assert not report.valid and report.commander is None
    assert [(e.points, e.fs, e.fu) for e in report.entries] == [(0, None, 3), (0, None, 1), (33, 2, 2)]


def test_size_bounds_and_commander():
    assert codes(urban_war.validate_commando(marines(21), CARDS, None)) == ["commando_size_above_max"]
    assert urban_war.validate_commando(marines(21), CARDS, None).errors[0].params == {"count": 21, "max": 20}
    assert urban_war.validate_commando(marines(20), CARDS, None).valid
    assert urban_war.validate_commando(marines(6), CARDS, None).valid
    assert codes(urban_war.validate_commando(marines(6, commander_at=-1), CARDS, None)) == ["commander_missing"]
    # The event's own bounds (UG2).
    assert urban_war.validate_commando(marines(4), CARDS, None, CommandoRules(size_min=3, size_max=4)).valid
    assert codes(urban_war.validate_commando([], CARDS, None)) == ["commando_size_below_min", "commander_missing"]


def test_points_limit_is_inclusive():
    # Six CAL0 marines: « 20 » each (seed line 91).
    assert urban_war.validate_commando(marines(6), CARDS, 120).valid
    report = urban_war.validate_commando(marines(6), CARDS, 119)
    assert codes(report) == ["points_over_limit"] and report.errors[0].params["excess"] == 1


def test_options_cost_once_and_a_repeat_is_a_warning():
    card = ProfileCard("1", "f", "Trooper", "Troupier", dict(CARDS[MARINE].stats),
                       (CalOption(0, 0, 10), CalOption(1, 1, 15)),
                       (CardOption("grenades", "Grenades", "Grenades", 3), CardOption("banned", "B", "B", None)))
    model = CommandoModel("1", 1, options=("grenades", "grenades"), commander=True)
    report = urban_war.validate_commando([model], {"1": card}, None, CommandoRules(size_min=1))
    assert report.total_points == 18 and report.valid
    assert [(w.code, dict(w.params)) for w in report.warnings] == [
        ("option_repeated", {"label": "1-1", "option": "grenades"})]
    # An option whose cost is N/A cannot be taken.
    report = urban_war.validate_commando([CommandoModel("1", 0, ("banned",), True)], {"1": card}, None,
                                         CommandoRules(size_min=1))
    assert codes(report) == ["option_not_available"]


def test_generated_labels_are_stable_and_never_clash():
    models = [CommandoModel(MARINE, 0, label="43101-1"), CommandoModel(MARINE, 0), CommandoModel("7", 0),
              CommandoModel(MARINE, 0, label="  "), CommandoModel(MARINE, 0, label=" Rook ")]
    assert urban_war.labels(models) == ("43101-1", "43101-2", "7-1", "43101-3", "Rook")
    assert urban_war.labels(models) == urban_war.labels(list(models))


def test_profile_numbers_may_be_given_as_integers():
    report = urban_war.validate_commando([CommandoModel(43101, 1, commander=True)], CARDS, None,
                                         CommandoRules(size_min=1))
    assert report.valid and report.entries[0].profile == "43101"


# Properties ----------------------------------------------------------------------------------

def option_card(costs):
    options = tuple(CardOption(f"o{i}", f"O{i}", f"O{i}", cost) for i, cost in enumerate(costs))
    return ProfileCard("5", "f", "X", "X", dict(CARDS[MARINE].stats),
                       (CalOption(0, 0, 11), CalOption(1, 1, 17), CalOption(2, 2, 24), CalOption(3, None, None)),
                       options)


model_specs = st.tuples(st.sampled_from(["43101", "5"]), st.integers(0, 3),
                        st.lists(st.sampled_from(["o0", "o1", "o2"]), max_size=3, unique=True), st.booleans())


def build(specs):
    return [CommandoModel(card, cal, tuple(opts), commander) for card, cal, opts, commander in specs]


@given(st.lists(st.integers(0, 20), min_size=3, max_size=3), st.lists(model_specs, max_size=25))
def test_a_model_costs_its_calibre_plus_its_options(costs, specs):
    cards = {**CARDS, "5": option_card(costs)}
    report = urban_war.validate_commando(build(specs), cards, None)
    for (card, cal, opts, _), entry in zip(specs, report.entries, strict=True):
        if card == "5" and cal < 3:
            assert entry.points == (11, 17, 24)[cal] + sum(costs[int(o[1])] for o in opts)
        if card == MARINE and cal < 3 and not opts:
            assert entry.points == (20, 26, 33)[cal] and entry.fs == cal
    assert report.total_points == sum(entry.points for entry in report.entries)


@given(st.lists(model_specs, max_size=25), model_specs)
def test_adding_a_model_never_lowers_the_total(specs, extra):
    cards = {**CARDS, "5": option_card([1, 2, 3])}
    before = urban_war.validate_commando(build(specs), cards, None)
    after = urban_war.validate_commando(build([*specs, extra]), cards, None)
    assert after.total_points >= before.total_points
    assert after.models == before.models + 1


@given(st.lists(model_specs, max_size=25))
def test_follow_up_actions_are_the_sum_of_calibres(specs):
    report = urban_war.validate_commando(build(specs), {**CARDS, "5": option_card([0, 0, 0])}, None)
    assert report.follow_up_actions == sum(cal for _, cal, _, _ in specs)
    assert [entry.fu for entry in report.entries] == [cal for _, cal, _, _ in specs]
    assert len(set(urban_war.labels(build(specs)))) == len(specs)
    assert report.valid == (report.errors == ())


# Sentences -----------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [*TEMPLATES, "cal_not_available", "points_over_limit"])
def test_every_code_reads_as_a_sentence_in_both_languages(code):
    params = {"count": 2, "min": 6, "max": 20, "profile": "43101", "cal": 3, "available": [0, 1, 2],
              "option": "x", "label": "Rook", "total": 300, "limit": 250, "excess": 50}
    with translation.override("en"):
        english = render_urban_war_problem(code, params)
    with translation.override("fr"):
        french = render_urban_war_problem(code, params)
    assert english != code and french != code and english != french


def test_cal_not_available_names_the_calibres_to_choose():
    with translation.override("en"):
        text = render_urban_war_problem("cal_not_available", {"profile": "43101", "cal": 3, "available": [0, 1, 2]})
        assert "0, 1, 2" in text and "43101" in text
        assert render_urban_war_problem("cal_not_available", {"profile": "1", "cal": 0, "available": []}) != \
            "cal_not_available"
        assert render_urban_war_problem("commander_multiple", {}) == "commander_multiple"
