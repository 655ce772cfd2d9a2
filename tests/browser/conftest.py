"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections

CHROMIUM = os.environ.get("MUSTER_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 360, "height": 740}


def missing(reason: str) -> None:
    """Skip on a developer's machine; fail where the browser tests must run (CI sets the flag)."""
    if os.environ.get("MUSTER_REQUIRE_BROWSER"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def chromium() -> Iterator[object]:
    """Per test, so Playwright's event loop is gone before pytest-django flushes the database."""
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (install Debian's chromium or set MUSTER_CHROMIUM)")
    try:
        from playwright import sync_api
    except ImportError:
        missing("the playwright package is missing")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, live_server, monkeypatch):
    """A factory of pages, each in a context of its own (its own cookies), phone-sized."""
    # Playwright's sync API keeps an event loop running in this thread; the ORM calls the test
    # makes in between (the organiser's services) are still plain synchronous code. Set per test
    # only: a process-wide value would leak into `manage.py check --deploy` (async.E001).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    contexts = []

    def make(**options):
        options = {"locale": "en-GB", **options}  # a page may ask for another language
        context = chromium.new_context(viewport=VIEWPORT, base_url=live_server.url, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    # While Playwright's loop runs, Django keeps the test's connections in context variables
    # (asgiref's Local): close them here, or they outlive the test database (PostgreSQL then
    # refuses to drop it: "being accessed by other users").
    connections.close_all()


@pytest.fixture
def screenshots(request, tmp_path) -> Path:
    """Where screenshots go: $MUSTER_SCREENSHOTS/<test name> (CI keeps them), else a temp dir."""
    root = os.environ.get("MUSTER_SCREENSHOTS")
    directory = Path(root) / request.node.name if root else tmp_path / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    return directory
