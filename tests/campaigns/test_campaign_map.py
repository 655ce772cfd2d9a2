"""The Epic 40,000 campaign map (seed 001, *Territoires et Lignes de Résistance*, *Exemple de
carte*, *Isolement*) as the contract draws it (api-v1-systems "Epic 40,000 campaigns")."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.engine.map import (
    CODES,
    EAST,
    GRID,
    ORTHOGONAL_DIAGONAL,
    SIDES,
    TERRITORIES,
    WEST,
    UnknownTerritory,
    adjacent,
    check_majors,
    column_behind,
    column_codes,
    full_control,
    home_control,
    isolated,
    line_codes,
    line_of,
    nearest_friendly,
    neighbours,
    territory,
)

controls = st.fixed_dictionaries({code: st.sampled_from(SIDES) for code in CODES})


def test_the_grid_is_the_seeds_example_map():
    # « 1 4 7 A D G / 2 5 8 B E H / 3 6 9 C F I »
    assert GRID == (("1", "4", "7", "A", "D", "G"), ("2", "5", "8", "B", "E", "H"),
                    ("3", "6", "9", "C", "F", "I"))
    assert tuple("123456789ABCDEFGHI") == CODES
    assert {code for code in CODES if TERRITORIES[code].home_side == WEST} == set("123456789")


@pytest.mark.parametrize(("side", "line", "codes"), [
    # « 7-9 = Votre première ligne, 4-6 = seconde, 1-3 = troisième »; « A-C = Première ligne
    # de résistance ennemie, etc... »
    (WEST, 1, ("7", "8", "9")), (WEST, 2, ("4", "5", "6")), (WEST, 3, ("1", "2", "3")),
    (EAST, 1, ("A", "B", "C")), (EAST, 2, ("D", "E", "F")), (EAST, 3, ("G", "H", "I")),
])
def test_lines_of_resistance(side, line, codes):
    assert line_codes(side, line) == codes
    assert all(line_of(code) == line for code in codes)


def test_orthogonal_adjacency_across_the_front():
    assert neighbours("9") == {"6", "8", "C"}  # G4: 9 touches 6, 8, C
    assert neighbours("1") == {"2", "4"}
    assert neighbours("E") == {"B", "D", "F", "H"}
    for west, east in [("7", "A"), ("8", "B"), ("9", "C")]:
        assert adjacent(west, east) and adjacent(east, west)
    assert not adjacent("7", "B")
    assert adjacent("7", "B", ORTHOGONAL_DIAGONAL)
    assert not adjacent("7", "7")


def test_unknown_codes_are_refused():
    with pytest.raises(UnknownTerritory):
        territory("J")
    with pytest.raises(UnknownTerritory):
        full_control({"0": WEST})


def test_majors_of_the_example():
    # « 1 et 3 sont choisis pour être des territoires majeurs … troisième ligne »
    assert check_majors(WEST, ["1", "3"])
    assert all(line_of(code) == 3 for code in ("1", "3"))
    assert not check_majors(WEST, ["1", "1"])
    assert not check_majors(WEST, ["1", "A"])
    assert not check_majors(EAST, ["G"])


def test_nobody_is_isolated_at_the_start():
    assert isolated(home_control()) == frozenset()


def test_a_front_line_cut_off_from_its_second_line():
    # East takes the whole west line 2 (4, 5, 6): west's line 1 has nothing behind it, and the
    # east-held 4–6 have nothing of east's in west line 1 behind them either.
    control = full_control({"4": EAST, "5": EAST, "6": EAST})
    assert isolated(control) == frozenset("456789")


def test_an_advance_with_its_rear_held():
    # West takes A: behind it (toward west's home) is west line 1, which west holds.
    assert isolated(full_control({"A": WEST})) == frozenset()
    # West takes D (east line 2) without holding any of A–C: D is cut off.
    assert isolated(full_control({"D": WEST})) == frozenset("D")
    assert isolated(full_control({"D": WEST, "B": WEST})) == frozenset()


def test_one_friendly_territory_in_the_line_behind_is_enough():
    control = full_control({"4": EAST, "5": EAST})
    assert isolated(control) == frozenset({"4", "5"})  # east has nothing in 7–9 behind them


@given(controls)
def test_a_sides_rearmost_line_is_never_isolated(control):
    cut_off = isolated(control)
    for code in line_codes(WEST, 3):
        assert not (control[code] == WEST and code in cut_off)
    for code in line_codes(EAST, 3):
        assert not (control[code] == EAST and code in cut_off)


@given(controls)
def test_isolation_follows_its_definition(control):
    cut_off = isolated(control)
    for code in CODES:
        holder = control[code]
        behind = column_behind(code, holder)
        held_behind = behind is not None and any(control[c] == holder for c in column_codes(behind))
        assert (code in cut_off) == (behind is not None and not held_behind)


def test_nearest_friendly_territory():
    control = full_control({"7": EAST})
    assert nearest_friendly(control, WEST, "7") == ("4", "8")  # a tie: the owner picks (G14)
    assert nearest_friendly(control, EAST, "4") == ("7",)
    everything_east = dict.fromkeys(CODES, EAST)
    assert nearest_friendly(everything_east, WEST, "5") == ()
