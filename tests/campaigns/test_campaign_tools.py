"""Initiative, planet, phase roll-offs, fortifications, armies and score rules (seed 001)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.engine.army import DetachmentSpec, validate_army
from campaigns.engine.map import CODES, EAST, WEST, full_control
from campaigns.engine.placement import first_to_place, placement_refusal, unguarded_majors
from campaigns.engine.scoring import (
    ALL_TERRITORIES,
    BY_SCORE,
    ONCE,
    OTHER_SECTORS_TABLE,
    SURRENDER,
    TERRITORY_HELD,
    TERRITORY_LOST,
    battle_win_points,
    detachment_loss_penalty,
    other_sectors,
    territory_entries,
    victory,
)
from campaigns.engine.tools import (
    PLANETS,
    fortifications_allowed,
    initiative_value,
    phase_initiative,
    planet_from_total,
    roll_planet,
)
from missions.dice import DiceMissing, EnteredRoller, Roller
from tests.campaigns.epic_campaign_states import example_state


def test_initiative_value_of_the_seed_example():
    # « Valeur Stratégique = 5 / 5 / 2 -> 3 / -> 7 mouvements, attaques, réactions »
    assert initiative_value(5) == 7
    assert [initiative_value(v) for v in range(0, 11)] == [4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]
    with pytest.raises(ValueError):
        initiative_value(-1)


@pytest.mark.parametrize(("total", "planet"), [
    (2, "monde-demoniaque"), (3, "monde-mort"), (4, "monde-primitif"), (5, "monde-primitif"),
    (6, "monde-glace"), (7, "agri-monde"), (9, "monde-ruche"), (10, "monde-ruche"),
    (11, "monde-desertique"), (12, "monde-desertique"),
])
def test_planet_table(total, planet):
    result = planet_from_total(total)
    assert (result.planet, result.candidates) == (planet, (planet,))


def test_eight_is_asked_or_fixed_by_the_campaign():
    # « 7,8 Agri-Monde / 8,9,10 Monde Ruche »: 8 twice (G3).
    assert planet_from_total(8).planet is None
    assert planet_from_total(8).candidates == ("agri-monde", "monde-ruche")
    assert planet_from_total(8, "monde-ruche").planet == "monde-ruche"
    assert set(PLANETS) == {p for t in range(2, 13) for p in planet_from_total(t).candidates}


def test_planet_roll_with_entered_and_seeded_dice():
    assert roll_planet(EnteredRoller([3, 4])).result.planet == "agri-monde"
    seeded = roll_planet(Roller(7))
    assert roll_planet(EnteredRoller(seeded.roll.dice)) .result == seeded.result
    with pytest.raises(DiceMissing):
        roll_planet(EnteredRoller([6]))


def test_phase_initiative_adds_the_strategic_value_and_rerolls_ties():
    # R15: 1D6 + VS; G5: a tie is rolled again, west's die first each time.
    roller = EnteredRoller([4, 2, 1, 6])
    result = phase_initiative(roller, "moves", {WEST: 3, EAST: 5})
    assert [(r.actor, r.total) for r in result.rolls] == [(WEST, 4), (EAST, 2), (WEST, 1), (EAST, 6)]
    assert result.winner == EAST
    assert result.rolls[0].purpose == "epic.initiative.moves"
    assert phase_initiative(EnteredRoller([1, 6]), "air", {WEST: 6, EAST: 0}).winner == WEST


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10_000))
def test_phase_initiative_always_ends_with_the_higher_score(west, east, seed):
    result = phase_initiative(Roller(seed), "attacks", {WEST: west, EAST: east})
    last_west, last_east = result.rolls[-2:]
    scores = {WEST: last_west.total + west, EAST: last_east.total + east}
    assert scores[result.winner] > scores[result.loser]


def test_fortifications_per_full_250_points():
    # R31 « pour chaque tranche de 250 points », G24 floor.
    assert fortifications_allowed(749, True) == 2
    assert fortifications_allowed(750, True) == 3
    assert fortifications_allowed(2000, False) == 0


def test_army_points_and_supreme_commanders():
    dets = [DetachmentSpec("HQ", 1500, supreme_commander=True), DetachmentSpec("Tanks", 2000),
            DetachmentSpec("Titan", 2000, supreme_commander=True)]
    report = validate_army(dets, "space-marines")
    assert not report.valid and report.total_points == 5500
    assert [(p.code, dict(p.params)) for p in report.errors] == [
        ("army_points_over", {"total": 5500, "limit": 5000, "excess": 500}),
        ("supreme_commander_limit", {"count": 2, "max": 1}),
    ]
    eldar = validate_army(dets, "eldar", army_points=6000)
    assert eldar.valid and [p.code for p in eldar.warnings] == ["supreme_commander_exception"]
    assert validate_army(dets[:2], "orks").valid
    twice = validate_army([DetachmentSpec("A", 10), DetachmentSpec("A", 10)], "orks")
    assert [p.code for p in twice.errors] == ["detachment_name_duplicate"]


def test_battle_and_loss_points_of_the_digest():
    # Digest §13: beating 2,600 points → +2; an isolated 600-point detachment lost → −3, and
    # still −3 if it was swept as well (« Ne se cumule pas »).
    assert battle_win_points(2600) == 2
    assert battle_win_points(999) == 0
    assert detachment_loss_penalty(600, isolated=True, swept=False) == 3
    assert detachment_loss_penalty(600, isolated=True, swept=True) == 3
    assert detachment_loss_penalty(600, isolated=False, swept=True) == 1
    assert detachment_loss_penalty(200, isolated=True, swept=True) == 1
    assert detachment_loss_penalty(600, isolated=False, swept=False) == 0


@given(st.integers(0, 20_000), st.booleans(), st.booleans())
def test_a_loss_is_the_larger_penalty_never_both(points, isolated, swept):
    penalty = detachment_loss_penalty(points, isolated=isolated, swept=swept)
    iso = -(-points // 250) if isolated else 0
    assert penalty == max(iso, 1 if swept else 0)


@pytest.mark.parametrize(("die", "score", "modified", "delta"), [
    (1, 0, 1, -2), (2, 5, 2, -1), (3, 10, 3, -1), (4, 0, 4, -1), (5, 3, 5, 1), (6, 0, 6, 2),
    (1, -1, 1, -2),  # modified 0 kept at 1 (G19)
    (6, 11, 6, 2),  # modified 7 kept at 6
    (4, 11, 5, 1), (5, -3, 4, -1),
])
def test_other_sectors(die, score, modified, delta):
    result = other_sectors(die, score)
    assert (result.modified, result.delta, result.new_score) == (modified, delta, score + delta)


def test_other_sectors_table_is_data():
    assert OTHER_SECTORS_TABLE == {1: -2, 2: -1, 3: -1, 4: -1, 5: 1, 6: 2}
    assert other_sectors(3, 0, table={**OTHER_SECTORS_TABLE, 3: 0}).delta == 0


def test_territory_score_every_turn_and_once():
    control = full_control({"1": EAST, "7": EAST, "A": WEST})
    majors = frozenset({"1", "3", "G", "I"})
    entries = territory_entries(control, majors)
    by = {(e.side, e.kind, e.subject): e.points for e in entries}
    assert by == {(EAST, TERRITORY_HELD, "1"): 2, (WEST, TERRITORY_LOST, "1"): -2,
                  (EAST, TERRITORY_HELD, "7"): 1, (WEST, TERRITORY_LOST, "7"): -1,
                  (WEST, TERRITORY_HELD, "A"): 1, (EAST, TERRITORY_LOST, "A"): -1}
    once = territory_entries(control, majors, mode=ONCE, captured=frozenset({"7"}))
    assert {(e.side, e.points) for e in once} == {(EAST, 1), (WEST, -1)}


def test_victory():
    home = full_control({})
    assert victory(home, {WEST: 23, EAST: 0}) is None
    assert victory(home, {WEST: 24, EAST: 0}).side == WEST
    assert victory(home, {WEST: 25, EAST: 26}).side == EAST  # G21: higher wins
    assert victory(home, {WEST: 25, EAST: 25}) is None  # equal: play another turn
    everything = dict.fromkeys(CODES, EAST)
    assert (victory(everything, {WEST: 0, EAST: 0}).reason) == ALL_TERRITORIES
    assert victory(home, {WEST: 30, EAST: 0}).reason == BY_SCORE
    assert victory(home, {}, surrendered=frozenset({WEST})) .side == EAST
    assert victory(home, {}, surrendered=frozenset({WEST})).reason == SURRENDER


def test_first_placement():
    # R11: the lower strategic value places first; G5: a tie is a roll-off.
    assert first_to_place({WEST: 3, EAST: 2}) == (EAST, None)
    side, roll = first_to_place({WEST: 2, EAST: 2}, EnteredRoller([5, 2]))
    assert side == EAST and roll.winner == WEST


def test_placement_and_start_checks():
    state = example_state()
    state = state.moved(WEST, "Scouts", None)
    assert placement_refusal(state, WEST, "Scouts", "5") is None
    assert placement_refusal(state, WEST, "Scouts", "A") == ("placement_outside_sector", {"territory": "A"})
    assert placement_refusal(state, WEST, "Drop", "5") == ("airborne_starts_off_map", {"detachment": "Drop"})
    assert placement_refusal(state, WEST, "Armour", "5") == ("detachment_already_placed", {"detachment": "Armour"})
    assert placement_refusal(state, WEST, "Ghost", "5") == ("detachment_unknown", {"detachment": "Ghost"})
    assert placement_refusal(state, WEST, "Scouts", "Q") == ("territory_unknown", {"territory": "Q"})
    assert unguarded_majors(state) == ()
    assert unguarded_majors(state.moved(WEST, "Guard 1", None).moved(EAST, "Mob I", None)) == ("1", "I")
