"""Where a pack's PDF is stored: in the media store (Django's ``default_storage``: MEDIA_ROOT, or
an S3 bucket with MEDIA_STORAGE=s3, shared/deploy-v1.md), under a new unique name per build.

A build writes its PDF into a temporary file of its own process (never in the store), uploads
it under a name no reader knows yet, and only then switches the pack's row to that name, under
the row lock (``publish``). So a reader, who finds the file through the row, sees the old file or
the whole new one, never a half, on every backend (an S3 upload and a local write alike are
invisible until the switch). The file the row named before is deleted once the switch is
committed; a run that lost the pack deletes its own upload. What a dead process left in the
store (an upload never switched to, an old file never deleted) is named by no row: the packs
sweep removes such objects once they are older than ORPHAN_SECONDS.
"""
from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import BinaryIO, TypeVar

from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db import transaction
from django.utils import timezone

from config.refusals import ServiceRefusal
from printing.models import MissionPack, new_token

T = TypeVar("T")
logger = logging.getLogger(__name__)
FOLDER = "packs"
# An object of the packs folder that no pack names is an orphan once it is this old: younger, it
# may be a build's upload about to be switched to.
ORPHAN_SECONDS = 3600
BATCH = 500
Publish = Callable[[str, T], None]


class StoreUnavailable(ServiceRefusal):
    """The media store did not answer (a bucket unreachable): try again later, never a 500."""

    status = 503


def build_name(pack: MissionPack) -> str:
    """A new name for one build's file: unique (a fresh secret token), so no run ever writes over
    a file a reader may be fetching, and not guessable."""
    return f"{FOLDER}/pack-{pack.pk}-{new_token()}.pdf"


def stored(pack: MissionPack) -> bool:
    """Whether the pack names a file and the store has it."""
    return bool(pack.file) and default_storage.exists(pack.file.name)


def streams_locally(storage: Storage = default_storage) -> bool:
    """Whether the store is this machine's disk (served by the web node itself) rather than an
    object store that hands out signed URLs."""
    return isinstance(storage, FileSystemStorage)


def store_atomically(pack: MissionPack, write: Callable[[BinaryIO], T],
                     publish: Publish | None = None) -> T:
    """Run ``write`` into a temporary file of this process, upload it under a new name, then
    ``publish(name, result)``: the switch of the pack's row to that name (the build's switch
    checks, under the row lock, that its run still owns the pack). When ``write``, the upload
    or ``publish`` fails, the upload is deleted and the row keeps its file."""
    with tempfile.TemporaryFile(prefix=f"muster-pack-{pack.pk}-") as part:
        result = write(part)
        part.flush()
        part.seek(0)
        name = build_name(pack)
        name = default_storage.save(name, File(part, name=name))
        try:
            (publish or _switch_to(pack))(name, result)
        except BaseException:
            discard(name)
            raise
    return result


def _switch_to(pack: MissionPack) -> Publish:
    """The plain switch (no ownership to check): the row names the new file, the old one goes."""
    def publish(name: str, _result: object) -> None:
        with transaction.atomic():
            old = MissionPack.objects.select_for_update().values_list("file", flat=True).get(
                pk=pack.pk)
            MissionPack.objects.filter(pk=pack.pk).update(file=name)
        replaced(old, name)
    return publish


def replaced(old: str | None, new: str) -> None:
    """Delete the file a pack named before its switch to ``new``. Called once the switch's
    transaction block is left: a build runs outside any transaction, so that is its commit."""
    if old and old != new:
        discard(old)


def discard(name: str) -> None:
    """Delete ``name`` from the store; a failure is logged (the sweep removes it later)."""
    try:
        default_storage.delete(name)
    except Exception:  # noqa: BLE001  (the pack is fine; only the store keeps a stray object)
        logger.warning("pack file %s not deleted; the packs sweep will", name, exc_info=True)


def sweep_orphans(older_than: float = ORPHAN_SECONDS) -> int:
    """Delete the objects of the packs folder that no pack names and that are older than
    ``older_than`` seconds (an upload whose build died before its switch, an old file whose
    deletion was lost, a temporary file of an older version). Returns how many were deleted.

    One listing of the folder, one query per BATCH names, and a look at the age of the unnamed
    objects only (on S3 each is one request, and they are few)."""
    try:
        _dirs, files = default_storage.listdir(FOLDER)
    except FileNotFoundError:
        return 0  # nothing stored yet (a fresh MEDIA_ROOT)
    names = [f"{FOLDER}/{file}" for file in files]
    limit = timezone.now() - timedelta(seconds=older_than)
    removed = 0
    for name in _unnamed(names):
        try:
            if default_storage.get_modified_time(name) >= limit:
                continue
        except FileNotFoundError:
            continue  # deleted meanwhile
        discard(name)
        removed += 1
    if removed:
        logger.info("packs sweep: %d orphaned file(s) deleted from the store", removed)
    return removed


def _unnamed(names: list[str]) -> Iterable[str]:
    for start in range(0, len(names), BATCH):
        batch = names[start:start + BATCH]
        named = set(MissionPack.objects.filter(file__in=batch).values_list("file", flat=True))
        yield from (name for name in batch if name not in named)


def delete_file_of(sender, instance: MissionPack, **kwargs) -> None:
    """post_delete of a pack (connected in printing/apps.py): its PDF goes too (nothing else
    points at the file), once the deletion is committed, so a rolled-back deletion keeps a pack
    whose file is still there."""
    if instance.file:
        name = instance.file.name
        transaction.on_commit(lambda: discard(name))
