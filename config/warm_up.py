"""What a web worker loads before its first request: each lazy load below cost the first request
a fresh gunicorn worker served some 100–200 ms (after a deploy or a worker's restart, every
worker's first answers are slow, and a Saturday morning's first draft commits queue behind them).

Called by config/wsgi.py as each worker starts, before the loaded objects are frozen out of the
cyclic collector's sight. Nothing here touches the database or the cache: a worker starts even
while they are down."""
from __future__ import annotations

from django.conf import settings
from django.urls import get_resolver, reverse
from django.utils import translation


def load() -> None:
    """The URL configuration with every view module it imports; for each language, its
    translation catalogue and the URL names' reverse table."""
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 (imports config.urls and every module it names)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Round")
            reverse("api-root")  # the reverse table is built per language, on first use
