"""Per-table texts drawn straight into their slots as PDF text, over forms laid out once.

WeasyPrint lays out each distinct form once (``render.render_forms``); each form page becomes
a Form XObject stored once. A sheet's page is then a few hundred bytes of content stream: draw
the form, then each slot's text at its position, shaped by HarfBuzz in the form's font
(``fonts``). A text fits its slot: a long one is printed smaller (down to ``MIN_SCALE`` of its
size), then wrapped where the slot allows more lines, then cut with an ellipsis.
"""
from __future__ import annotations

import io
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from printing.fonts import Face, FontSet, Run, cid_to_gid_map, clean, to_unicode_cmap, widths
from printing.slots import Slot

MIN_SCALE = 0.75  # a text too long for its slot shrinks to this share of its size at most
MAX_LINE = 300  # characters: more never fit one line of any slot, even shrunk
MAX_WRAPPED = 2000
PX = 0.75  # PDF points per CSS px


@dataclass(frozen=True)
class Line:
    """One line of text placed: its run, size (px), left end and baseline (CSS px)."""

    run: Run
    size: float
    x: float
    baseline: float


def fit(fonts: FontSet, slot: Slot, text: str) -> list[Line]:
    """Where and how large ``text`` is printed so that it stays inside ``slot``."""
    text = clean(text).strip()[:MAX_WRAPPED if slot.wrap else MAX_LINE]
    if not text:
        return []
    face = fonts.face(slot.bold, slot.italic)
    size, room = slot.font_size, slot.width * face.upem
    run = fonts.run(face, text)
    if run.width * size <= room:
        return [_place(slot, run, size)]
    if slot.wrap:
        lines = _wrapped(fonts, slot, text)
        if lines:
            return lines
    if run.width * size * MIN_SCALE <= room:
        return [_place(slot, run, room / run.width)]
    size *= MIN_SCALE
    return [_place(slot, fonts.ellipsized(face, text, room / size), size)]


def _line_height(slot: Slot, face: Face, size: float) -> float:
    """A line's height at ``size``: the slot's, scaled, or the font's own (CSS "normal")."""
    if slot.line_height:
        return slot.line_height * size / slot.font_size
    return (face.ascent + face.descent) * size / face.upem


def _place(slot: Slot, run: Run, size: float) -> Line:
    """One line in the slot: aligned as the slot says and, when shrunk, centred in the line
    box the text had at its own size (so it keeps to the row it was written on)."""
    face = run.face
    width = run.width * size / face.upem
    x = slot.x + {"left": 0.0, "right": slot.width - width,
                  "center": (slot.width - width) / 2}[slot.align]
    full, step = _line_height(slot, face, slot.font_size), _line_height(slot, face, size)
    return Line(run, size, x, face.baseline(slot.y + (full - step) / 2, step, size))


def _wrapped(fonts: FontSet, slot: Slot, text: str) -> list[Line]:
    """The text broken at spaces into the lines the slot holds, at its size or smaller;
    empty when it does not fit even so (then the caller shrinks and cuts one line)."""
    face = fonts.face(slot.bold, slot.italic)
    words = text.split()
    for scale in (1.0, (1.0 + MIN_SCALE) / 2, MIN_SCALE):
        size = slot.font_size * scale
        room = slot.width * face.upem / size
        step = _line_height(slot, face, size)
        capacity = int(slot.height / step + 0.01)
        if capacity < 2:
            return []
        lines: list[str] = []
        for word in words:
            joined = f"{lines[-1]} {word}" if lines else word
            if lines and fonts.run(face, joined).width <= room:
                lines[-1] = joined
            else:
                lines.append(word)
        if len(lines) <= capacity and all(fonts.run(face, t).width <= room for t in lines):
            return [_place(replace(slot, y=slot.y + i * step, font_size=size,
                                   line_height=step), fonts.run(face, t), size)
                    for i, t in enumerate(lines)]
    return []


# --- content streams ------------------------------------------------------------------------

def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class TextOps:
    """The text operators of one page, written as slots are filled (PDF points, y up)."""

    def __init__(self, fonts: FontSet, page_height: float) -> None:
        self.fonts = fonts
        self.page_height = page_height
        self._parts: list[bytes] = []
        self._font: tuple[str, float] | None = None
        self._color: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def slot(self, slot: Slot, text: str, dy: float = 0.0) -> None:
        """Print ``text`` in ``slot`` (moved ``dy`` px down: a repeated row)."""
        if not text:
            return
        lines = fit(self.fonts, slot, text)
        if not lines:
            return
        if slot.color != self._color:
            self._parts.append(("{:.3f} {:.3f} {:.3f} rg ".format(*slot.color)).encode())
            self._color = slot.color
        for line in lines:
            self._line(line, dy)

    def _line(self, line: Line, dy: float) -> None:
        run, size = line.run, line.size * PX
        name = self.fonts.resource_name(run.face)
        parts = self._parts
        if self._font != (name, size):
            parts.append(f"{name} {_number(size)} Tf ".encode())
            self._font = (name, size)
        x, y = line.x * PX, self.page_height - (line.baseline + dy) * PX
        parts.append(f"1 0 0 1 {_number(x)} {_number(y)} Tm ".encode())
        if not run.rises:
            parts.append(run.tj + b" TJ\n")
            return
        upem = run.face.upem
        for rise, tj in run.rises:
            parts.append(f"{_number(rise * size / upem)} Ts ".encode() + tj + b" TJ ")
        parts.append(b"0 Ts\n")

    def data(self) -> bytes:
        if not self._parts:
            return b""
        return b"BT\n" + b"".join(self._parts) + b"ET\n"


# --- the file -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    """A form (a page of the forms PDF) drawn ``dy`` px lower than where it was laid out."""

    page: int
    dy: float = 0.0


class PackWriter:
    """Writes the pack with pypdf: forms stored once as Form XObjects, pages that draw them and
    their texts, the fonts embedded at the end as subsets of the glyphs used."""

    def __init__(self, forms_pdf: bytes, fonts: FontSet) -> None:
        from pypdf import PdfReader, PdfWriter
        from pypdf.generic import DictionaryObject, NameObject

        self.fonts = fonts
        self.writer = PdfWriter()
        self.reader = PdfReader(io.BytesIO(forms_pdf))
        box = self.reader.pages[0].mediabox
        self.width, self.height = float(box.width), float(box.height)
        self._xobjects = DictionaryObject()
        self._fonts = DictionaryObject()
        self._resources = self.writer._add_object(DictionaryObject({
            NameObject("/XObject"): self._xobjects, NameObject("/Font"): self._fonts}))
        self._forms: dict[int, str] = {}

    @property
    def pages(self) -> int:
        return len(self.writer.pages)

    def text(self) -> TextOps:
        return TextOps(self.fonts, self.height)

    def _form(self, page: int) -> str:
        """The XObject name of form page ``page``, created on first use."""
        from pypdf.generic import DecodedStreamObject, NameObject

        if page not in self._forms:
            source = self.reader.pages[page]
            xobject = DecodedStreamObject()
            xobject.set_data(source.get_contents().get_data())
            xobject.update({
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): source.mediabox,
                NameObject("/Resources"): source["/Resources"].clone(self.writer),
            })
            name = f"/MusterForm{len(self._forms)}"
            # pypdf has no public call to add a free-standing object; _add_object is stable API
            # in practice (pypdf 3-6) and gives the indirect reference pages share.
            self._xobjects[NameObject(name)] = self.writer._add_object(xobject.flate_encode())
            self._forms[page] = name
        return self._forms[page]

    def add_page(self, draws: Sequence[Draw], text: bytes = b"") -> None:
        """A page drawing ``draws`` in order, then ``text`` (content-stream operators)."""
        from pypdf.generic import NameObject

        ops = []
        for draw in draws:
            name = self._form(draw.page)
            if draw.dy:
                ops.append(f"q 1 0 0 1 0 {_number(-draw.dy * PX)} cm {name} Do Q\n".encode())
            else:
                ops.append(f"q {name} Do Q\n".encode())
        page = self.writer.add_blank_page(self.width, self.height)
        page[NameObject("/Resources")] = self._resources
        page[NameObject("/Contents")] = self.writer._add_object(
            _compressed(b"".join(ops) + text))

    def finish(self, out: BinaryIO) -> int:
        """Embed the fonts used and write the file; returns the number of pages."""
        from pypdf.generic import NameObject

        for name, face, codes in self.fonts.used():
            self._fonts[NameObject(name)] = self._font(face, codes)
        self.writer.write(out)
        return self.pages

    def _font(self, face: Face, codes: dict[tuple[int, str], str]) -> Any:
        """A Type 0 font (Identity-H) over a TrueType subset: codes -> glyphs by CIDToGIDMap."""
        from pypdf.generic import (
            ArrayObject,
            DictionaryObject,
            FloatObject,
            NameObject,
            NumberObject,
            TextStringObject,
        )

        add = self.writer._add_object

        def stream(data: bytes, **extra: Any) -> Any:
            obj = _compressed(data)
            for key, value in extra.items():
                obj[NameObject(f"/{key}")] = value
            return add(obj)

        program = face.subset({gid for gid, _text in codes})
        tag = _subset_tag(codes)
        base = NameObject(f"/{tag}+{face.postscript_name}")
        scale = 1000 / face.upem
        descriptor = add(DictionaryObject({
            NameObject("/Type"): NameObject("/FontDescriptor"),
            NameObject("/FontName"): base,
            NameObject("/Flags"): NumberObject(4 | (64 if face.italic_angle else 0)),
            NameObject("/FontBBox"): ArrayObject([NumberObject(round(v * scale))
                                                  for v in face.bbox]),
            NameObject("/ItalicAngle"): FloatObject(face.italic_angle),
            NameObject("/Ascent"): NumberObject(round(face.ascent * scale)),
            NameObject("/Descent"): NumberObject(round(-face.descent * scale)),
            NameObject("/CapHeight"): NumberObject(round(face.cap_height * scale)),
            NameObject("/StemV"): NumberObject(120 if face.bold else 80),
            NameObject("/FontFile2"): stream(program, Length1=NumberObject(len(program))),
        }))
        cid_font = add(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/CIDFontType2"),
            NameObject("/BaseFont"): base,
            NameObject("/CIDSystemInfo"): DictionaryObject({
                NameObject("/Registry"): TextStringObject("Adobe"),
                NameObject("/Ordering"): TextStringObject("Identity"),
                NameObject("/Supplement"): NumberObject(0)}),
            NameObject("/FontDescriptor"): descriptor,
            NameObject("/DW"): NumberObject(0),
            NameObject("/W"): ArrayObject([NumberObject(1), ArrayObject(
                [FloatObject(w) for w in widths(face, codes)])]),
            NameObject("/CIDToGIDMap"): stream(cid_to_gid_map(codes)),
        }))
        return add(DictionaryObject({
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type0"),
            NameObject("/BaseFont"): base,
            NameObject("/Encoding"): NameObject("/Identity-H"),
            NameObject("/DescendantFonts"): ArrayObject([cid_font]),
            NameObject("/ToUnicode"): stream(to_unicode_cmap(codes)),
        }))


def _compressed(data: bytes) -> Any:
    """A Flate-compressed stream of ``data``."""
    from pypdf.generic import DecodedStreamObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    return stream.flate_encode(level=6)


def _subset_tag(codes: Iterable[tuple[int, str]]) -> str:
    """Six capital letters naming the subset (PDF 9.6.4), from the glyphs it holds."""
    value = zlib.crc32(repr(sorted(gid for gid, _t in codes)).encode())
    letters = []
    for _ in range(6):
        value, digit = divmod(value, 26)
        letters.append(chr(65 + digit))
    return "".join(letters)
