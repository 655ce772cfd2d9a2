"""Pack PDFs: HTML from the templates, laid out by WeasyPrint, merged with pypdf.

Layout is the cost (WeasyPrint keeps a laid-out document in memory, about 0.1 s of CPU and
a few MiB per sheet), so a pack is built in three steps:

1. forms: one page per distinct *form* (mission or scenario, roles, allowances, pre-game steps,
   the game system's boxes: everything a sheet prints that is not a slot), laid out once with
   every slot empty; two pages when the system prints a back (``TableSheet.back_blocks``). The
   slot rectangles and their text style are read back from the layout.
2. overlays: per chunk of ``chunk_tables`` sheets, one WeasyPrint document whose pages (one per
   form page) hold only the slot texts (names, table number, dice), absolutely positioned:
   cheap to lay out.
3. merge: each form page becomes a PDF Form XObject, drawn under the overlay pages of its
   sheets; the front matter (cover, pairings) and the chunks are concatenated in order.

A slot's size never depends on its text (see print.css), so the stamped sheet is the sheet the
template would give with the text inline (``whole_document`` renders that way, as the naive
baseline). Chunks are picklable ``Job``s: a process pool can render them in parallel.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, BinaryIO

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from missions.packs.data import MissionBlock, PackContent, PackHeader, PairingLine, TableSheet

DEFAULT_CHUNK_TABLES = 50
STYLESHEET = "packs/print.css"
Progress = Callable[[int, int], None]


class RenderError(Exception):
    """The pack cannot be laid out as designed (e.g. a sheet longer than one page)."""


@dataclass(frozen=True)
class Slot:
    """Where one slot of a form lies on the page (CSS px from the page's corner) and its style,
    as CSS declarations."""

    name: str
    css: str


FormLayout = tuple[Slot, ...]


@dataclass(frozen=True)
class Forms:
    """The forms of a pack: a PDF with one page per form page, and each page's slots. A form
    whose sheets have a back (``TableSheet.pages`` 2) takes two pages, from ``index[key]``."""

    pdf: bytes
    layouts: tuple[FormLayout, ...]
    index: Mapping[tuple, int]

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

def _blocks(missions: Mapping[str, MissionBlock]) -> dict[str, SafeString]:
    """Each mission's shared text and diagram, rendered once per document."""
    return {key: mark_safe(render_to_string("packs/block.html", {"m": block}))
            for key, block in missions.items()}


def document_html(header: PackHeader, *, front: bool = False,
                  pairings: Sequence[PairingLine] = (),
                  missions: Mapping[str, MissionBlock] | None = None,
                  sheets: Sequence[TableSheet] = ()) -> str:
    """Cover and pairings (``front``) and full sheets, in the pack's language."""
    missions = missions or {}
    with translation.override(header.language):
        blocks = _blocks(missions)
        # A sheet without a mission (a system without rolled missions) has neither block.
        rows = [(s, missions.get(s.mission_key), blocks.get(s.mission_key)) for s in sheets]
        tables = [p for p in pairings if p.table is not None]
        context = {
            "h": header, "front": front, "pairings": pairings, "rows": rows,
            "tables": len(tables), "players": len(pairings) + len(tables),
            "per_table": len({p.mission for p in tables}) > 1,
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


def render_forms(content: PackContent) -> Forms:
    """Lay out each distinct form once, slots empty, and read where its slots are."""
    examples: dict[tuple, TableSheet] = {}
    for sheet in content.sheets:
        examples.setdefault(sheet.form_key, sheet.blank())
    keys = list(examples)
    used = {s.mission_key for s in examples.values()}
    document = _layout(document_html(
        content.header, missions={k: m for k, m in content.missions.items() if k in used},
        sheets=[examples[k] for k in keys]))
    index, pages = {}, 0
    for key in keys:
        index[key], pages = pages, pages + examples[key].pages
    if len(document.pages) != pages:
        raise RenderError(_overflow_message([examples[k] for k in keys]))
    layouts = tuple(_slots(page) for page in document.pages)
    return Forms(document.write_pdf() if keys else b"", layouts, index)


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


def _slots(page: Any) -> FormLayout:
    """The slots of a laid-out page: each ``data-slot`` element's content box and text style.

    Reads WeasyPrint's box tree (``Page._page_box``): pre-order, so an element's own box
    comes before the anonymous boxes inside it.
    """
    found: dict[str, Slot] = {}
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        name = element.get("data-slot") if element is not None else None
        if not name or name in found:
            continue
        style = box.style
        line_height = style["line_height"]
        found[name] = Slot(name, (
            f"left:{box.content_box_x():.2f}px;top:{box.content_box_y():.2f}px;"
            f"width:{box.width:.2f}px;height:{box.height:.2f}px;"
            f"font-size:{style['font_size']:.2f}px;font-weight:{style['font_weight']};"
            f"white-space:{style['white_space']};text-overflow:{style['text_overflow']}"
            + (f";line-height:{line_height}" if isinstance(line_height, int | float) else "")))
    return tuple(found.values())


# --- pypdf ------------------------------------------------------------------------------------

class _Stamper:
    """Draws form pages (as Form XObjects, each stored once) under the pages of a writer."""

    def __init__(self, writer: Any, forms_pdf: bytes) -> None:
        from pypdf import PdfReader

        self.writer = writer
        self.reader = PdfReader(io.BytesIO(forms_pdf)) if forms_pdf else None
        self.refs: dict[int, tuple[Any, Any]] = {}

    def _form(self, index: int) -> tuple[Any, Any]:
        """(XObject reference, content stream drawing it), created on first use."""
        from pypdf.generic import DecodedStreamObject, NameObject

        if index not in self.refs:
            page = self.reader.pages[index]
            xobject = DecodedStreamObject()
            xobject.set_data(page.get_contents().get_data())
            xobject.update({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): page.mediabox,
                NameObject("/Resources"): page["/Resources"].clone(self.writer),
            })
            draw = DecodedStreamObject()
            draw.set_data(f"q /MusterForm{index} Do Q\n".encode())
            # pypdf has no public call to add a free-standing object; _add_object is stable API
            # in practice (pypdf 3-6) and gives the indirect reference pages share.
            self.refs[index] = (self.writer._add_object(xobject.flate_encode()),
                                self.writer._add_object(draw))
        return self.refs[index]

    def stamp(self, page: Any, index: int) -> None:
        """Draw form ``index`` first, then the page's own content (the slot texts) over it."""
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject

        xobject, draw = self._form(index)
        resources = page["/Resources"]
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        resources["/XObject"][NameObject(f"/MusterForm{index}")] = xobject
        contents = page.raw_get("/Contents")
        old = list(contents) if isinstance(contents, ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject([draw, *old])


def merge(parts: Iterable[tuple[bytes, Sequence[int]]], forms_pdf: bytes, out: BinaryIO) -> int:
    """Concatenate PDFs in order into ``out``, stamping form ``form_of[i]`` under page i of a
    part (``form_of`` empty: no stamping). Returns the number of pages."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    stamper = _Stamper(writer, forms_pdf)
    for pdf, form_of in parts:
        for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):
            added = writer.add_page(page)
            if form_of:
                stamper.stamp(added, form_of[number])
    writer.write(out)
    return len(writer.pages)


def render_pack(content: PackContent, out: BinaryIO, *, chunk_tables: int = DEFAULT_CHUNK_TABLES,
                progress: Progress | None = None) -> int:
    """Render the pack into ``out`` in this process; ``progress(done, total)`` after each step."""
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
