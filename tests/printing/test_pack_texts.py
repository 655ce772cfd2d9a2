"""Per-table texts of a mission pack drawn straight into their slots (printing/stamp.py):
every table's texts are there and extractable, names of any script stay inside their boxes,
the pairings list runs over pages as WeasyPrint would lay it out, and a machine without the
fonts falls back to WeasyPrint overlays. PDFs are read back with poppler, as in
test_mission_packs.py.
"""
from __future__ import annotations

import io
import re
import subprocess
from html import unescape

import pytest
from django.utils import translation

from armylists.models import Chart
from events.audit import SYSTEM
from events.models import Round
from events.services import rounds, tournaments
from missions.models import Level
from printing import fonts
from printing.data import PackContent, PackHeader, PairingLine
from printing.render import render_forms, render_job, render_pack, whole_document
from printing.services import mission_pack
from tests.printing.test_mission_packs import (
    check_pack_pdf,
    page_pixels,
    paired_round,
    pdf_pages_text,
)

PX = 0.75  # PDF points per CSS px
Word = tuple[str, float, float, float, float]  # text, xMin, yMin, xMax, yMax (points, y down)


def page_words(pdf: bytes) -> list[list[Word]]:
    """Every word of every page with its box, as pdftotext -bbox reads them."""
    done = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True,
                          check=True)
    pages = done.stdout.decode().split("<page ")[1:]
    pattern = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                         r'yMax="([\d.]+)">([^<]*)</word>')
    return [[(unescape(m[4]), float(m[0]), float(m[1]), float(m[2]), float(m[3]))
             for m in pattern.findall(page)] for page in pages]


def flat(text: str) -> str:
    return " ".join(text.split())


def in_slot(words: list[Word], slot) -> list[Word]:
    """The words that touch a slot's rectangle (the form leaves it empty: they are its text)."""
    left, top = slot.x * PX, slot.y * PX
    right, bottom = left + slot.width * PX, top + slot.height * PX
    return [w for w in words if w[1] < right and w[3] > left and w[2] < bottom and w[4] > top]


def inside(word: Word, slot, tolerance: float = 0.6) -> bool:
    left, top = slot.x * PX, slot.y * PX
    return (left - tolerance <= word[1] and word[3] <= left + slot.width * PX + tolerance
            and top - tolerance <= word[2] and word[4] <= top + slot.height * PX + tolerance)


# --- names of any script --------------------------------------------------------------------

UNUSUAL = [
    "Zoë Ångström-Łukasiewicz",
    "Ольга Кузнецова",
    "王小明",  # no CJK font on the machine: boxes, but the text extracts
    "Dragon 🐉 Rider",
    "Bartholomew-Maximilian von Großenhain",  # shrinks
    "Hieronymus Wolfgang Aurelianus Maximilian Theodosius of the Long Hall",  # shrinks and is cut
    "N" * 120,
    "Zoe\u0308 Decomposed",
]


def unusual_round() -> Round:
    tournament = tournaments.create_tournament(
        SYSTEM, name="Names Cup", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="gamma"), rounds=3, seed=7,
        language="en", missions="per_table", on_six="special", status="registration_open")
    for i, name in enumerate(UNUSUAL):
        tournaments.register_player(SYSTEM, tournament, name=name, club=f"Guild {i}")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    return rounds.pair_next_round(SYSTEM, tournament)


@pytest.mark.django_db
def test_unusual_names_land_inside_their_boxes_and_extract():
    round_ = unusual_round()
    content = mission_pack.pack_content(round_)
    forms = render_forms(content)  # the sheet forms come first in the pack's forms too
    out = io.BytesIO()
    render_pack(content, out)
    words = page_words(out.getvalue())
    assert len(words) == 2 + len(content.sheets)
    seen = set()
    for number, sheet in enumerate(content.sheets, start=2):
        layout = {s.name: s for s in forms.layouts[forms.index[sheet.form_key]]}
        for slot_name, side in (("a_name", sheet.a), ("b_name", sheet.b),
                                ("rolls_a", sheet.a), ("rolls_b", sheet.b)):
            slot = layout[slot_name]
            printed = in_slot(words[number], slot)
            assert printed, (slot_name, side.name)
            assert all(inside(w, slot) for w in printed), (slot_name, side.name, printed)
            text = " ".join(w[0] for w in printed)
            expected = fonts.clean(side.name)
            if text.endswith("…"):  # cut: what is printed is the name's start
                assert expected.startswith(text[:-1].rstrip()), (text, expected)
            else:
                assert sorted(text.replace(" ", "")) == sorted(expected.replace(" ", ""))
            seen.add((side.name, slot_name.endswith("name") and text.endswith("…")))
    assert {name for name, _cut in seen} == set(UNUSUAL)
    cut = {name for name, was_cut in seen if was_cut}  # in the big name boxes
    assert cut == {"N" * 120, UNUSUAL[5]}


@pytest.mark.django_db
def test_a_name_drawn_as_boxes_still_inks_its_slot():
    """Characters the font lacks print as its missing-glyph box, never as nothing."""
    round_ = unusual_round()
    content = mission_pack.pack_content(round_)
    forms = render_forms(content)
    out = io.BytesIO()
    render_pack(content, out)
    number = next(i for i, s in enumerate(content.sheets) if "王小明" in (s.a.name, s.b.name))
    sheet = content.sheets[number]
    slot = next(s for s in forms.layouts[forms.index[sheet.form_key]]
                if s.name == ("a_name" if sheet.a.name == "王小明" else "b_name"))
    dpi = 100
    pixels = page_pixels(out.getvalue(), 3 + number, dpi)
    width = round(210 / 25.4 * dpi)  # A4 at this resolution (pdftoppm rounds up)
    row_width = len(pixels) // round(297 / 25.4 * dpi)
    assert abs(row_width - width) <= 1
    scale = dpi / 96
    box = [pixels[y * row_width + x]
           for y in range(int(slot.y * scale), int((slot.y + slot.height) * scale))
           for x in range(int(slot.x * scale), int((slot.x + slot.width) * scale))]
    assert sum(1 for p in box if p < 128) > 20  # the three boxes are drawn


# --- every table's texts ------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.django_db
def test_every_table_prints_all_of_its_own_texts(language):
    round_ = paired_round(40, language=language, level="gamma", missions="per_table",
                          on_six="special", seed=3)
    content = mission_pack.pack_content(round_)
    out = io.BytesIO()
    render_pack(content, out)
    pages = [flat(page) for page in pdf_pages_text(out.getvalue())]
    assert len(pages) == 2 + len(content.sheets)
    checked = 0
    for sheet, page in zip(content.sheets, pages[2:], strict=True):
        texts = {name: flat(text) for name, text in sheet.slot_texts().items() if text.strip()}
        assert {"table", "a_name", "b_name", "a_club", "roll1_outcome"} <= set(texts)
        for name, text in texts.items():
            assert text in page, (sheet.table, name, text)
            checked += 1
        others = [s for s in content.sheets if s.table != sheet.table]
        assert not any(s.a.name in page or s.b.name in page for s in others)
    assert checked > 20 * len(content.sheets)


# --- the pairings list ------------------------------------------------------------------------------

def long_list(lines: int) -> PackContent:
    """A pack of pairings only: ``lines`` tables (a bye in the middle), names of 16 to 27
    characters (some printed smaller), missions per table."""
    pairings = [PairingLine(n, f"Émile Player{n:03d} " + "x" * (n % 12), f"Club {n}",
                            f"Opponent{n:03d} Żółw", f"Guild {n % 7}", f"Mission {n % 3}")
                for n in range(1, lines + 1)]
    pairings.insert(lines // 2, PairingLine(None, "Walter Bye", "Lonely Club"))
    with translation.override("en"):
        header = PackHeader("en", "Long List Open", 2, "Gamma", "1 May 2027", ("Mission 0",))
    return PackContent(header, tuple(pairings), {}, ())


@pytest.mark.django_db
def test_the_pairings_list_breaks_pages_where_weasyprint_would():
    content = long_list(150)
    out = io.BytesIO()
    pages = render_pack(content, out)
    naive = render_job(whole_document(content))
    ours, theirs = page_words(out.getvalue()), page_words(naive)
    assert pages == len(ours) == len(theirs) >= 4  # the cover and three pages of the list

    def tables(page: list[Word]) -> list[str]:
        return [w[0] for w in sorted(page, key=lambda w: w[2]) if w[1] < 60 and
                (w[0].isdigit() or w[0] == "—")]

    for mine, naive_page in zip(ours[1:], theirs[1:], strict=True):
        assert tables(mine) == tables(naive_page)  # the same rows on each page
        bottom = 297 / 25.4 * 72 - 8 / 25.4 * 72  # the page's bottom margin (print.css)
        assert max(w[4] for w in mine) <= bottom
    listed = [t for page in ours[1:] for t in tables(page)]
    assert listed == [str(p.table) if p.table else "—" for p in content.pairings]
    text = flat(" ".join(pdf_pages_text(out.getvalue())))
    for line in content.pairings:
        for value in (line.a, line.a_club, line.b, line.b_club, line.mission):
            assert flat(value) in text, value
    assert "bye" in text and text.count("Round 2: pairings") == 1  # the title once, heads again


# --- without the fonts ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_without_the_fonts_the_texts_are_laid_out_by_weasyprint(monkeypatch, tmp_path):
    round_ = paired_round(9)
    content = mission_pack.pack_content(round_)
    monkeypatch.setenv("MUSTER_PACK_FONT_DIR", str(tmp_path))  # holds no font
    fonts.face.cache_clear()
    try:
        with pytest.raises(fonts.FontsUnavailable):
            fonts.face(False, False)
        steps = []
        out = io.BytesIO()
        pages = render_pack(content, out, chunk_tables=2,
                            progress=lambda done, total: steps.append((done, total)))
    finally:
        fonts.face.cache_clear()
    check_pack_pdf(out.getvalue(), round_)
    assert pages == 2 + len(content.sheets)
    assert steps[-1] == (len(steps), len(steps))  # forms, front matter, chunks: all reported
    assert b"/MusterF0" not in out.getvalue()  # no font of ours: WeasyPrint's own
