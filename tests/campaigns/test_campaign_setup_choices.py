"""What the campaign page's placement form offers (campaigns/pages/setup.placement_choices):
only what the engine's ``placement_refusal`` accepts (R11, R13), narrowed to the unguarded
majors once every detachment left is needed to guard them (R10, G28: air does not guard)."""
from dataclasses import replace

import pytest

from campaigns.engine.army import AIR, AIRBORNE
from campaigns.engine.map import EAST, WEST
from campaigns.engine.placement import placement_refusal
from campaigns.pages.setup import placement_choices
from tests.campaigns.epic_campaign_states import det, example_state

WEST_CODES = list("123456789")
MAJORS = ("1", "3")


def unplaced(*names_and_places, air=(), airborne=("Drop",)):
    """West's detachments at the given places (None: still to place); east's from the example."""
    west = [det(name, WEST, code, kind=AIR if name in air else AIRBORNE if name in airborne
                else "ground") for name, code in names_and_places]
    east = [d for d in example_state().detachments if d.side == EAST]
    return replace(example_state(), detachments=(*west, *east))


def offered(state, majors=MAJORS):
    found = placement_choices(state, WEST, majors)
    return [v for v, _label in found.detachments], [v for v, _label in found.territories], found


def assert_all_accepted(state, majors=MAJORS) -> None:
    names, codes, _found = offered(state, majors)
    for name in names:
        for code in codes:
            assert placement_refusal(state, WEST, name, code) is None, (name, code)


def test_nothing_placed_offers_every_detachment_but_the_airborne_and_the_whole_sector():
    state = unplaced(("Guard", None), ("Wings", None), ("Drop", None), ("HQ", None),
                     ("Titans", None), air=("Wings",))
    names, codes, found = offered(state)
    assert names == ["Guard", "Wings", "HQ", "Titans"]  # R13: Drop starts in orbit
    assert codes == WEST_CODES
    assert found.unguarded == MAJORS and found.notes == ()
    labels = dict(found.territories)
    assert labels["1"] == "1: line 3, major, no guard yet" and labels["7"] == "7: line 1"
    assert_all_accepted(state)


def test_the_last_guards_are_offered_only_the_unguarded_majors():
    state = unplaced(("A", "4"), ("B", "7"), ("Guard 1", None), ("Guard 3", None))
    names, codes, found = offered(state)
    assert names == ["Guard 1", "Guard 3"] and codes == ["1", "3"]
    assert "only those are offered" in found.notes[0]
    assert_all_accepted(state)
    one_left = unplaced(("A", "4"), ("Guard 1", "1"), ("Guard 3", None))
    assert offered(one_left)[1] == ["3"]


def test_an_air_detachment_left_keeps_the_whole_sector_with_a_warning():
    state = unplaced(("A", "4"), ("Guard 1", None), ("Guard 3", None), ("Wings", None),
                     air=("Wings",))
    names, codes, found = offered(state)
    assert codes == WEST_CODES
    assert found.notes == ("Your ground detachments left to place are needed on your unguarded "
                           "majors (1, 3); air detachments do not guard them.",)
    assert_all_accepted(state)


def test_too_few_guards_left_says_so_and_restricts_nothing():
    state = unplaced(("A", "4"), ("B", "5"), ("Guard", None), ("Wings", None), air=("Wings",))
    names, codes, found = offered(state)
    assert codes == WEST_CODES
    assert found.notes[0].startswith("Only 1 of your detachments left to place can guard a major")


@pytest.mark.parametrize("majors", [(), ("1",)])
def test_without_two_majors_nothing_is_narrowed(majors):
    state = unplaced(("A", "4"), ("Guard 1", None), ("Guard 3", None))
    names, codes, found = offered(state, majors)
    assert codes == WEST_CODES and found.notes == ()


def test_everything_placed_offers_nothing():
    state = unplaced(("Guard 1", "1"), ("Guard 3", "3"), ("Drop", None))
    assert offered(state)[:2] == ([], [])
