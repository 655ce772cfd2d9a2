"""Safe extraction of the .ros member of a .rosz (a zip archive written by BattleScribe).

Rules:
- the member is the one file whose name ends in ``.ros`` (any case, any folder, any other
  characters); when no member is so named, the archive's only file, whatever its name, is used
  (``__MACOSX/`` and ``._*`` resource forks are ignored, directories too);
- several ``.ros`` files -> ``several_ros_in_zip`` (the archive does not say which army is meant);
  no usable file -> ``no_ros_in_zip``;
- only stored and deflated members are read; encrypted or other methods -> ``bad_zip``;
- size: the declared size must stay under ``max_uncompressed_bytes`` and, past
  ``ratio_floor_bytes``, under ``max_ratio`` times the compressed size (-> ``zip_bomb``); the
  member is then inflated in chunks with the same caps, because headers can lie;
- a truncated or corrupt archive, or a CRC mismatch, -> ``bad_zip``.
"""
from __future__ import annotations

import io
import zipfile
from typing import IO

from armylists.roster.results import RosterLimits, RosterUnreadable

ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
CHUNK_BYTES = 64 * 1024
READABLE_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})


def extract_ros(data: bytes, limits: RosterLimits) -> bytes:
    """The bytes of the roster member of a .rosz archive."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception as exc:  # zipfile raises a wide, undocumented set of exception types
        raise RosterUnreadable("bad_zip", {"detail": type(exc).__name__}) from None
    with archive:
        member = _pick_member(archive, limits)
        _check_declared_size(member, limits)
        try:
            with archive.open(member) as stream:
                return read_capped(stream, limits, member.compress_size)
        except RosterUnreadable:
            raise
        except Exception as exc:  # CRC errors, truncated streams, zlib errors...
            raise RosterUnreadable("bad_zip", {"detail": type(exc).__name__}) from None


def _pick_member(archive: zipfile.ZipFile, limits: RosterLimits) -> zipfile.ZipInfo:
    infos = archive.infolist()
    if len(infos) > limits.max_zip_members:
        raise RosterUnreadable("bad_zip", {"detail": "too_many_members", "limit": limits.max_zip_members})
    files = [info for info in infos if _is_candidate(info)]
    named = [info for info in files if info.filename.casefold().endswith(".ros")]
    if len(named) > 1:
        raise RosterUnreadable("several_ros_in_zip", {"count": len(named)})
    chosen = named or (files if len(files) == 1 else [])
    if not chosen:
        raise RosterUnreadable("no_ros_in_zip", {"files": len(files)})
    member = chosen[0]
    if member.flag_bits & 0x1:
        raise RosterUnreadable("bad_zip", {"detail": "encrypted"})
    if member.compress_type not in READABLE_METHODS:
        raise RosterUnreadable("bad_zip", {"detail": "compression_method", "method": member.compress_type})
    return member


def _is_candidate(info: zipfile.ZipInfo) -> bool:
    if info.is_dir():
        return False
    name = info.filename.replace("\\", "/")
    base = name.rsplit("/", 1)[-1]
    return bool(base) and not name.startswith("__MACOSX/") and not base.startswith("._")


def _check_declared_size(member: zipfile.ZipInfo, limits: RosterLimits) -> None:
    declared = member.file_size
    if declared > limits.max_uncompressed_bytes:
        raise RosterUnreadable("zip_bomb", {"declared": declared, "limit": limits.max_uncompressed_bytes})
    if declared > limits.ratio_floor_bytes and declared > max(member.compress_size, 1) * limits.max_ratio:
        raise RosterUnreadable("zip_bomb", {"declared": declared, "compressed": member.compress_size})


def read_capped(stream: IO[bytes], limits: RosterLimits, compressed_size: int) -> bytes:
    """Read a stream in chunks, stopping as soon as it outgrows the size or ratio caps."""
    ratio_cap = max(limits.ratio_floor_bytes, max(compressed_size, 1) * limits.max_ratio)
    cap = min(limits.max_uncompressed_bytes, ratio_cap)
    buffer = bytearray()
    while True:
        chunk = stream.read(CHUNK_BYTES)
        if not chunk:
            return bytes(buffer)
        buffer += chunk
        if len(buffer) > cap:
            raise RosterUnreadable("zip_bomb", {"read": len(buffer), "limit": cap})
