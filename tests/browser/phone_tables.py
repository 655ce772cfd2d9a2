"""Whether every table of a page either fits a phone's width or shows that it scrolls (#24 item
10): a table wider than the screen sits in a ``.scroll`` box that muster.js marks "overflows"
(an accent edge at the right) and that stays within the screen."""
from __future__ import annotations

from typing import Any

TABLES = """() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll("table")].filter(t => t.offsetParent !== null).map(t => {
        const box = t.closest(".scroll");
        const inside = (box || t).getBoundingClientRect().right <= width + 0.5;
        const fits = inside && (box ? box.scrollWidth <= box.clientWidth + 1
                                    : t.getBoundingClientRect().right <= width + 0.5);
        const shows = Boolean(box) && inside && box.classList.contains("overflows")
            && parseFloat(getComputedStyle(box).borderRightWidth) >= 2
            && box.getAttribute("tabindex") === "0";
        return {table: t.className || t.id || "table", fits, shows};
    });
}"""


def tables_of(page) -> list[dict[str, Any]]:
    page.wait_for_load_state("load")
    return page.evaluate(TABLES)


def assert_tables_fit_or_scroll(page) -> list[dict[str, Any]]:
    """Every visible table fits or shows it scrolls; the page itself never scrolls sideways."""
    found = tables_of(page)
    assert found, page.url
    cut = [t["table"] for t in found if not (t["fits"] or t["shows"])]
    assert cut == [], (page.url, cut)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    return found
