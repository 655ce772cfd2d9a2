"""Pre-game rolls (rules §2.9, §6.0, §7.2, §8) and on-demand rolls (§3.5, §7.3–§7.5)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from missions.dice import Roller
from missions.pregame import (
    DEFAULT_RESERVES_TABLE,
    GameLength,
    PregameChoices,
    ReservesTable,
    dawn_and_dusk,
    is_night,
    markers,
    night_fighting_range,
    pregame,
    random_game_length,
    reserves_roll,
)
from tests.missions.cod_catalogue import MISSIONS

seeds = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = ("Ann", "Bob")


def _purposes(result):
    """The purposes of the rolls, each run of equal purposes collapsed to one."""
    out: list[str] = []
    for roll in result.rolls:
        if not out or out[-1] != roll.purpose:
            out.append(roll.purpose)
    return out


def _last_pair_winner(result, purpose):
    pair = [r for r in result.rolls if r.purpose == purpose][-2:]
    return max(pair, key=lambda r: r.total).actor


@given(seeds)
def test_standard_alpha_sequence(seed):
    # §6.0 / §2.9: quarters roll-off, declaration roll-off, first-turn roll-off; no Dawn & Dusk at Alpha.
    roller = Roller(seed)
    result = pregame(roller, MISSIONS["accrochage"], "alpha", PLAYERS)
    assert _purposes(result) == ["deployment", "stratagem_declaration", "first_turn"]
    assert result.rolls == roller.rolls
    assert result.dawn_dusk is None
    assert result.attacker is None and result.defender is None
    # §6.0 steps 1 and 4: the highest roller chooses the quarter, the lowest deploys first.
    assert result.deployment_chooser == _last_pair_winner(result, "deployment")
    assert result.deploys_first != result.deployment_chooser
    assert {result.deploys_first, result.deployment_chooser} == set(PLAYERS)
    # §3.2 and §6.0 step 6: the highest roller chooses; by default to go first.
    assert result.declaration_chooser == _last_pair_winner(result, "stratagem_declaration")
    assert result.declares_first == result.declaration_chooser
    assert result.first_turn_chooser == _last_pair_winner(result, "first_turn")
    assert result.goes_first == result.first_turn_chooser


@given(seeds)
def test_dawn_and_dusk_is_rolled_after_deployment_before_first_turn_at_gamma(seed):
    # §6.0 special rules by level + §7.2 timing.
    result = pregame(Roller(seed), MISSIONS["domination"], "gamma", PLAYERS)
    assert _purposes(result) == ["deployment", "stratagem_declaration", "dawn_dusk", "first_turn"]
    face = next(r.total for r in result.rolls if r.purpose == "dawn_dusk")
    assert result.dawn_dusk == {1: "turn_1", 6: "from_turn_6"}.get(face, "none")


@given(seeds)
def test_winner_choices_can_be_inverted(seed):
    choices = PregameChoices(winner_declares_first=False, winner_goes_first=False)
    result = pregame(Roller(seed), MISSIONS["accrochage"], "omega", PLAYERS, choices=choices)
    assert result.declares_first != result.declaration_chooser
    assert result.goes_first != result.first_turn_chooser


@given(seeds)
def test_le_defi_roles_then_attacker_first(seed):
    # §8.2: roles first; no deployment roll (the defender picks his edge); the attacker plays first.
    # §8.0: Dawn & Dusk is listed for special missions at every level, Alpha included.
    result = pregame(Roller(seed), MISSIONS["le-defi"], "alpha", PLAYERS)
    assert _purposes(result) == ["roles", "stratagem_declaration", "dawn_dusk"]
    assert result.role_chooser == _last_pair_winner(result, "roles")
    assert result.attacker == result.role_chooser  # default: the winner attacks
    assert {result.attacker, result.defender} == set(PLAYERS)
    assert result.goes_first == result.attacker
    assert result.first_turn_chooser is None
    assert result.deployment_chooser is None and result.deploys_first is None


@given(seeds)
def test_winner_may_take_defender(seed):
    choices = PregameChoices(winner_takes="defender")
    result = pregame(Roller(seed), MISSIONS["attaque-eclair"], "gamma", PLAYERS, choices=choices)
    assert result.defender == result.role_chooser
    assert result.goes_first == result.attacker  # §8.6: the attacker plays first


@given(seeds)
def test_assaut_general_edge_roll_off_and_defender_first(seed):
    # §8.5: roll-off for the long edge; the defender plays first.
    result = pregame(Roller(seed), MISSIONS["assaut-general"], "alpha", PLAYERS)
    assert _purposes(result) == ["roles", "deployment", "stratagem_declaration", "dawn_dusk"]
    assert result.goes_first == result.defender


@given(seeds)
def test_devastation_totale_quarter_and_first_turn_roll_offs(seed):
    # §8.3 steps 2, 3 and 5.
    result = pregame(Roller(seed), MISSIONS["devastation-totale"], "omega", PLAYERS)
    assert _purposes(result) == [
        "roles",
        "deployment",
        "stratagem_declaration",
        "dawn_dusk",
        "first_turn",
    ]
    assert result.deploys_first != result.deployment_chooser


def test_agreed_roles_skip_the_roll():
    result = pregame(
        Roller(3),
        MISSIONS["renforts"],
        "gamma",
        PLAYERS,
        roles={"Ann": "defender", "Bob": "attacker"},
    )
    assert "roles" not in _purposes(result)
    assert (result.attacker, result.defender, result.role_chooser) == ("Bob", "Ann", None)


@pytest.mark.parametrize(
    "roles",
    [
        {"Ann": "attacker", "Bob": "attacker"},
        {"Ann": "attacker"},
        {"Ann": "attacker", "Cy": "defender"},
    ],
)
def test_bad_agreed_roles(roles):
    with pytest.raises(ValueError):
        pregame(Roller(3), MISSIONS["renforts"], "gamma", PLAYERS, roles=roles)


@given(seeds)
def test_strategy_ratings_modify_the_role_roll(seed):
    result = pregame(
        Roller(seed), MISSIONS["assassinat"], "alpha", PLAYERS, strategy_ratings={"Bob": 6}
    )
    assert result.role_chooser == "Bob"


def test_deployment_roll_off_can_be_forced():
    result = pregame(Roller(1), MISSIONS["le-defi"], "alpha", PLAYERS, deployment_roll_off=True)
    assert "deployment" in _purposes(result)
    result = pregame(Roller(1), MISSIONS["accrochage"], "alpha", PLAYERS, deployment_roll_off=False)
    assert "deployment" not in _purposes(result)


def test_players_must_differ():
    with pytest.raises(ValueError):
        pregame(Roller(1), MISSIONS["accrochage"], "alpha", ("Ann", "Ann"))


def test_pregame_is_deterministic():
    a = pregame(Roller(42), MISSIONS["assaut-urbain"], "omega", PLAYERS)
    b = pregame(Roller(42), MISSIONS["assaut-urbain"], "omega", PLAYERS)
    assert a == b


@pytest.mark.parametrize("seed", range(60))
def test_dawn_and_dusk_table(seed):
    # §7.2: 1 -> night on turn 1; 6 -> night from turn 6; otherwise nothing.
    roll, effect = dawn_and_dusk(Roller(seed))
    assert effect == {1: "turn_1", 6: "from_turn_6"}.get(roll.total, "none")


@pytest.mark.parametrize(
    ("effect", "night_turns"),
    [("turn_1", {1}), ("from_turn_6", {6, 7, 8, 9}), ("none", set()), (None, set())],
)
def test_is_night(effect, night_turns):
    # §7.2 and §7.4: night from turn 6 stays for any extra turn.
    assert {t for t in range(1, 10) if is_night(effect, t)} == night_turns


@settings(max_examples=300)
@given(seeds)
def test_random_game_length(seed):
    # §7.4: roll after the last turn; 4+ adds a turn; stop on 1-3 or after three extra turns.
    result = random_game_length(Roller(seed))
    faces = [r.total for r in result.rolls]
    assert 1 <= len(faces) <= 3
    assert all(face >= 4 for face in faces[:-1])
    extra = len(faces) if faces[-1] >= 4 else len(faces) - 1
    assert result.turns == 6 + extra
    assert 6 <= result.turns <= 9


def test_random_game_length_reaches_both_ends_and_takes_parameters():
    turns = {random_game_length(Roller(s)).turns for s in range(200)}
    assert turns == {6, 7, 8, 9}
    assert random_game_length(Roller(1), last_turn=5, max_extra=0) == GameLength((), 5)
    with pytest.raises(ValueError):
        random_game_length(Roller(1), last_turn=0)


@given(seeds)
def test_markers_are_d3_plus_3(seed):
    # §3.5: traps, obstacle pieces and sewer markers: 1D3+3, so 4 to 6.
    roll = markers(Roller(seed), "piege", actor="Ann")
    assert 1 <= roll.dice[0] <= 3
    assert roll.total == roll.dice[0] + 3
    assert (roll.purpose, roll.actor) == ("piege", "Ann")


@given(seeds)
def test_night_fighting_range(seed):
    # §7.3: 2D6 x 3 inches.
    roll = night_fighting_range(Roller(seed))
    assert roll.total == 3 * sum(roll.dice)
    assert 6 <= roll.total <= 36


@given(seeds, st.integers(1, 12))
def test_reserves_follow_the_table(seed, turn):
    # §7.5: turn 1 none, turn 2 on 4+, turn 3 on 3+, turn 4 on 2+; turn 5+ [Gap] automatic by default.
    result = reserves_roll(Roller(seed), turn)
    needed = {1: None, 2: 4, 3: 3, 4: 2}.get(turn, 1)
    assert result.target == needed
    if turn == 1:
        assert (result.arrives, result.roll) == (False, None)
    elif turn >= 5:
        assert (result.arrives, result.roll) == (True, None)
    else:
        assert result.arrives == (result.roll.total >= needed)


def test_reserves_table_is_a_parameter():
    never_late = ReservesTable(later=None)
    assert not reserves_roll(Roller(1), 5, never_late).arrives
    six_later = ReservesTable(later=6)
    results = [reserves_roll(Roller(s), 7, six_later) for s in range(30)]
    assert all(r.arrives == (r.roll.total == 6) for r in results)
    assert DEFAULT_RESERVES_TABLE.target(2) == 4
    with pytest.raises(ValueError):
        ReservesTable(by_turn={1: None, 3: 3}).target(2)
    with pytest.raises(ValueError):
        DEFAULT_RESERVES_TABLE.target(0)
