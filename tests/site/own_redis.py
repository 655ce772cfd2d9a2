"""A Redis of the test's own, for simulating cache outages: started on a free port, stopped and
restarted at will, never the Redis of CACHE_URL (which other runs share)."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from django.test import override_settings

from config.cache_outage import CACHE_ERRORS


def free_port() -> int:
    """A TCP port nobody listens on (bound then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    """``redis-server`` as a child process: no snapshot, no append-only file."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("needs redis-server")
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client().ping()
                return
            except CACHE_ERRORS as error:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {self.port}") \
                        from error
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def refuse_writes(self, refuse: bool = True) -> None:
        """Out of memory (or back): reads still answer, every write fails (OOM)."""
        client = self.client()
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", "1" if refuse else "0")


@contextmanager
def django_cache_on(server: OwnRedis) -> Iterator[None]:
    """Django's cache pointed at ``server`` (as settings.py configures a Redis CACHE_URL)."""
    caches = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": server.url,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}}
    with override_settings(CACHES=caches):  # Django drops its cache connections both ways
        yield
