"""A row locked by another connection, as a request in flight holds it (PostgreSQL tests)."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, models, transaction


@contextmanager
def row_held(model: type[models.Model], pk: int, timeout: float = 30) -> Iterator[None]:
    """Row ``pk`` of ``model`` locked (SELECT ... FOR UPDATE) in a thread of its own, with its
    own connection, until the block ends."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                model.objects.select_for_update().get(pk=pk)
                held.set()
                release.wait(timeout=timeout)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert held.wait(timeout=timeout), "the row was not locked in time"
        yield
    finally:
        release.set()
        thread.join(timeout=timeout)
