"""Text shaping with HarfBuzz (the shaper Pango, and so WeasyPrint, uses), through cffi.

The pack's per-table texts are drawn straight into their slots (``printing/stamp.py``):
shaping them with the same engine and the same font files as the forms gives the same glyphs,
kerning and mark positions WeasyPrint would have printed. HarfBuzz and cffi are already
loaded by WeasyPrint; this module only declares the few calls it needs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_CDEF = """
typedef struct hb_blob_t hb_blob_t;
typedef struct hb_face_t hb_face_t;
typedef struct hb_font_t hb_font_t;
typedef struct hb_buffer_t hb_buffer_t;
typedef uint32_t hb_codepoint_t;
typedef int32_t hb_position_t;
typedef uint32_t hb_mask_t;
typedef union { uint32_t u32; int32_t i32; uint16_t u16[2]; int16_t i16[2];
                uint8_t u8[4]; int8_t i8[4]; } hb_var_int_t;
typedef struct { hb_codepoint_t codepoint; hb_mask_t mask; uint32_t cluster;
                 hb_var_int_t var1; hb_var_int_t var2; } hb_glyph_info_t;
typedef struct { hb_position_t x_advance; hb_position_t y_advance; hb_position_t x_offset;
                 hb_position_t y_offset; hb_var_int_t var; } hb_glyph_position_t;
hb_blob_t *hb_blob_create_from_file(const char *file_name);
void hb_blob_destroy(hb_blob_t *blob);
hb_face_t *hb_face_create(hb_blob_t *blob, unsigned int index);
void hb_face_destroy(hb_face_t *face);
hb_font_t *hb_font_create(hb_face_t *face);
void hb_font_destroy(hb_font_t *font);
hb_buffer_t *hb_buffer_create(void);
void hb_buffer_destroy(hb_buffer_t *buffer);
void hb_buffer_add_codepoints(hb_buffer_t *buffer, const hb_codepoint_t *text, int text_length,
                              unsigned int item_offset, int item_length);
void hb_buffer_guess_segment_properties(hb_buffer_t *buffer);
int hb_buffer_get_direction(hb_buffer_t *buffer);
void hb_shape(hb_font_t *font, hb_buffer_t *buffer, const void *features,
              unsigned int num_features);
hb_glyph_info_t *hb_buffer_get_glyph_infos(hb_buffer_t *buffer, unsigned int *length);
hb_glyph_position_t *hb_buffer_get_glyph_positions(hb_buffer_t *buffer, unsigned int *length);
"""
RIGHT_TO_LEFT = 5  # HB_DIRECTION_RTL
_LIBRARIES = ("libharfbuzz.so.0", "libharfbuzz-0", "harfbuzz", "libharfbuzz.0.dylib",
              "libharfbuzz-0.dll")


class ShapingUnavailable(Exception):
    """HarfBuzz cannot be loaded here (then the packs fall back to WeasyPrint overlays)."""


@dataclass(frozen=True)
class Shaped:
    """One line of text shaped, in visual order, as parallel per-glyph tuples (font units):
    glyph ids, the text each glyph stands for (its cluster's characters on the cluster's first
    glyph, "" on the others), advances and offsets."""

    gids: tuple[int, ...]
    texts: tuple[str, ...]
    advances: tuple[int, ...]
    x_offsets: tuple[int, ...]
    y_offsets: tuple[int, ...]
    rtl: bool = False  # glyphs run right to left: the text's end is on the left

    @property
    def width(self) -> int:
        return sum(self.advances)


EMPTY = Shaped((), (), (), (), ())


@lru_cache(maxsize=1)
def _library() -> tuple[Any, Any]:
    try:
        from cffi import FFI
    except ImportError as exc:  # pragma: no cover - WeasyPrint depends on cffi
        raise ShapingUnavailable(str(exc)) from exc
    ffi = FFI()
    ffi.cdef(_CDEF)
    for name in _LIBRARIES:
        try:
            return ffi, ffi.dlopen(name)
        except OSError:
            continue
    raise ShapingUnavailable("HarfBuzz library not found")


class Shaper:
    """A font file opened in HarfBuzz at its design size (positions in font units)."""

    def __init__(self, path: str) -> None:
        ffi, hb = _library()
        self._ffi, self._hb = ffi, hb
        blob = hb.hb_blob_create_from_file(path.encode())
        face = hb.hb_face_create(blob, 0)
        hb.hb_blob_destroy(blob)  # the face keeps its own reference
        self._font = ffi.gc(hb.hb_font_create(face), hb.hb_font_destroy)
        hb.hb_face_destroy(face)

    def shape(self, text: str) -> Shaped:
        """One line of ``text`` shaped with HarfBuzz's default features (kerning, ligatures,
        marks), as Pango shapes it."""
        if not text:
            return EMPTY
        ffi, hb = self._ffi, self._hb
        buffer = hb.hb_buffer_create()  # one per call: threads may shape with the same font
        try:
            codepoints = ffi.from_buffer("hb_codepoint_t[]", text.encode("utf-32-le"))
            hb.hb_buffer_add_codepoints(buffer, codepoints, len(text), 0, len(text))
            hb.hb_buffer_guess_segment_properties(buffer)
            hb.hb_shape(self._font, buffer, ffi.NULL, 0)
            # Both records are five 32-bit fields: read them as flat integer arrays at once.
            count = ffi.new("unsigned int *")
            infos = hb.hb_buffer_get_glyph_infos(buffer, count)
            info = ffi.unpack(ffi.cast("uint32_t *", infos), 5 * count[0])
            where = ffi.unpack(ffi.cast("int32_t *", hb.hb_buffer_get_glyph_positions(
                buffer, count)), 5 * count[0])
            rtl = hb.hb_buffer_get_direction(buffer) == RIGHT_TO_LEFT
        finally:
            hb.hb_buffer_destroy(buffer)
        return Shaped(tuple(info[0::5]), _cluster_texts(text, info[2::5]), tuple(where[0::5]),
                      tuple(where[2::5]), tuple(where[3::5]), rtl)


def _cluster_texts(text: str, clusters: list[int]) -> tuple[str, ...]:
    """The characters each glyph stands for: its cluster's on the cluster's first glyph."""
    if clusters == list(range(len(text))):
        return tuple(text)  # one glyph per character, left to right: the usual case
    # A cluster's characters run up to the next larger cluster start (either direction).
    starts = sorted(set(clusters))
    ends = dict(zip(starts, [*starts[1:], len(text)], strict=True))
    seen: set[int] = set()
    texts = []
    for cluster in clusters:
        texts.append("" if cluster in seen else text[cluster:ends[cluster]])
        seen.add(cluster)
    return tuple(texts)
