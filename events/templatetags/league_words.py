"""Names for stored keys that templates show (never the key itself)."""
from django import template

from events.messages import preset_name

register = template.Library()


@register.filter
def scoring_preset(key: str) -> str:
    """A scoring preset's name in the reader's language ("oms-2011" -> the ÖMS 2011 table)."""
    return preset_name(key)
