"""When the shared cache (CACHE_URL, Redis) fails: the errors that say so, and one warning.

The cache only speeds Muster up and shares counters: a page is built without it, a write goes
through without its version bump (``events.event_cache``) and the rate limits count in the
process instead (``config.ratelimit``). Callers catch ``CACHE_ERRORS`` and call ``failed``."""
from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# RedisError covers a refused or lost connection, a timeout and a Redis that refuses writes
# (out of memory, a read-only replica); OSError the sockets of other cache backends.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)
# One warning per process this often while the cache stays down, not one per request.
WARN_EVERY_SECONDS = 60.0

_lock = threading.Lock()
_last_warning = -WARN_EVERY_SECONDS


def failed(what: str, error: Exception) -> None:
    """Log that ``what`` went on without the cache because of ``error`` (at most once a
    minute per process)."""
    global _last_warning
    now = time.monotonic()
    with _lock:
        if now - _last_warning < WARN_EVERY_SECONDS:
            return
        _last_warning = now
    logger.warning("The cache is unavailable (%s), %s goes on without it: %s",
                   type(error).__name__, what, error)
