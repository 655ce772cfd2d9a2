"""The browser fixtures (tests/browser/conftest.py) for the captain's phone test."""
from tests.browser.conftest import _driver, chromium, new_page, screenshots  # noqa: F401
