"""The client's address, as the rate limits and the audit log record it.

Behind a proxy REMOTE_ADDR is the proxy's address for every user. Each proxy appends the
address it received the request from to X-Forwarded-For, so with TRUSTED_PROXIES = n the
client is the n-th entry from the right; entries further left came from the client and may
be forged. With TRUSTED_PROXIES = 0 (no proxy) the header is ignored."""
from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    """The client's IP address, or None when the request carries none."""
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    return forwarded_address(request.META.get("HTTP_X_FORWARDED_FOR", ""), proxies) or remote


def forwarded_address(header: str, proxies: int) -> str | None:
    """The ``proxies``-th address from the right of an X-Forwarded-For value; None when the
    header is too short or that entry is not an IP address."""
    entries = [entry.strip() for entry in header.split(",")]
    if proxies > len(entries):
        return None
    try:
        return str(ipaddress.ip_address(entries[-proxies]))
    except ValueError:
        return None
