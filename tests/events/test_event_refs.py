"""Ids inside an event's JSON fields are rewritten both ways, and an unknown one is caught."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import event_refs

GAME = {
    "roles": {"12": "attacker", "40": "defender"},
    "pregame": {
        "declaration_chooser": "12",
        "declares_first": "40",
        "goes_first": "12",
        "attacker": "12",
        "defender": "40",
        "role_chooser": None,
        "dawn_dusk": "turn_1",
    },
    "rolls": [
        {"sequence": 3, "purpose": "first_turn", "player": "40"},
        {"sequence": 4, "purpose": "dawn_dusk", "player": None},
    ],
    "list_problems": [{"player": 12, "code": "list_missing", "role": None, "chart": "x"}],
    "victory_points": {"12": 900, "40": 300},
    "declarations": {"40": ["bombardement"]},
    "outcome": {"flags": {"12": 2, "40": 1}, "holder": "40", "units_exited": 3},
}
REPORT = {
    "outcome": {"flags": {"12": 2, "40": 1}, "holder": "40", "units_exited": 3},
    "victory_points": {"12": 1},
    "stratagems": {"40": ["x"]},
}


def refs_for(table: dict[int, int]) -> event_refs.Refs:
    def find(value):
        try:
            return table.get(int(value))
        except (TypeError, ValueError):
            return None

    return event_refs.Refs(player=find, game=find, report=find, army_list=find, user=lambda v: v)


@given(st.permutations([1, 2]))
def test_there_and_back_is_the_identity(numbers):
    there = refs_for({12: numbers[0], 40: numbers[1]})
    back = refs_for({numbers[0]: 12, numbers[1]: 40})
    out = event_refs.game_fields(there, GAME)
    assert out["pregame"]["dawn_dusk"] == "turn_1" and out["pregame"]["goes_first"] == str(
        numbers[0]
    )
    assert out["list_problems"][0]["player"] == numbers[0]
    assert out["outcome"]["flags"] == {str(numbers[0]): 2, str(numbers[1]): 1}
    assert event_refs.game_fields(back, out) == GAME
    report = event_refs.report_fields(there, REPORT)
    assert report["outcome"]["holder"] == str(numbers[1]) and report["outcome"]["units_exited"] == 3
    assert event_refs.report_fields(back, report) == REPORT


def test_an_unknown_player_in_a_game_is_an_error():
    with pytest.raises(event_refs.UnknownRef) as caught:
        event_refs.game_fields(refs_for({12: 1}), GAME)
    assert caught.value.kind == "player" and caught.value.value == "40"


def test_the_audit_log_keeps_going_without_rows_that_are_gone():
    data = {
        "game": 99,
        "player": 12,
        "pack": 5,
        "user": "anne",
        "victory_points": {"12": 3},
        "before": {"user": "bob", "name": "A"},
        "nonce": "abc",
        "by_staff": True,
    }
    out = event_refs.audit_data(refs_for({12: 1}), data)
    assert out == {
        "game": None,
        "player": 1,
        "pack": None,
        "user": "anne",
        "victory_points": {"1": 3},
        "before": {"user": "bob", "name": "A"},
        "nonce": "abc",
        "by_staff": True,
    }


def test_awards_in_the_audit_name_their_component_and_players():
    nothing = refs_for({}).game
    refs = event_refs.Refs(player=refs_for({12: 1, 40: 2}).player, game=nothing, report=nothing,
                           army_list=nothing, user=lambda v: v,
                           component=refs_for({7: 3}).player)
    vote = {"component": 7, "voter": 12, "before": 40, "after": 12}
    assert event_refs.audit_data(refs, vote) == {"component": 3, "voter": 1, "before": 2,
                                                 "after": 1}
    removed = {"component": 8, "name": "Painting", "entries": {"12": 3, "40": 1}, "votes": 2}
    assert event_refs.audit_data(refs, removed) == {"component": None, "name": "Painting",
                                                    "entries": {"1": 3, "2": 1}, "votes": 2}
    # Elsewhere "before" and "after" are details, not players: a number stays as it was.
    entry = {"component": 7, "player": 40, "before": None, "after": {"value": 2, "reason": ""}}
    assert event_refs.audit_data(refs, entry)["after"] == {"value": 2, "reason": ""}
    assert event_refs.audit_data(refs, {"round": 1, "before": 5, "after": 6}) == {
        "round": 1, "before": 5, "after": 6}


def campaign_refs() -> event_refs.Refs:
    nothing = refs_for({}).game
    return event_refs.Refs(player=refs_for({12: 1}).player, game=refs_for({30: 2}).game,
                           report=nothing, army_list=nothing, user=lambda v: v,
                           order=refs_for({50: 1, 51: 2}).player,
                           battle=refs_for({70: 1}).player, score_entry=refs_for({90: 4}).player)


def test_a_campaign_battle_names_its_attacks_and_an_unknown_one_is_an_error():
    refs = campaign_refs()
    assert event_refs.battle_fields(refs, {"attack_ids": [51, 50], "attackers": ["A"]}) == {
        "attack_ids": [2, 1]}
    with pytest.raises(event_refs.UnknownRef) as caught:
        event_refs.battle_fields(refs, {"attack_ids": [52]})
    assert caught.value.kind == "order"


def test_campaign_audit_entries_name_orders_battles_and_ledger_lines():
    refs = campaign_refs()
    refused = {"campaign": "laitus", "order": 52, "reactions": [51, 53], "winner": "west",
               "side": "east", "turn": 2}
    assert event_refs.entry_data(refs, "campaign_order_refused", refused) == {
        "campaign": "laitus", "order": None, "reactions": [2, None], "winner": "west",
        "side": "east", "turn": 2}
    generated = {"battles": [{"id": 70, "territory": "A", "game": 30},
                             {"id": 70, "territory": "B", "game": None}]}
    assert event_refs.entry_data(refs, "campaign_battles_generated", generated) == {
        "battles": [{"id": 1, "territory": "A", "game": 2},
                    {"id": 1, "territory": "B", "game": None}]}
    added = {"player": 12, "user": "anne", "for_attack": None, "entry": 90, "battle": 70}
    assert event_refs.entry_data(refs, "campaign_side_added", added) == {
        "player": 1, "user": "anne", "for_attack": None, "entry": 4, "battle": 1}
    # The same keys outside a campaign's actions follow the event's table ("winner": a player).
    assert event_refs.entry_data(refs, "status_changed", {"winner": 12, "order": 50}) == {
        "winner": 1, "order": 50}
