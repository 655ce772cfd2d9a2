"""Personal check-in codes: made with ``secrets``, read back from whatever a scanner typed.

Pure (no Django): the model's default, the services and the pages share these functions.
"""
from __future__ import annotations

import re
import secrets
from urllib.parse import parse_qs, urlsplit

# No 0/O, 1/I/L: a code read aloud or typed from a phone's screen is not misread.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 12  # 31**12: about 59 bits, far beyond guessing at the pace of a rate-limited form
GROUP = 4
MAX_INPUT = 500  # a scanned link is longer than a code, but not by this much
_NOT_CODE = re.compile(r"[^0-9A-Z]")


def new_checkin_code() -> str:
    """A fresh code (the model's unique index refuses the astronomically rare repeat)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """The code as printed and shown: groups of four, "ABCD-EFGH-JKMN"."""
    return "-".join(code[i:i + GROUP] for i in range(0, len(code), GROUP))


def read_code(text: str) -> str:
    """The code in what staff typed or a scanner filled in: the code itself (any case, with
    spaces or dashes) or the link of the player's QR code (its ``code`` parameter)."""
    text = (text or "")[:MAX_INPUT].strip()
    if "code=" in text:
        values = parse_qs(urlsplit(text).query).get("code")
        text = values[0] if values else ""
    return _NOT_CODE.sub("", text.upper())


def well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(c in ALPHABET for c in code)
