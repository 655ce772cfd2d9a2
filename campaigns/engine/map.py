"""The campaign map: the 6×3 grid of the seed's example map, lines of resistance, adjacency,
isolation and the nearest friendly territory.

Contract grid (api-v1-systems "Epic 40,000 campaigns"), each side's line 1 facing the enemy:

    row 0:   1  4  7 | A  D  G
    row 1:   2  5  8 | B  E  H
    row 2:   3  6  9 | C  F  I
    west line: 3  2  1 | 1  2  3 :east line

R6–R8: « une grille 3x3 … pour chaque camps », « 3 Lignes de Résistance, chaque ligne étant
composée de 3 territoires »; *Exemple de carte*: « 7-9 = Votre première ligne … 1-3 … troisième ».
A line of resistance is therefore a column of the grid.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

WEST, EAST = "west", "east"
SIDES: tuple[str, str] = (WEST, EAST)
COLUMNS, ROWS = 6, 3
LINES = (1, 2, 3)
FRONT, REAR = 1, 3

GRID: tuple[tuple[str, ...], ...] = (
    ("1", "4", "7", "A", "D", "G"),
    ("2", "5", "8", "B", "E", "H"),
    ("3", "6", "9", "C", "F", "I"),
)

# G4: « adjacent » is never defined; orthogonal on the combined grid by default (9 touches 6, 8
# and C), with the diagonal option as a campaign setting.
ORTHOGONAL, ORTHOGONAL_DIAGONAL = "orthogonal", "orthogonal_diagonal"
ADJACENCIES = (ORTHOGONAL, ORTHOGONAL_DIAGONAL)

MAJORS_PER_SIDE = 2  # R7: « 2 Territoires Majeurs et 7 Territoires Mineurs »


class UnknownTerritory(ValueError):
    """A code that is not on the map (params: code)."""

    def __init__(self, code: object) -> None:
        super().__init__(f"unknown territory {code!r}")
        self.code = code


@dataclass(frozen=True)
class Territory:
    """One square: its code, grid place, the side whose sector it is in, and its line there."""

    code: str
    col: int
    row: int
    home_side: str
    line: int


def _territory(col: int, row: int) -> Territory:
    home = WEST if col < COLUMNS // 2 else EAST
    # West's line 1 is the column next to the front (col 2), east's is col 3.
    line = COLUMNS // 2 - col if home == WEST else col - COLUMNS // 2 + 1
    return Territory(GRID[row][col], col, row, home, line)


TERRITORIES: Mapping[str, Territory] = {
    t.code: t
    for t in sorted((_territory(c, r) for c in range(COLUMNS) for r in range(ROWS)),
                    key=lambda t: (t.home_side != WEST, t.code))
}
CODES: tuple[str, ...] = tuple(TERRITORIES)


def territory(code: str) -> Territory:
    try:
        return TERRITORIES[code]
    except (KeyError, TypeError):
        raise UnknownTerritory(code) from None


def enemy(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}")
    return EAST if side == WEST else WEST


def home_side(code: str) -> str:
    return territory(code).home_side


def line_of(code: str) -> int:
    """The line of resistance of ``code`` in its home sector (1 faces the enemy)."""
    return territory(code).line


def line_column(side: str, line: int) -> int:
    """The grid column of ``side``'s line ``line``."""
    if line not in LINES:
        raise ValueError(f"lines are 1 to 3, not {line!r}")
    return COLUMNS // 2 - line if side == WEST else COLUMNS // 2 + line - 1


def column_codes(col: int) -> tuple[str, ...]:
    return tuple(GRID[row][col] for row in range(ROWS))


def line_codes(side: str, line: int) -> tuple[str, ...]:
    """The three territories of ``side``'s line ``line``."""
    return column_codes(line_column(side, line))


def same_line(a: str, b: str) -> bool:
    """Both codes in one line of resistance (one column)."""
    return territory(a).col == territory(b).col


def adjacent(a: str, b: str, adjacency: str = ORTHOGONAL) -> bool:
    ta, tb = territory(a), territory(b)
    dc, dr = abs(ta.col - tb.col), abs(ta.row - tb.row)
    if adjacency == ORTHOGONAL:
        return dc + dr == 1
    if adjacency == ORTHOGONAL_DIAGONAL:
        return max(dc, dr) == 1
    raise ValueError(f"adjacency must be one of {ADJACENCIES}")


def neighbours(code: str, adjacency: str = ORTHOGONAL) -> frozenset[str]:
    return frozenset(other for other in CODES if adjacent(code, other, adjacency))


def home_control() -> dict[str, str]:
    """Every territory held by its own side: the map before the first battle."""
    return {code: t.home_side for code, t in TERRITORIES.items()}


def full_control(partial: Mapping[str, str]) -> dict[str, str]:
    """``partial`` completed with each missing territory held by its home side."""
    control = home_control()
    for code, side in partial.items():
        territory(code)
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}")
        control[code] = side
    return control


def column_behind(code: str, holder: str) -> int | None:
    """The column one step toward ``holder``'s home edge, None past ``holder``'s rearmost line."""
    col = territory(code).col + (-1 if holder == WEST else 1)
    return col if 0 <= col < COLUMNS else None


def isolated(control: Mapping[str, str]) -> frozenset[str]:
    """The territories whose holder controls no territory in the line behind them.

    R33: « Il n'y a pas de territoire sous controle allié dans la ligne de résistance se trouvant
    derrière le territoire ». G15: behind = the adjacent line toward the holder's home, so the
    holder's rearmost line is never isolated. ``control`` must cover the whole map.
    """
    out = set()
    for code in CODES:
        holder = control[code]
        behind = column_behind(code, holder)
        if behind is not None and all(control[c] != holder for c in column_codes(behind)):
            out.add(code)
    return frozenset(out)


def steps_from(start: str, adjacency: str = ORTHOGONAL) -> dict[str, int]:
    """Fewest steps from ``start`` to every territory, crossing any territory."""
    territory(start)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours(here, adjacency):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def nearest_friendly(
    control: Mapping[str, str], side: str, start: str, adjacency: str = ORTHOGONAL,
) -> tuple[str, ...]:
    """Where a defeated detachment may retreat (R32, G14): the friendly territories the fewest
    steps from ``start`` (``start`` itself excluded); empty when ``side`` holds nothing."""
    steps = steps_from(start, adjacency)
    friendly = [code for code in CODES if code != start and control[code] == side]
    if not friendly:
        return ()
    best = min(steps[code] for code in friendly)
    return tuple(code for code in friendly if steps[code] == best)


def check_majors(side: str, majors: Iterable[str]) -> bool:
    """Two distinct territories of ``side``'s own sector (R7, G30)."""
    chosen = tuple(majors)
    return (len(chosen) == MAJORS_PER_SIDE and len(set(chosen)) == MAJORS_PER_SIDE
            and all(c in TERRITORIES and TERRITORIES[c].home_side == side for c in chosen))
