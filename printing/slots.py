"""Slots: the boxes of a laid-out form that per-table texts go into, read back from WeasyPrint.

A template marks a slot with ``data-slot="name"`` on an element whose size never depends on
its text (see print.css); a table row a pack repeats (the pairings list) with ``data-row``.
Positions are CSS px from the page's top-left corner, as WeasyPrint lays pages out.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

BOLD_WEIGHT = 600  # CSS weights from here up are drawn with the bold face


@dataclass(frozen=True)
class Slot:
    """Where one slot lies on its page (content box, CSS px) and how its text is styled."""

    name: str
    x: float
    y: float
    width: float
    height: float
    font_size: float
    bold: bool = False
    italic: bool = False
    line_height: float = 0.0  # px; 0: the font's own (CSS "normal")
    wrap: bool = False  # white-space lets the text break into lines
    align: str = "left"  # left | center | right
    color: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def css(self) -> str:
        """The slot as CSS declarations (the WeasyPrint overlay fallback places texts so)."""
        return (f"left:{self.x:.2f}px;top:{self.y:.2f}px;width:{self.width:.2f}px;"
                f"height:{self.height:.2f}px;font-size:{self.font_size:.2f}px;"
                f"font-weight:{700 if self.bold else 400};"
                f"font-style:{'italic' if self.italic else 'normal'};"
                f"white-space:{'normal' if self.wrap else 'nowrap'};text-overflow:ellipsis;"
                f"text-align:{self.align};"
                + (f"line-height:{self.line_height:.3f}px;" if self.line_height else "")
                + "color:rgb({:.0f},{:.0f},{:.0f})".format(*(255 * c for c in self.color)))

    def moved(self, dy: float) -> Slot:
        """The same slot ``dy`` px lower (a repeated row)."""
        return replace(self, y=self.y + dy)


@dataclass(frozen=True)
class Row:
    """A table row laid out once (``data-row``): its page, top, height and slots."""

    kind: str
    page: int
    top: float
    height: float
    slots: tuple[Slot, ...]


def _align(style: Any) -> str:
    value = str(style["text_align_all"])
    return {"right": "right", "end": "right", "center": "center"}.get(value, "left")


def _line_height(style: Any) -> float:
    value = style["line_height"]
    if value == "normal":
        return 0.0
    if isinstance(value, int | float):
        return float(value) * style["font_size"]
    number = getattr(value, "value", None)
    if getattr(value, "unit", None) == "px" and number is not None:
        return float(number)
    return 0.0


def slot_of(name: str, box: Any) -> Slot:
    style = box.style
    color = style["color"]
    rgb = tuple(float(c) for c in tuple(color)[:3]) if color is not None else (0.0, 0.0, 0.0)
    return Slot(
        name, box.content_box_x(), box.content_box_y(), box.width, box.height,
        float(style["font_size"]), bold=style["font_weight"] >= BOLD_WEIGHT,
        italic=style["font_style"] != "normal", line_height=_line_height(style),
        wrap=style["white_space"] not in ("nowrap", "pre"), align=_align(style),
        color=rgb)  # type: ignore[arg-type]


def page_slots(page: Any) -> tuple[Slot, ...]:
    """The slots of a laid-out page, in document order.

    Reads WeasyPrint's box tree (``Page._page_box``): pre-order, so an element's own box comes
    before the anonymous boxes inside it.
    """
    found: dict[str, Slot] = {}
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        name = element.get("data-slot") if element is not None else None
        if name and name not in found:
            found[name] = slot_of(name, box)
    return tuple(found.values())


def page_rows(page: Any, number: int) -> list[Row]:
    """The ``data-row`` rows of a laid-out page, in order, each with the slots inside it; a
    row's height is the distance to the next one (so collapsed borders are counted once), the
    last row's its own."""
    rows: list[tuple[str, Any]] = []
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        kind = element.get("data-row") if element is not None else None
        if kind and (not rows or rows[-1][1].element is not element):
            rows.append((kind, box))
    result = []
    for i, (kind, box) in enumerate(rows):
        top = box.position_y
        height = rows[i + 1][1].position_y - top if i + 1 < len(rows) else box.height
        slots = {}
        for inner in box.descendants():
            element = getattr(inner, "element", None)
            name = element.get("data-slot") if element is not None else None
            if name and name not in slots:
                slots[name] = slot_of(name, inner)
        result.append(Row(kind, number, top, height, tuple(slots.values())))
    return result


def content_bottom(page: Any) -> float:
    """The bottom of the page's content area (px): where flowing rows must stop."""
    box = page._page_box
    return box.content_box_y() + box.height
