"""The seed's own dice gates for infiltration, Flak and interception (R14, R21, R25, G23)."""
import pytest

from campaigns.engine.air import (
    CAPTURED,
    FULL_SHEET,
    NOTHING,
    WAR_ENGINES,
    flak_fires,
    infiltration_outcome,
    interception_successes,
)


@pytest.mark.parametrize(("die", "ground", "air"), [
    (6, FULL_SHEET, FULL_SHEET), (5, WAR_ENGINES, WAR_ENGINES), (4, NOTHING, NOTHING),
    (2, NOTHING, NOTHING), (1, CAPTURED, NOTHING),  # « les unités aériennes ignorent un résultat de 1 »
])
def test_infiltration(die, ground, air):
    assert infiltration_outcome(die, by_air=False) == ground
    assert infiltration_outcome(die, by_air=True) == air


def test_flak_fires_on_a_six_only():
    assert [flak_fires(d) for d in range(1, 7)] == [False] * 5 + [True]
    with pytest.raises(ValueError):
        flak_fires(7)


def test_interception_below_the_value():
    assert interception_successes([1, 3, 4, 6], [4, 4, 4, 6]) == 2
    with pytest.raises(ValueError):
        interception_successes([1], [4, 4])
