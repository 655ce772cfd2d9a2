"""Which node answered, and what a node answers by itself (shared/deploy-v1.md).

``NodeMiddleware`` comes first in MIDDLEWARE: every response, error pages included, carries
``X-Muster-Node``; and the operators' two addresses are answered here, before the host check,
the HTTPS redirect, the session, the language and the rate limits, none of which they need: a
load balancer or an orchestrator probes a pod by its address over plain HTTP
(``/healthz/``), and Prometheus scrapes each node the same way (``/metrics``, with its token).
A request for /metrics without the right token goes on down the chain and meets the site's own
404, like any address that does not exist."""
from __future__ import annotations

import os
import socket
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from config import health, metrics

HEADER = "X-Muster-Node"
HEALTH_PATH = "/healthz/"
METRICS_PATH = "/metrics"


def node_name() -> str:
    """MUSTER_NODE_NAME, else ``hostname:pid`` (read each time: gunicorn forks its workers
    after loading the code, and each is a node of its own)."""
    configured = getattr(settings, "MUSTER_NODE_NAME", "")
    return configured or f"{socket.gethostname()}:{os.getpid()}"


class NodeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.answer_here(request) or self.get_response(request)
        response[HEADER] = node_name()
        return response

    @staticmethod
    def answer_here(request: HttpRequest) -> HttpResponse | None:
        if request.method not in ("GET", "HEAD"):
            return None
        if request.path_info == HEALTH_PATH:
            return health.respond(request, node_name())
        if request.path_info == METRICS_PATH:
            return metrics.respond(request)
        return None
