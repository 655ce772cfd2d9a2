"""One `demo_data` run shared by the tests that need a demo site behind them (its idempotence,
the rows and files it made), instead of a first run of their own: a run costs seconds.

The run is made in a transaction rolled back when its tests are done; each test's own
transaction (``django_db``) is a savepoint inside it, so a test's writes do not last. The files
it writes (passwords, e-mails) stay in ``data_dir``; a test that runs the command again or
changes a file works on its own copy (``own_copy``). Browser tests, whose live server needs
committed rows, restore a kept copy of the rows instead: tests/browser/demo_site.py."""
from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.core.management import call_command
from django.db import transaction
from django.test import override_settings


@dataclass(frozen=True)
class FirstRun:
    """What the shared first run printed, and the DATA_DIR it wrote into."""

    out: str
    data_dir: Path


def first_demo_run(data_dir: Path, django_db_blocker) -> Iterator[FirstRun]:
    """For a class- or module-scoped fixture: `demo_data` once, on a fresh site."""
    with django_db_blocker.unblock(), override_settings(DATA_DIR=data_dir):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            out = io.StringIO()
            call_command("demo_data", stdout=out)
            yield FirstRun(out.getvalue(), data_dir)
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def own_copy(first: FirstRun, tmp_path: Path) -> Path:
    """The first run's DATA_DIR copied for one test (modes kept: the password files are 0600)."""
    return Path(shutil.copytree(first.data_dir, tmp_path / "data"))
