"""The profile-card cells and CSV reader (systems/urban_war/profile_cards.py): pure, no database."""
from hypothesis import given
from hypothesis import strategies as st

from systems.urban_war import profile_cards as pc
from systems.urban_war.commando import card_from_dict, load_cards

HEADER = "card,faction,name_en,name_fr,AS,SH,ST,T,W,CD,SZ,MV,cal_options,options,options_cost_modifier\n"
MARINE = "43101,viridian,Colonial Marine,Colonial Marine,3,4,4,4,1,4,2,4,0:0:20 1:1:26 2:2:33 3:-:N/A,,None\n"


def test_card_43101_reads_as_the_data_file_holds_it():
    parsed = pc.parse_csv((HEADER + MARINE).encode())
    assert parsed.errors == ()
    (row,) = parsed.rows
    seed = load_cards()["43101"]
    assert card_from_dict(row) == seed
    assert pc.card_problem(row) is None


cal_rows = st.lists(
    st.builds(lambda cal, fs, cost: {"cal": cal, "fs": fs, "cost": cost},
              st.integers(0, 9), st.none() | st.integers(0, 9), st.none() | st.integers(0, 500)),
    max_size=5, unique_by=lambda r: r["cal"])
code = st.text("abcdefghijklmnopqrstuvwxyz_-0123456789", min_size=1, max_size=12)
name = st.text(st.characters(blacklist_characters=":|\n\r", blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
               min_size=1, max_size=20)
option_rows = st.lists(
    st.builds(lambda c, cost, en, fr: {"code": c, "name_en": en, "name_fr": fr, "cost": cost},
              code, st.none() | st.integers(0, 100), name, name),
    max_size=4, unique_by=lambda r: r["code"])


@given(cal_rows)
def test_calibre_cells_round_trip(rows):
    assert pc.parse_cals(pc.cals_cell(rows)) == rows


@given(option_rows)
def test_option_cells_round_trip(rows):
    assert pc.parse_options(pc.options_cell(rows)) == rows


def test_cells_that_do_not_read():
    for cell, code in [("0:0", "cal_cell_invalid"), ("a:0:20", "cal_cell_invalid"), ("0:0:lots", "cal_cell_invalid")]:
        try:
            pc.parse_cals(cell)
        except pc.CellError as exc:
            assert exc.problem.code == code
        else:
            raise AssertionError(cell)
    try:
        pc.parse_options("grenades")
    except pc.CellError as exc:
        assert exc.problem == pc.CardProblem("option_cell_invalid", {"value": "grenades"})
    else:
        raise AssertionError("one part")


def test_card_problems_in_order():
    good = {"stats": {"AS": 3, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 4, "SZ": 2, "MV": 4},
            "cal_options": [{"cal": 0, "fs": 0, "cost": 20}], "options": []}
    assert pc.card_problem(good) is None
    assert pc.card_problem({**good, "stats": {"AS": 3}}).code == "stats_keys"
    assert pc.card_problem({**good, "stats": {**good["stats"], "W": 0}}) == pc.CardProblem(
        "stat_out_of_range", {"stat": "W", "value": 0, "min": 1})
    assert pc.card_problem({**good, "stats": {**good["stats"], "MV": 12}}) is None  # MV has no maximum
    assert pc.card_problem({**good, "cal_options": [{"cal": 1, "fs": None, "cost": 5}]}).code == "cal_without_fs"
    assert pc.card_problem({**good, "options": [{"code": "a", "cost": 1}, {"code": "a", "cost": 2}]}).code == \
        "option_repeated"


def test_csv_errors_carry_their_line():
    text = HEADER + MARINE + "43102,viridian,,x,3,4,4,4,1,4,2,4,0:0:20,\n" + MARINE
    parsed = pc.parse_csv(text.encode())
    assert [row["card"] for row in parsed.rows] == ["43101"]
    assert parsed.errors == (pc.RowError(3, pc.CardProblem("value_missing", {"column": "name_en"})),
                             pc.RowError(4, pc.CardProblem("card_repeated", {"card": "43101"})))


def test_csv_caps_and_encoding():
    assert pc.parse_csv((HEADER + MARINE * 3).encode(), max_rows=2).errors[-1].problem.code == "too_many_rows"
    assert pc.parse_csv(b"\xff\xfe\x00c").errors[0].problem.code == "not_text"
    assert pc.parse_csv(b"card\n1\n").errors[0].problem.code == "columns_missing"
    long_name = HEADER + MARINE.replace("Colonial Marine,Colonial", "x" * 121 + ",Colonial", 1)
    assert pc.parse_csv(long_name.encode()).errors[0].problem == pc.CardProblem(
        "value_too_long", {"column": "name_en", "max": 120})
