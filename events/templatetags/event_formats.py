"""``{% format_page tournament as page %}``: the link to the page of the event's format, if any."""
from django import template

from events import formats

register = template.Library()


@register.simple_tag
def format_page(tournament) -> dict | None:
    event_format = formats.get(tournament.format)
    if event_format is None or event_format.page is None:
        return None
    label, url = event_format.page(tournament)
    return {"label": label, "url": url}
