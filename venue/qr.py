"""QR codes as inline SVG, drawn on the server (segno: pure Python, nothing fetched at run time)."""
from __future__ import annotations

import io

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def qr_png(data: str, scale: int = 6) -> bytes:
    """``data`` as a PNG QR code, for an e-mail attachment (mail programs often drop SVG)."""
    import segno

    out = io.BytesIO()
    segno.make_qr(data, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def qr_svg(data: str, label: str, css_class: str = "qr") -> SafeString:
    """``data`` as a QR code: an SVG that scales to its box, named ``label`` for screen readers.

    Black on white with the standard four-module margin, whatever the page's colours, so any
    phone's camera reads it."""
    import segno

    code = segno.make_qr(data, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, scale=1, border=4, omitsize=True,
              dark="#000", light="#fff", svgclass=None, lineclass=None)
    svg = out.getvalue().decode("ascii")
    opening = f'<svg role="img" aria-label="{escape(label)}" class="{escape(css_class)}" '
    return mark_safe(svg.replace("<svg ", opening, 1))  # segno's output: no user text inside
