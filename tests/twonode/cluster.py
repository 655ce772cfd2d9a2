"""Two Muster nodes on one machine, as shared/deploy-v1.md runs them on several: nginx in front
of two gunicorn processes, two Celery workers, each process on an empty MEDIA_ROOT of its own,
one PostgreSQL database, one Redis (cache and broker), and an S3 server (moto in server mode
stands in for MinIO or AWS: the code speaks plain S3 through django-storages).

Used by tests/twonode/test_two_nodes.py and benchmarks/two_nodes.py. Nothing here imports
Django: the processes are configured through their environment only, as in production.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import boto3
import psycopg
import redis
from moto.server import ThreadedMotoServer

from tests import nginx_proxy

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
BUCKET = "muster-two-nodes"
NODES = ("node-a", "node-b")
SECRET = "two-nodes-" + "x" * 50


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_database(url: str) -> None:
    """Drop and create the PostgreSQL database ``url`` names."""
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


@dataclass
class Process:
    """A child process, its log file, and how to stop it (its whole process group)."""

    name: str
    popen: subprocess.Popen
    log: Path

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
        try:
            self.popen.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


@dataclass
class Cluster:
    """Start with ``start()``, stop with ``stop()`` (or use it as a context manager)."""

    database_url: str
    cache_url: str
    broker_url: str
    nodes: tuple[str, ...] = NODES
    workers: int = 2
    extra_env: Mapping[str, str] = field(default_factory=dict)
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="muster-2n-")))
    queue: str = field(default_factory=lambda: f"muster-2n-{uuid.uuid4().hex[:8]}")
    ports: dict[str, int] = field(default_factory=dict)
    web: dict[str, Process] = field(default_factory=dict)
    worker_processes: list[Process] = field(default_factory=list)
    proxies: list[Process] = field(default_factory=list)
    proxy_port: int = 0
    s3_endpoint: str = ""

    # --- the shared parts ----------------------------------------------------------------------

    def start(self) -> Cluster:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's request log
        self._s3 = ThreadedMotoServer(ip_address="127.0.0.1", port=free_port(), verbose=False)
        self._s3.start()
        self.s3_endpoint = f"http://127.0.0.1:{self._s3._port}"
        self.s3().create_bucket(Bucket=BUCKET)
        for url in (self.cache_url, self.broker_url):
            redis.Redis.from_url(url).flushdb()
        fresh_database(self.database_url)
        self.manage("migrate", "--noinput")  # the release step, once, before any node starts
        for node in self.nodes:
            self.start_web(node)
        for index in range(self.workers):
            self.start_worker(f"worker-{index + 1}")
        self.start_proxy()
        for port in self.ports.values():
            self.wait_ready(port)
        return self

    def wait_ready(self, port: int, timeout: float = 60) -> None:
        """Wait for a node's deep check to pass, as a load balancer's readiness probe does (on a
        busy machine a check may miss its 2 s while the node warms up)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if get(port, "/healthz/?deep=1")[0] == 200:
                return
            time.sleep(0.5)
        raise RuntimeError(f"node on port {port} not ready: {get(port, '/healthz/?deep=1')}")

    def stop(self) -> None:
        for process in [*self.web.values(), *self.worker_processes, *self.proxies]:
            process.kill(signal.SIGTERM)
        if getattr(self, "_s3", None) is not None:
            self._s3.stop()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def s3(self):
        return boto3.client("s3", endpoint_url=self.s3_endpoint, region_name="us-east-1",
                            aws_access_key_id="k", aws_secret_access_key="s")

    def stored_objects(self, prefix: str = "packs/") -> list[str]:
        answer = self.s3().list_objects_v2(Bucket=BUCKET, Prefix=prefix)
        return sorted(item["Key"] for item in answer.get("Contents", []))

    def env(self, node: str, **more: str) -> dict[str, str]:
        """What every process of ``node`` reads: shared services, its own disk."""
        media = self.root / node / "media"
        data = self.root / node / "data"
        media.mkdir(parents=True, exist_ok=True)
        data.mkdir(parents=True, exist_ok=True)
        return {
            **os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.database_url, "CACHE_URL": self.cache_url,
            "CELERY_BROKER_URL": self.broker_url, "MUSTER_TASK_QUEUE": self.queue,
            "SECRET_KEY": SECRET, "MUSTER_NODE_NAME": node, "MEDIA_ROOT": str(media),
            "MUSTER_DATA_DIR": str(data), "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "TRUSTED_PROXIES": "1", "DEBUG": "0",
            "MEDIA_STORAGE": "s3", "S3_ENDPOINT_URL": self.s3_endpoint, "S3_BUCKET": BUCKET,
            "S3_ACCESS_KEY": "k", "S3_SECRET_KEY": "s", **self.extra_env, **more}

    def manage(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, capture_output=True,
                              text=True, env=dict(env or self.env("release")), timeout=300)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def python(self, module: str, *args: str) -> str:
        done = subprocess.run([PYTHON, "-m", module, *args], cwd=ROOT, capture_output=True,
                              text=True, env=self.env("release"), timeout=300)
        if done.returncode:
            raise RuntimeError(f"{module}:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    # --- the processes ---------------------------------------------------------------------------

    def _spawn(self, name: str, command: list[str], env: Mapping[str, str]) -> Process:
        log = self.root / f"{name}.log"
        with log.open("ab") as out:
            popen = subprocess.Popen(command, cwd=ROOT, env=dict(env), stdout=out,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        return Process(name, popen, log)

    def start_web(self, node: str, **more: str) -> Process:
        port = self.ports.setdefault(node, free_port())
        process = self._spawn(node, [
            PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
            "--workers", "2", "--log-level", "warning", "--graceful-timeout", "5"],
            self.env(node, **more))
        self.web[node] = process
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if not process.alive():
                raise RuntimeError(f"{node} exited:\n{process.tail()}")
            try:
                if get(port, "/healthz/")[0] == 200:
                    return process
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{node} did not answer:\n{process.tail()}")

    def start_worker(self, name: str, **more: str) -> Process:
        # A worker is a node of its own (its own MEDIA_ROOT); solo pool: one task at a time.
        process = self._spawn(name, [
            PYTHON, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--without-heartbeat", "--without-gossip", "--without-mingle",
            "--loglevel=WARNING", "-Q", self.queue, "-n", f"{name}@%h"],
            self.env(name, MUSTER_PACK_CHUNK_TABLES="1", **more))
        self.worker_processes.append(process)
        return process

    def restart_web(self, **more: str) -> None:
        """Stop every web node and start them again with ``more`` in their environment."""
        for node in list(self.web):
            self.web.pop(node).kill(signal.SIGTERM)
        for node in self.nodes:
            self.start_web(node, **more)

    def release_ahead(self, app: str = "venue") -> dict[str, str]:
        """The environment of a release with one migration the database has not applied: a copy
        of ``app``'s migrations plus a new leaf, under MIGRATION_MODULES (the trick of
        tests/site/test_health.py, through a settings module since the nodes are processes)."""
        package = self.root / "ahead" / "two_nodes_ahead_migrations"
        shutil.copytree(ROOT / app / "migrations", package,
                        ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        leaf = max(path.stem for path in package.glob("[0-9]*.py"))
        (package / "9999_release_ahead.py").write_text(
            "from django.db import migrations\n\n\n"
            "class Migration(migrations.Migration):\n"
            f"    dependencies = [({app!r}, {leaf!r})]\n")
        return {"DJANGO_SETTINGS_MODULE": "tests.twonode.ahead_settings",
                "PYTHONPATH": os.pathsep.join([str(package.parent), str(ROOT)]),
                "MUSTER_AHEAD_APP": app, "MUSTER_AHEAD_PACKAGE": package.name}

    def start_proxy(self, nodes: tuple[str, ...] | None = None) -> int:
        """nginx, round-robin over ``nodes`` (all by default); its port. The first one started
        is the cluster's ``proxy_port``."""
        port = free_port()
        if not self.proxy_port:
            self.proxy_port = port
        folder = self.root / f"nginx-{port}"
        folder.mkdir(exist_ok=True)
        nginx_proxy.write_conf(folder, port, [self.ports[node] for node in (nodes or self.nodes)], retry=True)
        proxy = self._spawn(f"nginx-{port}", nginx_proxy.command(folder),
                            os.environ)
        self.proxies.append(proxy)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                get(port, "/healthz/")
                return port
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not start:\n{proxy.tail()}\n"
                           f"{(folder / 'error.log').read_text(errors='replace')}")


def call(port: int, method: str, path: str, body: object = None,
         headers: Mapping[str, str] | None = None,
         connection: http.client.HTTPConnection | None = None,
         ) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request on 127.0.0.1:``port``: status, headers (lower-case names), body."""
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return (response.status, {k.lower(): v for k, v in response.getheaders()},
                response.read())
    finally:
        if own:
            connection.close()


def get(port: int, path: str, headers: Mapping[str, str] | None = None):
    status, answer_headers, body = call(port, "GET", path, headers=headers)
    return status, answer_headers, body
