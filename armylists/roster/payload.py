"""Turning an upload into bytes: base64 unwrapping, size caps, text decoding, format detection.

Base64 rule (the API sends files as base64 inside a JSON string): the upload is decoded first
when, once an optional ``data:...;base64,`` prefix and line breaks are removed, it is non-empty,
made only of base64 characters (standard or URL-safe alphabet, no spaces or tabs), correctly
padded, decodes cleanly, and the decoded bytes have one of the signatures below. Anything else is
taken as it is: a real text export always has spaces and brackets, so it is never mistaken.

Signatures (``auto``): zip magic ``PK\\x03\\x04`` (or the empty-archive magic) -> ``rosz``;
first non-blank character ``<`` -> ``ros`` (the root must then be ``roster``); ``{`` ->
``newrecruit_json``; a ``+ Category +`` / ``++ Force ++`` heading line, or the official
40k app's layout (a capitalised section heading followed by a "Name (N Points)" line) ->
``battlescribe_text`` (pasted text; see ``app_export``).
"""
from __future__ import annotations

import base64
import binascii
import re

from armylists.roster.app_export import looks_like_app_export
from armylists.roster.archive import EMPTY_ZIP_MAGIC, ZIP_MAGIC
from armylists.roster.results import RosterLimits, RosterUnreadable
from armylists.roster.text_export import looks_like_text_export

BASE64 = re.compile(rb"[A-Za-z0-9+/]+={0,2}")
BASE64_URLSAFE = re.compile(rb"[A-Za-z0-9_-]+={0,2}")
DATA_URL = re.compile(rb"data:[^,]{0,200};base64,", re.IGNORECASE)
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
BLANK = " \t\r\n\ufeff"


def payload_bytes(data: object, limits: RosterLimits) -> bytes:
    """The upload as bytes, base64 removed, within the size cap; never empty."""
    if isinstance(data, str):
        raw = data.encode("utf-8", errors="replace")
    elif isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    else:
        raise RosterUnreadable("bad_input", {"type": type(data).__name__})
    # base64 inflates by 4/3 plus line breaks; anything larger cannot decode under the cap.
    if len(raw) > limits.max_upload_bytes * 3 // 2 + 4096:
        raise RosterUnreadable("too_large", {"size": len(raw), "limit": limits.max_upload_bytes})
    if not raw.strip():
        raise RosterUnreadable("empty")
    payload = unwrap_base64(raw)
    if len(payload) > limits.max_upload_bytes:
        raise RosterUnreadable("too_large", {"size": len(payload), "limit": limits.max_upload_bytes})
    if not payload.strip():
        raise RosterUnreadable("empty")
    return payload


def unwrap_base64(raw: bytes) -> bytes:
    """The decoded bytes when ``raw`` is base64 of a recognisable roster, else ``raw``."""
    compact = raw.strip()
    prefix = DATA_URL.match(compact)
    if prefix:
        compact = compact[prefix.end():]
    compact = compact.replace(b"\r", b"").replace(b"\n", b"")
    if not compact or len(compact) % 4:
        return raw
    decoded = _decode(compact)
    if decoded is None or detect_format(decoded) is None:
        return raw
    return decoded


def _decode(compact: bytes) -> bytes | None:
    try:
        if BASE64.fullmatch(compact):
            return base64.b64decode(compact, validate=True)
        if BASE64_URLSAFE.fullmatch(compact):
            return base64.urlsafe_b64decode(compact)
    except (binascii.Error, ValueError):
        return None
    return None


def decode_text(payload: bytes) -> str:
    """Text of an upload: UTF-16 when it has a BOM, UTF-8 when valid, else Windows-1252."""
    if payload.startswith(UTF16_BOMS):
        return payload.decode("utf-16", errors="replace")
    try:
        return payload.decode("utf-8-sig")
    except UnicodeDecodeError:
        return payload.decode("cp1252", errors="replace")


def detect_format(payload: bytes) -> str | None:
    """The format an upload's signature points to, or None."""
    if payload.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
        return "rosz"
    text = decode_text(payload)
    head = text.lstrip(BLANK)[:1]
    if head == "<":
        return "ros"
    if head == "{":
        return "newrecruit_json"
    if looks_like_text_export(text) or looks_like_app_export(text):
        return "battlescribe_text"
    return None
