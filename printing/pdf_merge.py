"""PDF pages put together with pypdf: parts concatenated in order, and form pages (each stored
once as a Form XObject) drawn under the pages that use them (printing/render.py, the wall
sheets, a campaign's turn pack)."""
from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO


class _Stamper:
    """Draws form pages (as Form XObjects, each stored once) under the pages of a writer."""

    def __init__(self, writer: Any, forms_pdf: bytes) -> None:
        from pypdf import PdfReader

        self.writer = writer
        self.reader = PdfReader(io.BytesIO(forms_pdf)) if forms_pdf else None
        self.refs: dict[int, tuple[Any, Any]] = {}

    def _form(self, index: int) -> tuple[Any, Any]:
        """(XObject reference, content stream drawing it), created on first use."""
        from pypdf.generic import DecodedStreamObject

        if index not in self.refs:
            draw = DecodedStreamObject()
            draw.set_data(f"q /MusterForm{index} Do Q\n".encode())
            self.refs[index] = (form_xobject(self.writer, self.reader.pages[index]),
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


def form_xobject(writer: Any, page: Any) -> Any:
    """``page`` as a Form XObject of ``writer``: the indirect reference every page that draws it
    shares (one copy in the file however many pages draw it)."""
    from pypdf.generic import DecodedStreamObject, NameObject

    xobject = DecodedStreamObject()
    xobject.set_data(page.get_contents().get_data())
    xobject.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): page.mediabox,
        NameObject("/Resources"): page["/Resources"].clone(writer),
    })
    # pypdf has no public call to add a free-standing object; _add_object is stable API in
    # practice (pypdf 3-6) and gives the indirect reference pages share.
    return writer._add_object(xobject.flate_encode())
