"""Warhammer 40,000 4th edition lists: the count-based chart rules (armylists/systems/chart.py)."""
from armylists.systems.chart import ChartRules


class W40k4Rules(ChartRules):
    slug = "w40k4"
