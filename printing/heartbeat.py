"""A build's heartbeat: a thread that touches its pack's ``heartbeat_at`` every
MUSTER_PACK_HEARTBEAT_SECONDS while the build runs, whatever one chunk takes, so a pack whose
heartbeat stops is one whose process died (printing/services/packs.py restarts it).

It beats under the run's attempt token: once the run lost its pack (retried, superseded,
restarted by the sweep) a beat moves nothing and the thread stops.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
from types import TracebackType

from django.conf import settings
from django.db import connection
from django.utils import timezone

from printing.models import MissionPack

logger = logging.getLogger(__name__)


def this_process() -> str:
    """Who beats: "host:pid" (a pack's ``heartbeat_by``)."""
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def heartbeat_seconds() -> float:
    return float(settings.MUSTER_PACK_HEARTBEAT_SECONDS)


def beat(pack_id: int, attempt: str) -> bool:
    """Say run ``attempt`` of pack ``pack_id`` is alive; False when the run no longer owns it."""
    return bool(MissionPack.objects.filter(
        pk=pack_id, status=MissionPack.Status.RUNNING, attempt=attempt,
    ).update(heartbeat_at=timezone.now(), heartbeat_by=this_process()))


def owner_alive(pack: MissionPack) -> bool:
    """Whether the process that last beat for ``pack`` may still be building it.

    A process of this host is alive when its pid is (this very process is not: it runs one
    build at a time, so its earlier run is over); one of another host is taken to be alive
    while its heartbeat is fresh.
    """
    if not pack.heartbeat_by or pack.interrupted:
        return False
    host, _, pid = pack.heartbeat_by.rpartition(":")
    if host != socket.gethostname():
        return True
    if not pid.isdigit() or int(pid) in (0, os.getpid()):  # kill(0) would name our group
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return not _zombie(int(pid))


def _zombie(pid: int) -> bool:
    # A killed process its parent has not reaped yet still answers kill(pid, 0).
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return False


class Heartbeat:
    """``with Heartbeat(pack_id, attempt):`` beats in a thread while the block runs."""

    def __init__(self, pack_id: int, attempt: str, every: float | None = None) -> None:
        self.pack_id, self.attempt = pack_id, attempt
        self.every = heartbeat_seconds() if every is None else every
        self.lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"pack-{pack_id}-heartbeat",
                                        daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop.set()
        # A beat stuck on the database must not hold the build's end (the thread is a daemon).
        self._thread.join(timeout=max(5.0, 2 * self.every))

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    alive = beat(self.pack_id, self.attempt)
                except Exception:  # noqa: BLE001  (the database went away a moment: beat again)
                    logger.warning("mission pack %s: heartbeat not written", self.pack_id,
                                   exc_info=True)
                    continue
                if not alive:
                    self.lost = True  # retried, superseded or restarted: stop beating
                    return
        finally:
            connection.close()  # this thread's own connection
