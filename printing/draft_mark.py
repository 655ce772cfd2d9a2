"""The mark of a draft round's mission pack: a band ("DRAFT — pairings may change", in the
event's language) in the top and bottom margins of every page.

It is drawn over the finished PDF, so every page carries it (the cover, the pairings list, each
table's sheet) whichever renderer made the file (stamped forms or WeasyPrint alone), and the
forms the sheets share stay those of a published round. The band is laid out once by
WeasyPrint and stored once, as a Form XObject that each page draws last.
"""
from __future__ import annotations

import io
from typing import Any, BinaryIO

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from printing.pdf_merge import form_xobject

BAND = "/MusterDraftBand"


def draft_words(language: str) -> str:
    """The band's words, in ``language`` (the event's)."""
    with translation.override(language):
        return gettext("DRAFT — pairings may change")


def band_pdf(text: str, language: str) -> bytes:
    """One A4 page holding only the band (its top and bottom copies)."""
    from weasyprint import HTML

    html = render_to_string("packs/draft_band.html", {"text": text, "language": language})
    return HTML(string=html).write_pdf()


def mark(pdf: bytes, out: BinaryIO, text: str, language: str) -> int:
    """Write ``pdf`` into ``out`` with the band over every page; returns the number of pages."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    band = _band_xobject(writer, band_pdf(text, language))
    wrap = _wrappers(writer)
    for page in PdfReader(io.BytesIO(pdf)).pages:
        _draw_over(writer.add_page(page), band, wrap)
    writer.write(out)
    return len(writer.pages)


def _band_xobject(writer: Any, band: bytes) -> Any:
    """The band's page as a Form XObject of ``writer`` (an indirect reference)."""
    from pypdf import PdfReader

    return form_xobject(writer, PdfReader(io.BytesIO(band)).pages[0])


def _wrappers(writer: Any) -> tuple[Any, Any]:
    """The two content streams every page shares: "q" before its content, and after it "Q"
    then the band, so whatever graphics state the page leaves (a transform, a colour) does not
    move or tint the band."""
    from pypdf.generic import DecodedStreamObject

    before, after = DecodedStreamObject(), DecodedStreamObject()
    before.set_data(b"q\n")
    after.set_data(f"Q q {BAND} Do Q\n".encode())
    return writer._add_object(before), writer._add_object(after)


def _draw_over(page: Any, band: Any, wrap: tuple[Any, Any]) -> None:
    """Draw the band after the page's own content."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    resources = page["/Resources"]
    if "/XObject" not in resources:
        resources[NameObject("/XObject")] = DictionaryObject()
    resources["/XObject"][NameObject(BAND)] = band
    contents = page.raw_get("/Contents")
    old = list(contents) if isinstance(contents, ArrayObject) else [contents]
    page[NameObject("/Contents")] = ArrayObject([wrap[0], *old, wrap[1]])
