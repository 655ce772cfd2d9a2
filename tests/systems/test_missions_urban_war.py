"""Urban War table rules (seed 002_6c948cbe0f018e4c.txt): initiative, set-up, command test,
the D10 reference card and results."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.dice import DiceInvalid, DiceMissing, EnteredRoller, Roller
from systems.urban_war import table_rules as urban_war
from systems.urban_war.commando import CommandoModel, load_cards, validate_commando
from systems.urban_war.table_rules import KillsRefused, Outcome

seeds = st.integers(min_value=0, max_value=2**63 - 1)
d10 = st.integers(1, 10)
PLAYERS = ("A", "B")


# Initiative -----------------------------------------------------------------------------------

def test_initiative_lists_every_die_and_rerolls_ties():
    # « Chaque joueur lance 1D10 et celui qui obtient le score le plus élevé gagne l'initiative.
    # Relancez les égalités. » 7-7 is re-rolled, then 3 against 9.
    result = urban_war.initiative(EnteredRoller([7, 7, 3, 9]), PLAYERS, turn=2)
    assert result.winner == "B" and result.loser == "A"
    assert result.to_dict() == {"turn": 2, "winner": "B", "rolls": [
        {"player": "A", "die": 7, "modifier": 0, "score": 7}, {"player": "B", "die": 7, "modifier": 0, "score": 7},
        {"player": "A", "die": 3, "modifier": 0, "score": 3}, {"player": "B", "die": 9, "modifier": 0, "score": 9},
    ]}
    assert all(roll.purpose == "urban_war_initiative" and roll.expression == "1D10" for roll in result.raw)


def test_a_commander_panicked_or_dead_costs_one():
    # « Si le commandant est paniqué ou mort, le commando souffre d'une pénalité de -1 à ses jets
    # d'initiative »: 6 − 1 = 5 against 5 is a tie, re-rolled.
    result = urban_war.initiative(EnteredRoller([6, 5, 4, 2]), PLAYERS, commander_down={"A"})
    assert [(r.die, r.modifier, r.score) for r in result.rolls] == [(6, -1, 5), (5, 0, 5), (4, -1, 3), (2, 0, 2)]
    assert result.winner == "A"
    both = urban_war.initiative(EnteredRoller([2, 1]), PLAYERS, commander_down=("A", "B"))
    assert [r.score for r in both.rolls] == [1, 0] and both.winner == "A"


def test_initiative_refuses_bad_input():
    with pytest.raises(ValueError):
        urban_war.initiative(Roller(1), PLAYERS, commander_down={"C"})
    with pytest.raises(ValueError):
        urban_war.initiative(Roller(1), PLAYERS, turn=0)
    with pytest.raises(DiceInvalid):
        urban_war.initiative(EnteredRoller([11, 2]), PLAYERS)
    with pytest.raises(DiceMissing):
        urban_war.initiative(EnteredRoller([4, 4, 5]), PLAYERS)


@given(seeds, st.sets(st.sampled_from(PLAYERS)))
def test_the_initiative_winner_has_the_highest_score_and_ties_never_win(seed, down):
    result = urban_war.initiative(Roller(seed), PLAYERS, commander_down=down)
    pairs = [result.rolls[i:i + 2] for i in range(0, len(result.rolls), 2)]
    *ties, last = pairs
    assert all(a.score == b.score for a, b in ties)
    a, b = last
    assert a.score != b.score
    assert result.winner == (a.player if a.score > b.score else b.player)
    assert all(1 <= r.die <= 10 and r.modifier == (-1 if r.player in down else 0) for r in result.rolls)
    assert [r.player for r in result.rolls] == list(PLAYERS) * len(pairs)


@given(seeds, st.sets(st.sampled_from(PLAYERS)))
def test_entered_faces_give_what_the_server_would(seed, down):
    # api-v1-systems "Dice thrown at the table": the seeded faces, entered, give the same answer.
    seeded = urban_war.initiative(Roller(seed), PLAYERS, 3, down)
    entered = urban_war.initiative(EnteredRoller([r.die for r in seeded.rolls]), PLAYERS, 3, down)
    assert entered.to_dict() == seeded.to_dict()
    rolled = urban_war.setup(Roller(seed), PLAYERS)
    faces = [r.total for r in (*rolled.side.rolls, *rolled.start.rolls)]
    assert urban_war.setup(EnteredRoller(faces), PLAYERS) == rolled


# Set-up ---------------------------------------------------------------------------------------

def test_setup_side_then_deployment_chooser_then_start():
    # « les joueurs lancent un dé. Celui qui a le plus haut score choisit son côté » (8 vs 2: A);
    # « Le joueur qui n'a pas choisit le côté décide qui commence le déploiement » (B);
    # « Les deux joueurs lancent un dé. Le joueur avec le meilleur score choisit qui commence »
    # (4-4 re-rolled, then 1 vs 10: B).
    result = urban_war.setup(EnteredRoller([8, 2, 4, 4, 1, 10]), PLAYERS)
    assert result.side_chooser == "A" and result.deployment_chooser == "B" and result.start_chooser == "B"
    assert [r.purpose for r in result.start.rolls] == ["urban_war_start"] * 4
    assert {r.expression for r in (*result.side.rolls, *result.start.rolls)} == {"1D10"}  # UG5
    assert urban_war.DEPLOY_WITHIN_INCHES == 6


@given(seeds)
def test_the_deployment_chooser_never_chose_the_side(seed):
    result = urban_war.setup(Roller(seed), PLAYERS)
    assert {result.side_chooser, result.deployment_chooser} == set(PLAYERS)


# Command test ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("dice", "cd", "cal", "mods", "unmodified", "total", "auto", "passed"), [
    ((6, 5), 4, 0, (), 11, 15, False, True),  # « Si le résultat est 15 ou plus … réussi »
    ((6, 4), 4, 0, (), 10, 14, False, False),
    ((3, 2), 10, 5, (), 5, 20, True, False),  # « Un résultat non modifié de 5 ou moins est toujours un échec »
    ((3, 3), 10, 0, (), 6, 16, False, True),
    ((5, 5), 4, 1, (1,), 10, 16, False, True),  # commander within 9": +1 (COMMANDANTS)
    ((7, 5), 4, 2, (-1, -1), 12, 16, False, True),  # interrupt shot at long range: -2
    ((4, 5), 4, 0, (2,), 9, 15, False, True),  # priority target in cover: +2
])
def test_command_test(dice, cd, cal, mods, unmodified, total, auto, passed):
    test = urban_war.command_test(dice, cd, cal, mods)
    assert (test.unmodified, test.total, test.automatic_failure, test.passed) == (unmodified, total, auto, passed)


@given(st.tuples(d10, d10), st.integers(1, 10), st.integers(0, 10), st.lists(st.integers(-10, 10), max_size=5))
def test_an_unmodified_five_or_less_never_passes(dice, cd, cal, mods):
    test = urban_war.command_test(dice, cd, cal, mods)
    assert test.total == sum(dice) + cd + cal + sum(mods)
    assert test.automatic_failure == (sum(dice) <= 5)
    assert test.passed == (sum(dice) > 5 and test.total >= 15)
    if sum(dice) <= 5:
        assert not test.passed


def test_command_test_rolls_two_d10_and_refuses_bad_input():
    test = urban_war.roll_command_test(EnteredRoller([9, 8, 1]), 4, 1)
    assert test.to_dict() == {"dice": [9, 8], "unmodified": 17, "total": 22, "automatic_failure": False,
                              "passed": True}
    for bad in [((1,), 4, 0), ((0, 5), 4, 0), ((11, 5), 4, 0), ((5, 5), 0, 0), ((5, 5), 11, 0), ((5, 5), 4, -1)]:
        with pytest.raises(ValueError):
            urban_war.command_test(*bad)
    roller = EnteredRoller([5, 5])
    with pytest.raises(ValueError):
        urban_war.roll_command_test(roller, 4, -1)
    assert roller.rolls == ()  # refused before any die is used


# Reference card -------------------------------------------------------------------------------

def test_reference_card_numbers_from_the_seed():
    card = {row.code: row for row in urban_war.REFERENCE_CARD}
    assert {code: row.target for code, row in card.items()} == {
        "shooting_to_hit": 10, "shooting_to_wound": 6, "cover_solid": 6, "cover_flimsy": 8,
        "heavy_armour": 10, "melee_to_hit": 6, "melee_to_wound": 6, "command_test": 15,
    }
    assert card["command_test"].dice == "2D10" and not card["cover_solid"].naturals
    assert {t.code: t.value for t in card["shooting_to_hit"].terms}["panicked"] == -2
    assert {t.code: t.value for t in card["melee_to_hit"].terms}["charged"] == 1
    assert [(b.code, b.high, b.moved) for b in urban_war.RANGE_BANDS] == [
        ("close_combat", 0, 0), ("short", 12, -1), ("medium", 24, -2), ("long", 36, -3), ("extreme", 48, -4)]


@pytest.mark.parametrize(("inches", "band"), [
    (0, "close_combat"), (0.5, "short"), (12, "short"), (12.1, "medium"), (24, "medium"),
    (30, "long"), (36, "long"), (48, "extreme"), (48.5, None), (100, None),
])
def test_range_bands(inches, band):
    found = urban_war.range_band(inches)
    assert (found.code if found else None) == band


def test_natural_one_fails_and_natural_ten_succeeds():
    # « Un résultat non modifié de 1 est toujours un échec ; un résultat non modifié de 10 est
    # toujours une réussite ».
    assert not urban_war.d10_succeeds(1, 20, 10)
    assert urban_war.d10_succeeds(10, -20, 10)
    assert urban_war.d10_succeeds(6, 4, 10) and not urban_war.d10_succeeds(6, 3, 10)
    assert urban_war.d10_succeeds(1, 9, 10, naturals=False)
    with pytest.raises(ValueError):
        urban_war.d10_succeeds(0, 0, 6)
    with pytest.raises(ValueError):
        urban_war.range_band(-1)


# Results --------------------------------------------------------------------------------------

CARDS = load_cards()


def commando(cals, prefix):
    models = [CommandoModel("43101", cal, commander=i == 0, label=f"{prefix}{i}") for i, cal in enumerate(cals)]
    return validate_commando(models, CARDS, None).entries


COMMANDOS = {"A": commando([2, 1, 0, 0, 0, 0], "a"), "B": commando([1, 1, 1, 0, 0, 0], "b")}
B_POINTS = 3 * 26 + 3 * 20


def test_destroying_the_commando_wins_and_counts_every_model():
    # « Le joueur qui détruit complètement le commando de son adversaire gagne la partie ».
    result = urban_war.game_result(COMMANDOS, Outcome("B", {"A": ["b0"], "B": ["a2", "a3"]}))
    assert result.winner == "A"
    assert result.victory_points == {"A": B_POINTS, "B": 40}
    assert set(result.destroyed["A"]) == {f"b{i}" for i in range(6)}


@pytest.mark.parametrize(("mode", "destroyed", "winner", "vp"), [
    ("destroyed_or_draw", {"A": ["b0"], "B": ["a2", "a3"]}, None, {"A": 26, "B": 40}),  # UG4: a draw
    ("most_points_destroyed", {"A": ["b0"], "B": ["a2", "a3"]}, "B", {"A": 26, "B": 40}),
    ("most_points_destroyed", {"A": ["b3"], "B": ["a4"]}, None, {"A": 20, "B": 20}),  # equal: a draw
    ("most_points_destroyed", {}, None, {"A": 0, "B": 0}),
])
def test_no_commando_destroyed(mode, destroyed, winner, vp):
    result = urban_war.game_result(COMMANDOS, Outcome(None, destroyed), mode)
    assert (result.winner, dict(result.victory_points)) == (winner, vp)


@pytest.mark.parametrize(("outcome", "code", "params"), [
    (Outcome(None, {"A": ["a1"]}), "unknown_model_label", {"player": "A", "label": "a1"}),
    (Outcome(None, {"B": ["a1", "a1"]}), "model_label_repeated", {"player": "B", "label": "a1"}),
    (Outcome("C"), "player_not_in_game", {"player": "C"}),
    (Outcome(None, {"C": []}), "player_not_in_game", {"player": "C"}),
    (Outcome(None, {"A": [f"b{i}" for i in range(6)]}), "commando_destroyed_not_reported", {"player": "B"}),
    (Outcome("B", {"B": [f"a{i}" for i in range(6)]}), "commando_destroyed_not_reported", {"player": "A"}),
])
def test_outcomes_that_cannot_be_scored(outcome, code, params):
    with pytest.raises(KillsRefused) as caught:
        urban_war.game_result(COMMANDOS, outcome)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_a_winner_contradicting_the_destroyed_commando_is_refused():
    outcome = Outcome("A")
    result = urban_war.game_result(COMMANDOS, outcome)
    urban_war.check_winner(result, outcome, "B")
    for reported in ("A", None):
        with pytest.raises(KillsRefused) as caught:
            urban_war.check_winner(result, outcome, reported)
        assert caught.value.code == "winner_contradicts_outcome"
    # With no commando destroyed the derived result stands, whatever was reported.
    urban_war.check_winner(urban_war.game_result(COMMANDOS, Outcome()), Outcome(), "A")


labels_a = st.lists(st.sampled_from([f"a{i}" for i in range(6)]), unique=True, max_size=5)
labels_b = st.lists(st.sampled_from([f"b{i}" for i in range(6)]), unique=True, max_size=5)


@given(labels_b, labels_a, st.sampled_from(urban_war.RESULT_MODES), st.sampled_from([None, "A", "B"]))
def test_victory_points_are_the_points_destroyed(by_a, by_b, mode, gone):
    result = urban_war.game_result(COMMANDOS, Outcome(gone, {"A": by_a, "B": by_b}), mode)
    points = {m.label: m.points for side in COMMANDOS.values() for m in side}
    for player in PLAYERS:
        assert result.victory_points[player] == sum(points[label] for label in result.destroyed[player])
    if gone is not None:
        assert result.winner == ("A" if gone == "B" else "B")
    elif mode == "destroyed_or_draw":
        assert result.winner is None
    else:
        vp = result.victory_points
        assert result.winner == (None if vp["A"] == vp["B"] else max(vp, key=vp.__getitem__))
