"""Where a pack's PDF is stored: written into a temporary file beside its final path, then moved
into place atomically, so a reader sees the old file or the whole new one, never a half; the
temporary files a dead build left behind are swept."""
from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TypeVar

from django.conf import settings

from printing.models import MissionPack

T = TypeVar("T")
PARTS_FOLDER = "packs"
PART_NAME = re.compile(r"^\.pack-(\d+)-.*\.part$")


def stale_seconds() -> int:
    return int(settings.MUSTER_PACK_STALE_SECONDS)


def media_path(name: str) -> Path:
    return Path(settings.MEDIA_ROOT) / name


def stored_path(pack: MissionPack) -> Path | None:
    """The finished file, when there is one."""
    if not pack.file:
        return None
    path = media_path(pack.file.name)
    return path if path.is_file() else None


def store_atomically(pack: MissionPack, write: Callable[[BinaryIO], T],
                     publish: Callable[[Callable[[], None], T], None] | None = None) -> T:
    """Run ``write`` into a temporary file, then move it onto the pack's final path.

    The move is atomic (same directory), so readers see the old file or the whole new one.
    ``publish(move, result)``, when given, decides whether and when the move happens (the
    build moves only under the pack's row lock, while it still owns the pack).
    """
    final = media_path(pack.file_name)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=final.parent, prefix=f".pack-{pack.pk}-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            result = write(out)
            out.flush()
            os.fsync(out.fileno())

        def move() -> None:
            os.replace(part, final)

        if publish is None:
            move()
        else:
            publish(move, result)
    finally:
        Path(part).unlink(missing_ok=True)
    return result


def remove_parts(pack_id: int) -> None:
    """Drop every temporary file of this pack (called by the run that now owns it)."""
    for leftover in media_path(PARTS_FOLDER).glob(f".pack-{pack_id}-*.part"):
        leftover.unlink(missing_ok=True)


def sweep_parts() -> int:
    """Remove temporary files older than the stale limit whose pack is not being built.

    A build creates its file when it starts, so an old file of a live (not stale) running pack
    is kept. Returns how many were removed.
    """
    folder = media_path(PARTS_FOLDER)
    limit = time.time() - stale_seconds()
    old: dict[Path, int] = {}
    for path in folder.glob(".pack-*.part") if folder.is_dir() else ():
        match = PART_NAME.match(path.name)
        try:
            if match and path.stat().st_mtime < limit:
                old[path] = int(match.group(1))
        except FileNotFoundError:
            pass
    if not old:
        return 0
    building = {pack.pk for pack in MissionPack.objects.filter(
        pk__in=set(old.values()), status=MissionPack.Status.RUNNING) if not pack.stale}
    removed = 0
    for path, pack_id in old.items():
        if pack_id not in building:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
