"""The pack's fonts for text drawn straight into PDF: DejaVu Sans (the stylesheets' font), shaped
by HarfBuzz, embedded as subsets with their Unicode map so the text stays extractable.

A ``Face`` is one font file, loaded once per process. A ``FontSet`` lives for one pack: it
shapes each distinct text once, numbers the glyphs it draws (a code per glyph and the text it
stands for, so a missing character drawn as the font's box still extracts as itself) and, at
the end, writes each face used as a Type 0 font with a subset of its glyphs.
"""
from __future__ import annotations

import io
import os
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from printing.shaping import Shaped, Shaper

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/local/share/fonts/dejavu", "/Library/Fonts")
# (bold, italic) -> file; the stylesheets ask for "DejaVu Sans", which fontconfig resolves to these.
FILES = {(False, False): "DejaVuSans.ttf", (True, False): "DejaVuSans-Bold.ttf",
         (False, True): "DejaVuSans-Oblique.ttf", (True, True): "DejaVuSans-BoldOblique.ttf"}
ELLIPSIS = "…"
LAST_CODE = 0xFFFF  # glyph codes are two bytes (Identity-H); 0 is the missing glyph's


class FontsUnavailable(Exception):
    """The font files or HarfBuzz are missing: the caller lays the texts out otherwise."""


def font_dir() -> str:
    """The directory holding DejaVu Sans (``MUSTER_PACK_FONT_DIR`` overrides the usual ones)."""
    wanted = os.environ.get("MUSTER_PACK_FONT_DIR")
    for folder in ((wanted,) if wanted else FONT_DIRS):
        if os.path.isfile(os.path.join(folder, FILES[False, False])):
            return folder
    raise FontsUnavailable("DejaVu Sans not found (install fonts-dejavu-core)")


class Face:
    """One font file: metrics (font units), default advances, a HarfBuzz shaper, the file."""

    def __init__(self, path: str) -> None:
        from fontTools.ttLib import TTFont

        with open(path, "rb") as handle:
            self.data = handle.read()
        font = TTFont(io.BytesIO(self.data), lazy=True)
        head, hhea, os2 = font["head"], font["hhea"], font["OS/2"]
        self.upem: int = head.unitsPerEm
        self.ascent: int = hhea.ascent
        self.descent: int = -hhea.descent  # positive, below the baseline
        self.bbox = (head.xMin, head.yMin, head.xMax, head.yMax)
        self.cap_height: int = getattr(os2, "sCapHeight", 0) or round(self.ascent * 0.8)
        self.italic_angle: float = float(font["post"].italicAngle)
        self.bold = os2.usWeightClass >= 600
        self.postscript_name = (font["name"].getDebugName(6) or "DejaVuSans").replace(" ", "")
        metrics = font["hmtx"].metrics
        self.advances: tuple[int, ...] = tuple(metrics[name][0] for name in font.getGlyphOrder())
        self.shaper = Shaper(path)

    def baseline(self, top: float, line_height: float, size: float) -> float:
        """Where the baseline of a line of ``size`` lies in a line box (CSS px, y down), as
        WeasyPrint places it: half the leading above the font's ascent."""
        ascent, descent = self.ascent * size / self.upem, self.descent * size / self.upem
        return top + (line_height - ascent - descent) / 2 + ascent

    def subset(self, gids: set[int]) -> bytes:
        """A TrueType program holding only ``gids`` (and the missing-glyph box), glyph ids kept."""
        from fontTools import subset
        from fontTools.ttLib import TTFont

        options = subset.Options()
        options.retain_gids = True
        options.notdef_outline = True
        options.hinting = False
        options.layout_features = []
        options.name_IDs = []
        options.glyph_names = False
        options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "FFTM", "post", "name", "OS/2",
                                "gasp"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(gids=sorted(gids | {0}))
        font = TTFont(io.BytesIO(self.data), lazy=True)
        subsetter.subset(font)
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()


@lru_cache(maxsize=4)
def face(bold: bool, italic: bool) -> Face:
    """A DejaVu Sans face, loaded once per process."""
    return Face(os.path.join(font_dir(), FILES[bold, italic]))


def clean(text: str) -> str:
    """One printable line: composed accents (NFC), controls and line breaks as spaces, no
    unpaired surrogates; whatever a player typed, shaping never fails on it."""
    text = unicodedata.normalize("NFC", text.encode("utf-8", "replace").decode("utf-8"))
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or unicodedata.category(c) in ("Mn", "Mc", "Me", "Cf")
                   else " " for c in text)


@dataclass(frozen=True)
class Run:
    """A shaped text ready to draw: its width (font units) and its ``TJ`` operand, which holds
    the glyph codes and the kerning as thousandths of the size, so it serves at any size.
    ``rises``, when the text has marks raised by the shaper, splits it into segments drawn at
    their own height (font units)."""

    face: Face
    text: str
    width: int
    tj: bytes
    rises: tuple[tuple[int, bytes], ...] = ()


class FontSet:
    """The glyphs one pack draws, per face: shaping cache, glyph codes, embedding."""

    def __init__(self, loader: Callable[[bool, bool], Face] = face) -> None:
        self._loader = loader
        self._faces: dict[tuple[bool, bool], Face] = {}
        self._codes: dict[Face, dict[tuple[int, str], str]] = {}  # -> code, 4 hex digits
        self._runs: dict[tuple[Face, str], Run] = {}

    def face(self, bold: bool, italic: bool) -> Face:
        key = (bold, italic)
        if key not in self._faces:
            self._faces[key] = self._loader(bold, italic)
            self._codes.setdefault(self._faces[key], {})
        return self._faces[key]

    def resource_name(self, face: Face) -> str:
        """The font's name in a page's resources."""
        return f"/MusterF{list(self._codes).index(face)}"

    def run(self, face: Face, text: str) -> Run:
        key = (face, text)
        found = self._runs.get(key)
        if found is None:
            self._codes.setdefault(face, {})
            found = self._runs[key] = self._encode(face, text, face.shaper.shape(text))
        return found

    def ellipsized(self, face: Face, text: str, width: float) -> Run:
        """The longest start of ``text`` that fits ``width`` (font units) with an ellipsis."""
        mark = self.run(face, ELLIPSIS)
        # Where the text's own glyphs stop fitting gives the cut; shaping the cut text again
        # may kern it differently, so step back until it fits (once or twice at most).
        length = _fitting_characters(face.shaper.shape(text), width - mark.width)
        while length > 0:
            candidate = self.run(face, _prefix(text, length) + ELLIPSIS)
            if candidate.width <= width:
                return candidate
            length -= 1
        return mark

    def _encode(self, face: Face, text: str, shaped: Shaped) -> Run:
        if any(shaped.y_offsets):
            return self._encode_raised(face, text, shaped)
        return Run(face, text, shaped.width, self._tj(face, shaped, range(len(shaped.gids))))

    def _tj(self, face: Face, shaped: Shaped, glyphs: Iterable[int]) -> bytes:
        """The TJ array of ``glyphs`` (indices into ``shaped``): runs of glyph codes, with the
        shaper's kerning and offsets as adjustments in thousandths of the size."""
        codes = self._codes[face]
        defaults, scale = face.advances, 1000 / face.upem
        gids, texts, advances, offsets = shaped.gids, shaped.texts, shaped.advances, \
            shaped.x_offsets
        parts: list[str] = []
        hexes: list[str] = []
        carry = 0  # space to add before the next glyph, in font units
        for i in glyphs:
            key = (gids[i], texts[i])
            code = codes.get(key)
            if code is None:
                code = self._new_code(codes, key)
            shift = carry + offsets[i]
            if shift:
                if hexes:
                    parts.append(f"<{''.join(hexes)}>")
                    hexes = []
                parts.append(_number(-shift * scale))
            hexes.append(code)
            # TJ moves by the glyph's default advance; correct it to the shaped one.
            carry = advances[i] - defaults[gids[i]] - offsets[i]
        if hexes:
            parts.append(f"<{''.join(hexes)}>")
        if carry:
            parts.append(_number(-carry * scale))
        return f"[{''.join(parts)}]".encode()

    @staticmethod
    def _new_code(codes: dict[tuple[int, str], str], key: tuple[int, str]) -> str:
        """The next two-byte code; past the last one, glyphs share the missing-glyph box's
        code (tens of thousands of distinct characters in one pack: never in practice)."""
        if len(codes) < LAST_CODE - 1:
            codes[key] = f"{len(codes) + 1:04x}"
            return codes[key]
        return codes.setdefault((0, "\ufffd"), f"{LAST_CODE:04x}")

    def _encode_raised(self, face: Face, text: str, shaped: Shaped) -> Run:
        """A text with marks the shaper raised or lowered: one TJ per stretch at one height."""
        segments: list[tuple[int, list[int]]] = []
        for i, rise in enumerate(shaped.y_offsets):
            if not segments or segments[-1][0] != rise:
                segments.append((rise, []))
            segments[-1][1].append(i)
        rises = tuple((rise, self._tj(face, shaped, glyphs)) for rise, glyphs in segments)
        return Run(face, text, shaped.width, b"", rises)

    # --- embedding ------------------------------------------------------------------------

    def used(self) -> Iterator[tuple[str, Face, dict[tuple[int, str], str]]]:
        """(resource name, face, codes) of each face that drew something."""
        for face_, codes in self._codes.items():
            if codes:
                yield self.resource_name(face_), face_, codes


def _fitting_characters(shaped: Shaped, width: float) -> int:
    """How many characters from the text's start fit ``width`` (font units)."""
    used = 0
    count = 0
    pairs = zip(shaped.texts, shaped.advances, strict=True)
    for chars, advance in (reversed(list(pairs)) if shaped.rtl else pairs):
        used += advance
        if used > width:
            break
        count += len(chars)
    return count


def _prefix(text: str, length: int) -> str:
    """The first ``length`` characters, not splitting an accent from its letter, no trailing
    spaces."""
    while 0 < length < len(text) and unicodedata.combining(text[length]):
        length -= 1
    return text[:length].rstrip()


def _number(value: float) -> str:
    """A PDF number, short."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def to_unicode_cmap(codes: Mapping[tuple[int, str], str]) -> bytes:
    """The ToUnicode CMap: each code to the text its glyph stands for."""
    lines = [b"/CIDInit /ProcSet findresource begin", b"12 dict begin", b"begincmap",
             b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             b"/CMapName /Adobe-Identity-UCS def", b"/CMapType 2 def",
             b"1 begincodespacerange", b"<0000> <ffff>", b"endcodespacerange"]
    items = sorted((int(code, 16), text) for (_gid, text), code in codes.items() if text)
    for start in range(0, len(items), 100):
        batch = items[start:start + 100]
        lines.append(f"{len(batch)} beginbfchar".encode())
        lines.extend(f"<{code:04x}> <{text.encode('utf-16-be').hex()}>".encode()
                     for code, text in batch)
        lines.append(b"endbfchar")
    lines += [b"endcmap", b"CMapName currentdict /CMap defineresource pop", b"end", b"end"]
    return b"\n".join(lines)


def cid_to_gid_map(codes: Mapping[tuple[int, str], str]) -> bytes:
    """Code n's glyph id at bytes 2n, 2n+1 (code 0 is the missing-glyph box)."""
    table = bytearray(2 * (len(codes) + 1))
    for (gid, _text), code in codes.items():
        number = int(code, 16)
        table[2 * number:2 * number + 2] = gid.to_bytes(2, "big")
    return bytes(table)


def widths(face_: Face, codes: Mapping[tuple[int, str], str]) -> list[float]:
    """Default advances of codes 1..n in thousandths of the size (the ``W`` array's run)."""
    by_code = {int(code, 16): gid for (gid, _text), code in codes.items()}
    scale = 1000 / face_.upem
    return [round(face_.advances[by_code[code]] * scale, 3) if by_code[code] < len(face_.advances)
            else 0 for code in range(1, len(by_code) + 1)]
