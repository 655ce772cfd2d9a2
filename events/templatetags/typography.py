"""French typography in templates (config.typography): ``{% filter elide %}…{% endfilter %}``
elides "de" before a name ("d'Alix"); ``{{ name|colon }} {{ value }}`` sets a label's colon
("Alix\u00a0: 2 stratagèmes" in French, "Alix: 2 stratagems" in English)."""
from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from config import typography

register = template.Library()


@register.filter(is_safe=True)
def elide(text: str) -> str:
    return typography.elide(text)


@register.filter(needs_autoescape=True)
def colon(label: str, autoescape: bool = True) -> str:
    text = conditional_escape(label) if autoescape else label
    return mark_safe(typography.colon(text))  # noqa: S308 (the label is escaped above)
