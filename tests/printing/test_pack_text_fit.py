"""Per-table texts of a mission pack fitted into their slots (printing/stamp.py, fonts.py):
the size, position and cut of each line, for any text a player can type.

Needs DejaVu Sans and HarfBuzz, as the packs do (fonts-dejavu-core, WeasyPrint's libraries).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printing.fonts import ELLIPSIS, FontSet, clean, face
from printing.slots import Slot
from printing.stamp import MIN_SCALE, TextOps, fit

# The name slot of a Cities of Death sheet as WeasyPrint lays it out (px).
NAME = Slot("a_name", 156.66, 83.21, 291.87, 18.33, 14.67, bold=True, line_height=17.8974)
NUMBER = Slot("table", 37.8, 33.1, 35.3, 14.3, 11.47, line_height=13.99, align="right")
NOTE = Slot("note", 10.0, 10.0, 120.0, 40.0, 10.0, line_height=12.2, wrap=True)


def width(line) -> float:
    return line.run.width * line.size / line.run.face.upem


def inside(slot: Slot, line, tolerance: float = 0.01) -> bool:
    face_ = line.run.face
    top = line.baseline - face_.ascent * line.size / face_.upem
    bottom = line.baseline + face_.descent * line.size / face_.upem
    return (slot.x - tolerance <= line.x and line.x + width(line) <= slot.x + slot.width + tolerance
            and slot.y - 1 <= top and bottom <= slot.y + slot.height + 1)


def test_a_text_that_fits_keeps_its_size_and_weasyprints_baseline():
    fonts = FontSet()
    (line,) = fit(fonts, NAME, "Warlord Xq AVAWAY")
    assert line.size == NAME.font_size and line.x == NAME.x
    # WeasyPrint laid this text out 165.17 px wide with its baseline 14.027 px below the top.
    assert width(line) == pytest.approx(165.166, abs=0.01)
    assert line.baseline - NAME.y == pytest.approx(14.027, abs=0.01)
    assert line.run.face is face(True, False)


def test_a_long_name_shrinks_before_it_is_cut():
    fonts = FontSet()
    name = "Bartholomew-Maximilian von Großenhain"
    full = fonts.run(face(True, False), name).width * NAME.font_size / 2048
    assert NAME.width < full < NAME.width / MIN_SCALE  # too wide, but not once shrunk
    (line,) = fit(fonts, NAME, name)
    assert MIN_SCALE * NAME.font_size <= line.size < NAME.font_size
    assert line.run.text == name  # the whole name, smaller
    assert width(line) == pytest.approx(NAME.width, abs=0.01) and inside(NAME, line)


def test_a_name_too_long_even_shrunk_is_cut_with_an_ellipsis():
    fonts = FontSet()
    name = "Aurelianus " * 12
    (line,) = fit(fonts, NAME, name)
    assert line.size == pytest.approx(MIN_SCALE * NAME.font_size)
    assert line.run.text.endswith(ELLIPSIS)
    assert name.startswith(line.run.text[:-1])
    assert inside(NAME, line)
    longer = fonts.run(line.run.face, name[:len(line.run.text)] + ELLIPSIS)
    assert longer.width * line.size / longer.face.upem > NAME.width  # the longest cut that fits


def test_right_aligned_numbers_end_at_the_slot_edge():
    (line,) = fit(FontSet(), NUMBER, "412")
    assert line.x + width(line) == pytest.approx(NUMBER.x + NUMBER.width)


def test_a_slot_that_wraps_takes_lines_before_shrinking():
    fonts = FontSet()
    lines = fit(fonts, NOTE, "Player 0206 picks the zone and declares first")
    assert len(lines) >= 2 and all(inside(NOTE, line) for line in lines)
    assert [line.baseline for line in lines] == sorted(line.baseline for line in lines)
    assert " ".join(line.run.text for line in lines) == \
        "Player 0206 picks the zone and declares first"


def test_clean_makes_one_printable_line_of_anything():
    assert clean("Zoe\u0308") == "Zoë"  # composed, as a name typed on another keyboard
    assert clean("a\x00b\nc\td") == "a b c d"
    assert clean("bad\ud800") == "bad?"  # an unpaired surrogate never reaches the shaper


def test_characters_missing_from_the_font_print_as_boxes_but_keep_their_text():
    fonts = FontSet()
    (line,) = fit(fonts, NAME, "王小明 🐉")
    codes = fonts._codes[line.run.face]
    assert {text for (gid, text), _code in codes.items() if gid == 0} >= {"王", "小", "明", "🐉"}
    assert inside(NAME, line)


def test_text_operators_hold_the_font_size_position_and_glyphs():
    fonts = FontSet()
    ops = TextOps(fonts, 841.89)
    ops.slot(NAME, "Zoë")
    data = ops.data().decode()
    assert data.startswith("BT\n") and data.endswith("ET\n")
    assert "/MusterF0 11 Tf" in data  # 14.67 px is 11 pt
    x, y = NAME.x * 0.75, 841.89 - (NAME.y + 14.027) * 0.75
    placed = [float(n) for n in data.split(" Tm")[0].split()[-2:]]
    assert placed == [pytest.approx(x, abs=0.01), pytest.approx(y, abs=0.01)]
    assert data.count("TJ") == 1
    assert TextOps(fonts, 841.89).data() == b""  # nothing to print, no operators


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=160), slot=st.sampled_from([NAME, NUMBER, NOTE]))
def test_any_text_fits_its_slot_without_failing(text, slot):
    for line in fit(FontSet(), slot, text):
        assert inside(slot, line, tolerance=0.05)
        assert line.size >= MIN_SCALE * slot.font_size - 1e-9
