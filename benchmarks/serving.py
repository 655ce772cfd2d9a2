"""A small harness to measure Muster as it is served: a throw-away PostgreSQL database, gunicorn
on a free loopback port, and load from this process (threads, one HTTP connection each).

Used by ``benchmarks/pages.py``; any benchmark that fires HTTP requests at a real server can use
it: ``database(name)`` and ``setup_django(url)`` for building data through the services,
``Server`` to start and stop gunicorn (``CeleryWorker`` a worker, ``MailSink`` an SMTP server
that keeps nothing), ``run_load`` to fire a list of ``Call``s with some
concurrency, and ``Summary`` for requests per second, p50, p95 and errors. Asserts nothing.
"""
from __future__ import annotations

import http.client
import itertools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import nginx_proxy  # noqa: E402 (the proxy as the served tests write it)

PYTHON = sys.executable
POSTGRES = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379"


@dataclass(frozen=True)
class Call:
    """One HTTP request to fire: ``body`` as bytes (send the matching Content-Type header)."""

    method: str
    path: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None


@dataclass(frozen=True)
class Summary:
    requests: int
    errors: int
    seconds: float
    latencies_ms: tuple[float, ...]
    statuses: Mapping[int, int]
    bytes_received: int

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-th percentile (0-100) of the latencies, nearest rank."""
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        rank = max(1, round(q / 100 * len(ordered)))
        return ordered[min(rank, len(ordered)) - 1]

    @property
    def p50(self) -> float:
        return self.percentile(50)

    @property
    def p95(self) -> float:
        return self.percentile(95)

    def line(self) -> str:
        average = self.bytes_received / self.requests / 1024 if self.requests else 0
        return (f"{self.per_second:.1f} requests/s, p50 {self.p50:.1f} ms, p95 {self.p95:.1f} ms, "
                f"{self.errors} errors in {self.requests} requests ({average:.0f} KiB each)")


# --- database and Django -----------------------------------------------------------------------

def database(name: str, fresh: bool = False) -> str:
    """The URL of PostgreSQL database ``name``, created if missing (dropped first if ``fresh``)."""
    import psycopg

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    [name]).fetchone() is not None
        if exists and fresh:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            exists = False
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')
    return f"{POSTGRES}/{name}"


def server_env(database_url: str, cache_url: str, **extra: str) -> dict[str, str]:
    """The environment Muster reads, for this process and for the server it starts."""
    data_dir = os.environ.get("MUSTER_DATA_DIR") or tempfile.mkdtemp(prefix="muster-bench-")
    return {**os.environ, "DATABASE_URL": database_url, "CACHE_URL": cache_url,
            "MUSTER_DATA_DIR": data_dir, "DJANGO_SETTINGS_MODULE": "config.settings",
            "ALLOWED_HOSTS": "127.0.0.1,localhost", **extra}


def setup_django(database_url: str, cache_url: str, migrate: bool = True) -> None:
    """Configure this process like the server (same database and cache) and migrate."""
    os.environ.update(server_env(database_url, cache_url))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def flush_redis(cache_url: str) -> None:
    """Empty the Redis database ``cache_url`` names (only that one)."""
    import redis

    redis.Redis.from_url(cache_url).flushdb()


# --- the server ----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def cpu_seconds(pids: Sequence[int]) -> float:
    """User and system CPU time the processes have used so far (Linux /proc): what a burst
    costs them, whatever else the machine is doing (a loaded machine stretches wall times,
    much less CPU times)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def database_backends(name: str) -> list[int]:
    """The PostgreSQL server processes serving database ``name`` now (the web workers keep
    their connections: CONN_MAX_AGE)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [name])
        return [pid for (pid,) in cursor.fetchall()]


class Server:
    """gunicorn serving ``config.wsgi`` on a free loopback port with deploy/gunicorn.conf.py (the
    settings a web node runs with: its access log included), as a context manager."""

    def __init__(self, env: Mapping[str, str], workers: int = 2, ready_path: str = "/",
                 extra_args: Sequence[str] = ()):
        self.env, self.workers, self.ready_path = dict(env), workers, ready_path
        self.extra_args = list(extra_args)
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (outlives this call; kept for output())

    def start(self, timeout: float = 60) -> Server:
        self.process = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi",
             "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "--log-level", "warning", *self.extra_args],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.output()}")
            try:
                status, _body = request(self.port, Call("GET", self.ready_path))
                if status < 500:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer within {timeout} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def worker_pids(self) -> list[int]:
        """gunicorn's workers (the arbiter's children)."""
        return children(self.process.pid) if self.process is not None else []

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Nginx:
    """nginx in front of a server on ``upstream`` (as deploy/nginx/muster.conf puts it in front
    of the web nodes), on a free loopback port, as a context manager. gunicorn's sync workers
    are made to sit behind such a buffering proxy: it reads each answer at once, where a slow
    client would hold the worker (gunicorn lingers on each closed connection until the client
    has read it all)."""

    def __init__(self, upstream: int):
        self.upstream, self.port = upstream, free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="muster-bench-nginx-"))
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 20) -> Nginx:
        nginx_proxy.write_conf(self.folder, self.port, [self.upstream])
        self.process = subprocess.Popen(
            nginx_proxy.command(self.folder),
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                request(self.port, Call("GET", "/healthz/"))
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"nginx did not start: {(self.folder / 'error.log').read_text(errors='replace')}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class CeleryWorker:
    """``celery -A config worker`` (the README's worker: prefork, one child per core unless
    ``concurrency``; ``nice``: at a lower CPU priority), as a context manager; ``pids()`` are
    its main process and pool children."""

    def __init__(self, env: Mapping[str, str], concurrency: int | None = None, nice: int = 0):
        self.env, self.concurrency, self.nice = dict(env), concurrency, nice
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (outlives this call; kept for output())

    def __enter__(self) -> CeleryWorker:
        extra = ["--concurrency", str(self.concurrency)] if self.concurrency else []
        niced = ["nice", "-n", str(self.nice)] if self.nice else []  # nice execs: same pid
        self.process = subprocess.Popen(
            [*niced, PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel", "warning",
             *extra],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        return self

    def pids(self) -> list[int]:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"the Celery worker exited:\n{self.output()}")
        return [self.process.pid, *children(self.process.pid)]

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # warm shutdown: the pool's tasks finish
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class MailSink:
    """An SMTP server on a free loopback port that accepts every message and keeps none (its
    work is done in this process, not counted as the server's): ``EMAIL_URL=sink.url``."""

    def __init__(self):
        import socketserver

        class Session(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                self.wfile.write(b"220 sink\r\n")
                for line in self.rfile:
                    verb = line[:4].upper()
                    if verb == b"DATA":
                        self.wfile.write(b"354 go on\r\n")
                        for body_line in self.rfile:
                            if body_line == b".\r\n":
                                break
                        sink.received += 1
                        self.wfile.write(b"250 kept\r\n")
                    elif verb == b"QUIT":
                        self.wfile.write(b"221 bye\r\n")
                        return
                    elif verb == b"EHLO":
                        self.wfile.write(b"250-sink\r\n250 8BITMIME\r\n")
                    else:
                        self.wfile.write(b"250 ok\r\n")

        sink = self
        self.received = 0
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Session)
        self.server.daemon_threads = True
        self.url = f"smtp://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> MailSink:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- load ----------------------------------------------------------------------------------------

def request(port: int, call: Call, connection: http.client.HTTPConnection | None = None,
            ) -> tuple[int, bytes]:
    """Send ``call`` (on ``connection`` when given, which reconnects after a close)."""
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(call.method, call.path, body=call.body, headers=dict(call.headers))
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        if own:
            connection.close()


def run_load(port: int, calls: Sequence[Call], concurrency: int = 4,
             ok: Callable[[int], bool] = lambda status: 200 <= status < 400) -> Summary:
    """Fire every call of ``calls`` once, ``concurrency`` at a time (each thread keeps one
    connection), and time each from send to last byte; a status ``ok`` refuses is an error."""
    queue = iter(enumerate(calls))
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    received = [0, 0]  # bytes, errors

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while True:
                with lock:
                    item = next(queue, None)
                if item is None:
                    return
                start = time.perf_counter()
                try:
                    status, body = request(port, item[1], connection)
                except (OSError, http.client.HTTPException):
                    connection.close()
                    status, body = 0, b""
                elapsed = (time.perf_counter() - start) * 1000
                with lock:
                    latencies.append(elapsed)
                    statuses[status] += 1
                    received[0] += len(body)
                    received[1] += not ok(status)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    return Summary(len(latencies), received[1], seconds, tuple(latencies), dict(statuses),
                   received[0])


def repeated(call: Call, times: int) -> list[Call]:
    return list(itertools.repeat(call, times))
