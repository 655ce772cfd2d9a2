"""Campaign words for templates: a side's key ("west", "east") as the reader reads it."""
from django import template

from campaigns.words import SIDES

register = template.Library()


@register.filter
def side_name(side: str) -> str:
    return str(SIDES.get(side, side))
