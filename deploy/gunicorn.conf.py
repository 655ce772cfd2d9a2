"""Gunicorn's settings for a Muster web node (Dockerfile, deploy/compose, deploy/k8s, systemd).

``gunicorn -c deploy/gunicorn.conf.py config.wsgi``. The environment tunes it: GUNICORN_BIND,
GUNICORN_WORKERS. With several workers, Prometheus counts are shared through files in
PROMETHEUS_MULTIPROC_DIR (config/metrics.py): the folder is emptied when gunicorn starts (a
restart must not add the old counts again), and a dead worker's files are marked dead."""
import os
import shutil

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
# A pack download streams from the store; anything slower than this is stuck.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
accesslog = "-"
# The X-Forwarded-* headers of the proxy in front (nginx) are trusted from any address: the web
# nodes are reached through the proxy only (TRUSTED_PROXIES tells Django the same).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")


def on_starting(server) -> None:
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def child_exit(server, worker) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess  # only in multiprocess mode

        multiprocess.mark_process_dead(worker.pid)
