"""The secret key: generated once into a local file when the environment gives none."""
import os
import secrets
from pathlib import Path


def load_or_create_secret_key(path: Path) -> str:
    """Read the key from `path`, creating it (mode 0600) on first use so restarts keep sessions."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(64)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
