"""The three charts written out from the rules digest, independently of the data file.

Standard: cities-of-death.md §2.1 (outside knowledge: the 4th-edition rulebook chart).
Strike and Withdraw: the §8.7 table (compulsory, optional extras) for attacker and defender.
"""
from armylists.validation import chart_from_rows

STANDARD = chart_from_rows(
    "w40k4-standard",
    [("hq", 1, 1), ("troops", 2, 4), ("elites", 0, 3), ("fast_attack", 0, 3), ("heavy_support", 0, 3)],
)
ATTACKER = chart_from_rows(
    "strike-and-withdraw-attacker",
    [("hq", 1, 1), ("troops", 0, 2), ("elites", 2, 4), ("fast_attack", 1, 2)],
)
DEFENDER = chart_from_rows(
    "strike-and-withdraw-defender",
    [("hq", 1, 0), ("troops", 3, 6), ("elites", 0, 1), ("heavy_support", 0, 3)],
)
