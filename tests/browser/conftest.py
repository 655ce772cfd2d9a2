"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server."""
from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

CHROMIUM = os.environ.get("MUSTER_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 360, "height": 740}


def missing(reason: str) -> None:
    """Skip on a developer's machine; fail where the browser tests must run (CI sets the flag)."""
    if os.environ.get("MUSTER_REQUIRE_BROWSER"):
        pytest.fail(reason)
    pytest.skip(reason)


class Driver:
    """One Playwright driver and one Chromium for the worker's browser tests.

    Starting both cost some 1.5 s (and a CPU-second) per test. Playwright's sync API marks its
    event loop as running in this thread between its calls, which makes Django treat the thread
    as async code (its connections then live in context variables): the loop is marked only
    while a browser test runs (`chromium`), so every other test, and the database flush after a
    browser test, sees a plain synchronous thread, as when each test stopped its own driver."""

    def __init__(self) -> None:
        from playwright import sync_api

        self._manager = sync_api.sync_playwright()
        self._playwright = self._manager.start()
        self._loop = self._manager._loop
        self.browser = self._launch()
        self.idle()

    def _launch(self) -> Any:
        return self._playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                args=["--no-sandbox"])

    def busy(self) -> Any:
        """Mark the loop as running again, as Playwright left it after its last call."""
        asyncio._set_running_loop(self._loop)
        if not self.browser.is_connected():  # a crash in an earlier test: start afresh
            self.browser = self._launch()
        return self.browser

    def idle(self) -> None:
        asyncio._set_running_loop(None)

    def stop(self) -> None:
        self.busy()
        self.browser.close()
        self._manager.__exit__()
        self.idle()


_shared: dict[str, Any] = {"driver": None, "holders": 0}


@pytest.fixture(scope="session")
def _driver() -> Iterator[Driver]:
    """The worker's driver. Each conftest importing this fixture (tests/teams/) has a session
    fixture of its own: they share one driver, stopped when the last of them ends."""
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (install Debian's chromium or set MUSTER_CHROMIUM)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing("the playwright package is missing")
    if _shared["driver"] is None:
        _shared["driver"] = Driver()
    _shared["holders"] += 1
    yield _shared["driver"]
    _shared["holders"] -= 1
    if not _shared["holders"]:
        _shared["driver"].stop()
        _shared["driver"] = None


@pytest.fixture
def chromium(_driver: Driver) -> Iterator[object]:
    """The worker's browser, for this test; what the test opened is closed after it."""
    browser = _driver.busy()
    try:
        yield browser
    finally:
        try:
            for context in browser.contexts:
                context.close()
        finally:
            _driver.idle()


@pytest.fixture
def new_page(chromium, live_server, monkeypatch):
    """A factory of pages, each in a context of its own (its own cookies), phone-sized."""
    # Playwright's sync API keeps an event loop running in this thread; the ORM calls the test
    # makes in between (the organiser's services) are still plain synchronous code. Set per test
    # only: a process-wide value would leak into `manage.py check --deploy` (async.E001).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    def make(**options):
        options = {"locale": "en-GB", **options}  # a page may ask for another language
        context = chromium.new_context(viewport=VIEWPORT, base_url=live_server.url, **options)
        context.set_default_timeout(10_000)
        return context.new_page()

    yield make
    for context in chromium.contexts:
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
