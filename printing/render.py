"""Pack PDFs: forms laid out once by WeasyPrint, per-table texts drawn straight into their slots.

Layout is the cost (WeasyPrint keeps a laid-out document in memory, about 0.1 s of CPU and
a few MiB per sheet), so a pack is built in three steps:

1. forms: one page per distinct *form* (mission or scenario, roles, allowances, pre-game steps,
   the game system's boxes: everything a sheet prints that is not a slot), laid out once with
   every slot empty; two pages when the system prints a back (``TableSheet.back_blocks``).
   The same document lays out the cover and the pairings list's heads with empty rows. The
   slot rectangles and their text style are read back from the layout (``slots``).
2. texts: each sheet's slot texts are shaped by HarfBuzz in the forms' font and written as PDF
   text at their slots' positions, shrunk or cut to fit (``stamp``); the pairings list is
   its rows, repeated down as many pages as it needs.
3. file: each form page becomes a PDF Form XObject stored once and drawn under the texts of
   every page that uses it; the fonts are embedded as subsets of the glyphs drawn.

A slot's size never depends on its text (see print.css), so the stamped sheet is the sheet the
template would give with the text inline (``whole_document`` renders that way, as the naive
baseline). Where the fonts or HarfBuzz are missing, the texts are laid out by WeasyPrint
instead, in chunks (``render_pack_weasyprint``: the previous renderer, also the benchmark's
baseline); its chunks are picklable ``Job``s that a process pool can render in parallel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, BinaryIO

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from config.gc_pause import young_objects_only
from printing import stamp
from printing.data import MissionBlock, PackContent, PackHeader, PairingLine, TableSheet
from printing.fonts import FontSet, FontsUnavailable
from printing.pdf_merge import merge
from printing.shaping import ShapingUnavailable
from printing.slots import Row, Slot, content_bottom, page_rows, page_slots

DEFAULT_CHUNK_TABLES = 50
STYLESHEET = "packs/print.css"
Progress = Callable[[int, int], None]


class RenderError(Exception):
    """The pack cannot be laid out as designed (e.g. a sheet longer than one page)."""


FormLayout = tuple[Slot, ...]


@dataclass(frozen=True)
class ListForms:
    """The pairings list's forms: the first page's head (title and column heads) and a
    following page's head, each ending where its first row starts (px), the rows a line can
    take (``"pair"``, ``"bye"``, each laid out alone on a page: drawn moved down to its place)
    and where rows must stop."""

    first: int
    first_top: float
    next: int
    next_top: float
    bottom: float
    rows: Mapping[str, Row]


@dataclass(frozen=True)
class Forms:
    """The forms of a pack: a PDF with one page per form page, and each sheet form page's
    slots (``layouts``, the sheet forms come first). A form whose sheets have a back
    (``TableSheet.pages`` 2) takes two pages, from ``index[key]``. Laid out with the front
    matter, the PDF ends with the cover (page ``cover``) and the pairings list's forms."""

    pdf: bytes
    layouts: tuple[FormLayout, ...]
    index: Mapping[tuple, int]
    cover: int | None = None
    pairings: ListForms | None = None

    def pages_of(self, sheet: TableSheet) -> range:
        """The form pages a sheet is printed on, in order."""
        first = self.index[sheet.form_key]
        return range(first, first + sheet.pages)


@dataclass(frozen=True)
class Job:
    """One WeasyPrint document: the front matter, a chunk of overlays, or (naive) full sheets."""

    header: PackHeader
    front: bool = False
    pairings: tuple[PairingLine, ...] = ()
    missions: Mapping[str, MissionBlock] = field(default_factory=dict)
    sheets: tuple[TableSheet, ...] = ()
    form_of: tuple[int, ...] = ()  # per overlay page (a sheet has one or two), its page in Forms.pdf
    layouts: Mapping[int, FormLayout] = field(default_factory=dict)

    @property
    def overlay(self) -> bool:
        return bool(self.form_of)


# --- planning ---------------------------------------------------------------------------------

def front_job(content: PackContent) -> Job:
    """The cover and the pairings list (needs no form)."""
    return Job(content.header, front=True, pairings=content.pairings)


def sheet_jobs(content: PackContent, forms: Forms,
               chunk_tables: int = DEFAULT_CHUNK_TABLES) -> list[Job]:
    """The sheets' overlays in chunks of ``chunk_tables``, in print order."""
    if chunk_tables < 1:
        raise ValueError("chunk_tables must be at least 1")
    result = []
    for start in range(0, len(content.sheets), chunk_tables):
        sheets = content.sheets[start:start + chunk_tables]
        form_of = tuple(page for s in sheets for page in forms.pages_of(s))
        layouts = {i: forms.layouts[i] for i in set(form_of)}
        result.append(Job(content.header, sheets=sheets, form_of=form_of, layouts=layouts))
    return result


def jobs(content: PackContent, forms: Forms, chunk_tables: int = DEFAULT_CHUNK_TABLES) -> list[Job]:
    """Every document after the forms, in print order."""
    return [front_job(content), *sheet_jobs(content, forms, chunk_tables)]


def whole_document(content: PackContent) -> Job:
    """The naive plan: the whole pack, text inline, as one WeasyPrint document (baseline)."""
    return Job(content.header, front=True, pairings=content.pairings,
               missions=content.missions, sheets=content.sheets)


# --- HTML -------------------------------------------------------------------------------------

# The pairings list's rows laid out once, empty, each alone on its page (see front_forms.html).
PROBE_ROWS = {"no_rows": (), "probe_pair": (PairingLine(0, "", ""),),
              "probe_bye": (PairingLine(None, "", ""),),
              "probe_heading": (PairingLine(None, "", "", heading=""),)}
FRONT_PAGES = 5  # the cover, two heads of the pairings list, a pair's row and a bye's


def _headings(pairings: Sequence[PairingLine]) -> bool:
    """Whether the list has blocks' titles (a round in blocks): one more form row, laid out
    only then, so that every other pack stays as it was."""
    return any(line.kind == "heading" for line in pairings)


def _front_pages(pairings: Sequence[PairingLine]) -> int:
    return FRONT_PAGES + (1 if _headings(pairings) else 0)


def _blocks(missions: Mapping[str, MissionBlock]) -> dict[str, SafeString]:
    """Each mission's shared text and diagram, rendered once per document."""
    return {key: mark_safe(render_to_string("packs/block.html", {"m": block}))
            for key, block in missions.items()}


def document_html(header: PackHeader, *, front: bool = False,
                  pairings: Sequence[PairingLine] = (),
                  missions: Mapping[str, MissionBlock] | None = None,
                  sheets: Sequence[TableSheet] = (), front_forms: bool = False) -> str:
    """Cover and pairings (``front``) and full sheets, in the pack's language; with
    ``front_forms``, the cover and the pairings list's forms (empty rows) after the sheets."""
    missions = missions or {}
    with translation.override(header.language):
        blocks = _blocks(missions)
        # A sheet without a mission (a system without rolled missions) has neither block.
        rows = [(s, missions.get(s.mission_key), blocks.get(s.mission_key)) for s in sheets]
        tables = [p for p in pairings if p.table is not None]
        context = {
            "h": header, "front": front, "pairings": pairings, "rows": rows,
            "tables": len(tables), "players": sum(p.players for p in pairings),
            "per_table": len({p.mission for p in tables}) > 1,
            "front_forms": front_forms, "headings": _headings(pairings), **PROBE_ROWS,
        }
        return render_to_string("packs/document.html", context)


def overlay_html(job: Job) -> str:
    """One page per sheet holding only its slot texts, placed where its form has the slots.

    Each slot's geometry is a class in one style sheet: parsing a style attribute per text
    costs more than the layout of the text itself.
    """
    classes = [(f"f{form}s{i}", slot.css) for form, layout in sorted(job.layouts.items())
               for i, slot in enumerate(layout)]
    pages = []
    forms = iter(job.form_of)
    for sheet in job.sheets:
        texts = sheet.slot_texts()
        # Slot names are unique across a sheet's pages: each page takes the slots of its form.
        for form in (next(forms) for _page in range(sheet.pages)):
            pages.append([(f"f{form}s{i}", texts[slot.name])
                          for i, slot in enumerate(job.layouts[form]) if texts.get(slot.name)])
    if next(forms, None) is not None:
        raise RenderError(f"{len(job.form_of)} form pages for {len(pages)} overlay pages")
    return render_to_string("packs/overlay.html",
                            {"h": job.header, "classes": classes, "pages": pages})


# --- WeasyPrint ---------------------------------------------------------------------------------

@lru_cache(maxsize=4)
def stylesheet(static_path: str):
    """A print stylesheet (a static file), parsed once per process, and the font
    configuration it uses; the mission packs and the wall sheets each have theirs."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    path = finders.find(static_path)
    if path is None:
        raise FileNotFoundError(f"static file {static_path} not found")
    fonts = FontConfiguration()
    with open(path, encoding="utf-8") as handle:
        return CSS(string=handle.read(), font_config=fonts), fonts


def _style():
    return stylesheet(STYLESHEET)


def _layout(html: str, styled: bool = True):
    from weasyprint import HTML

    css, fonts = _style()
    return HTML(string=html).render(stylesheets=[css] if styled else [], font_config=fonts)


def render_job(job: Job) -> bytes:
    """One document as PDF bytes (top-level, so a process pool can call it)."""
    if job.overlay:
        document = _layout(overlay_html(job), styled=False)
        if len(document.pages) != len(job.form_of):
            raise RenderError(f"{len(job.form_of)} overlay pages gave {len(document.pages)} pages")
    else:
        document = _layout(document_html(job.header, front=job.front, pairings=job.pairings,
                                         missions=job.missions, sheets=job.sheets))
    return document.write_pdf()


def render_forms(content: PackContent, front: bool = False) -> Forms:
    """Lay out each distinct form once, slots empty, and read where its slots are; with
    ``front``, the cover and the pairings list's forms too (after the sheet forms)."""
    examples: dict[tuple, TableSheet] = {}
    for sheet in content.sheets:
        examples.setdefault(sheet.form_key, sheet.blank())
    keys = list(examples)
    used = {s.mission_key for s in examples.values()}
    document = _layout(document_html(
        content.header, missions={k: m for k, m in content.missions.items() if k in used},
        sheets=[examples[k] for k in keys], pairings=content.pairings, front_forms=front))
    index, pages = {}, 0
    for key in keys:
        index[key], pages = pages, pages + examples[key].pages
    if len(document.pages) != pages + (_front_pages(content.pairings) if front else 0):
        raise RenderError(_overflow_message([examples[k] for k in keys]))
    layouts = tuple(page_slots(page) for page in document.pages[:pages])
    if not front:
        return Forms(document.write_pdf() if keys else b"", layouts, index)
    return Forms(document.write_pdf(), layouts, index, cover=pages,
                 pairings=_list_forms(document.pages, pages + 1, _headings(content.pairings)))


def _list_forms(pages: Sequence[Any], first: int, headings: bool = False) -> ListForms:
    """The pairings list's forms from its laid-out pages (``first`` and the three after, four
    with ``headings``)."""
    wanted = ["head", "head", "pair", "bye"] + (["heading"] if headings else [])
    found = [page_rows(pages[first + i], first + i) for i in range(len(wanted))]
    kinds = [[row.kind for row in rows] for rows in found]
    if kinds != [[kind] for kind in wanted]:
        raise RenderError(f"the pairings list's forms have rows {kinds}")
    heads = [rows[0] for rows in found[:2]]
    return ListForms(first, heads[0].top + heads[0].height, first + 1,
                     heads[1].top + heads[1].height, content_bottom(pages[first]),
                     {kind: rows[0] for kind, rows in zip(wanted[2:], found[2:], strict=True)})


def _overflow_message(examples: Sequence[TableSheet]) -> str:
    """What the organisers can shorten when a sheet spills over its page(s)."""
    if any(sheet.back_blocks for sheet in examples):
        return _("A table sheet does not fit on its two pages: shorten the round's scenario or "
                 "the commandos.")
    if all(sheet.mission_key is None for sheet in examples):
        return _("A table sheet does not fit on one page: shorten the round's scenario or the "
                 "victory-point table.")
    return _("A table sheet does not fit on one page: shorten the mission's texts or its special "
             "rules.")


def render_pack(content: PackContent, out: BinaryIO, *, chunk_tables: int = DEFAULT_CHUNK_TABLES,
                progress: Progress | None = None) -> int:
    """Render the pack into ``out`` in this process; ``progress(done, total)`` after the forms,
    the front matter and each chunk of ``chunk_tables`` sheets. Returns the number of pages."""
    if chunk_tables < 1:
        raise ValueError("chunk_tables must be at least 1")
    with young_objects_only():
        return _render_pack(content, out, chunk_tables, progress)


def _render_pack(content: PackContent, out: BinaryIO, chunk_tables: int,
                 progress: Progress | None) -> int:
    try:
        fonts = FontSet()
        fonts.face(False, False)
    except (FontsUnavailable, ShapingUnavailable, OSError):
        return render_pack_weasyprint(content, out, chunk_tables=chunk_tables, progress=progress)
    forms = render_forms(content, front=True)
    chunks = range(0, len(content.sheets), chunk_tables)
    total = len(chunks) + 2
    report = progress or (lambda done, total: None)
    report(1, total)
    writer = stamp.PackWriter(forms.pdf, fonts)
    writer.add_page([stamp.Draw(forms.cover)])
    _pairings_pages(writer, forms.pairings, content.pairings)
    report(2, total)
    for done, start in enumerate(chunks, start=3):
        for sheet in content.sheets[start:start + chunk_tables]:
            _sheet_pages(writer, forms, sheet)
        report(done, total)
    return writer.finish(out)


def _sheet_pages(writer: stamp.PackWriter, forms: Forms, sheet: TableSheet) -> None:
    """A table's page (or front and back): its form, then its texts in their slots."""
    texts = sheet.slot_texts()
    for page in forms.pages_of(sheet):
        ops = writer.text()
        for slot in forms.layouts[page]:
            ops.slot(slot, texts.get(slot.name, ""))
        writer.add_page([stamp.Draw(page)], ops.data())


def _pairings_pages(writer: stamp.PackWriter, form: ListForms,
                    lines: Sequence[PairingLine]) -> None:
    """The pairings list: each page its head, then rows as long as they fit (at least one)."""
    head, top = stamp.Draw(form.first), form.first_top
    draws: list[stamp.Draw] = []
    ops = writer.text()
    for i, line in enumerate(lines):
        row = form.rows[line.kind]
        # A block's title stays on the page of its first game (print.css: break-after: avoid).
        after = lines[i + 1] if line.kind == "heading" and i + 1 < len(lines) else None
        need = row.height + (form.rows[after.kind].height if after is not None else 0)
        if draws and top + need > form.bottom + 0.01:
            writer.add_page([head, *draws], ops.data())
            head, top = stamp.Draw(form.next), form.next_top
            draws, ops = [], writer.text()
        dy = top - row.top
        draws.append(stamp.Draw(row.page, dy))
        texts = {"table": str(line.table or ""), "a": line.a, "a_club": line.a_club,
                 "b": line.b, "b_club": line.b_club, "mission": line.mission,
                 "heading": line.heading or "", "detail": line.detail}
        for slot in row.slots:
            ops.slot(slot, texts.get(slot.name, ""), dy)
        top += row.height
    writer.add_page([head, *draws], ops.data())


def render_pack_weasyprint(content: PackContent, out: BinaryIO, *,
                           chunk_tables: int = DEFAULT_CHUNK_TABLES,
                           progress: Progress | None = None) -> int:
    """The previous renderer: the texts laid out by WeasyPrint in chunks, merged with pypdf
    (used where the fonts or HarfBuzz are missing, and as the benchmark's baseline)."""
    forms = render_forms(content)
    plan = jobs(content, forms, chunk_tables)
    total = len(plan) + 1
    if progress is not None:
        progress(1, total)

    def rendered() -> Iterable[tuple[bytes, Sequence[int]]]:
        for done, job in enumerate(plan, start=2):
            pdf = render_job(job)
            if progress is not None:
                progress(done, total)
            yield pdf, job.form_of

    return merge(rendered(), forms.pdf, out)
