"""Hostile request bodies for the robustness tests: deep JSON, NUL characters, huge uploads."""
from __future__ import annotations

import io
from typing import Any

NUL = "\x00"
BOUNDARY = "hostileBoundary"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
BIG = 20 * 1024 * 1024  # five times the 4 MiB cap


def deep(depth: int) -> str:
    """A JSON document of ``depth`` nested arrays."""
    return "[" * depth + "]" * depth


def nul_values(value: Any) -> Any:
    """``value`` with a NUL added to every string in it (not to object keys)."""
    if isinstance(value, str):
        return value + NUL
    if isinstance(value, dict):
        return {key: nul_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [nul_values(item) for item in value]
    return value


def nul_keys(value: Any) -> Any:
    """``value`` with a NUL added to every object key in it."""
    if isinstance(value, dict):
        return {f"{key}{NUL}": nul_keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [nul_keys(item) for item in value]
    return value


class MadeUpBody(io.RawIOBase):
    """A multipart body of ``size`` bytes holding one ``roster_file``, made up as it is read:
    the test never holds it, and ``read_bytes`` tells how much of it the server took."""

    def __init__(self, size: int = BIG, field: str = "roster_file"):
        super().__init__()
        self.head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; "
                     f"filename=\"big.ros\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                     ).encode()
        self.tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.size = size
        self.position = 0
        self.read_bytes = 0  # the furthest byte handed out

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, min(self.size, base + offset))
        return self.position

    def tell(self) -> int:
        return self.position

    def _bytes(self, start: int, end: int) -> bytes:
        tail_start = self.size - len(self.tail)
        if len(self.head) <= start and end <= tail_start:
            return b"A" * (end - start)  # the common case, without a byte-by-byte loop
        return bytes(self._byte(p, tail_start) for p in range(start, end))

    def _byte(self, position: int, tail_start: int) -> int:
        if position < len(self.head):
            return self.head[position]
        if position >= tail_start:
            return self.tail[position - tail_start]
        return ord("A")

    def read(self, size: int = -1) -> bytes:
        end = self.size if size is None or size < 0 else min(self.size, self.position + size)
        data = self._bytes(self.position, end)
        self.position = end
        self.read_bytes = max(self.read_bytes, end)
        return data

    def readline(self, size: int = -1) -> bytes:
        start = self.position
        data = self.read(size if size and size > 0 else 64 * 1024)
        cut = data.find(b"\n")
        if cut >= 0:
            data = data[:cut + 1]
            self.position = start + len(data)
        return data
