"""Per-IP rate limits for sign-up and log-in, shared by the API and the site's pages."""
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

# Generous enough for a 200-player venue behind one Wi-Fi address; strict enough for scripts.
# Password reset: per IP, and per address (hashed) so the form cannot flood one mailbox.
DEFAULT_RATES = {"signup": "60/hour", "login": "30/minute",
                 "password_reset": "20/hour", "password_reset_email": "3/hour"}
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    requests: int
    seconds: int


def parse_rates(spec: str) -> dict[str, Rate] | None:
    """`off` gives None (no limits); `signup=5/minute,login=10/minute` overrides the defaults."""
    if spec.strip().lower() == "off":
        return None
    rates = dict(DEFAULT_RATES)
    for part in filter(None, (p.strip() for p in spec.split(","))):
        scope, _, rate = part.partition("=")
        rates[scope.strip()] = rate.strip()
    return {scope: _parse_rate(rate) for scope, rate in rates.items()}


def _parse_rate(rate: str) -> Rate:
    count, _, period = rate.partition("/")
    return Rate(int(count), PERIODS[period.strip()[0].lower()])


def rate_for(scope: str) -> Rate | None:
    rates = parse_rates(settings.MUSTER_RATE_LIMITS)
    return None if rates is None else rates.get(scope)


def client_ip(request) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def hit(scope: str, ident: str) -> bool:
    """Count one request; False when the caller is over the limit for `scope`."""
    rate = rate_for(scope)
    if rate is None:
        return True
    key = f"ratelimit:{scope}:{ident}"
    cache.add(key, 0, timeout=rate.seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=rate.seconds)
        count = 1
    return count <= rate.requests


class ScopedIPThrottle(SimpleRateThrottle):
    """DRF throttle over `hit`, so the API and the pages share one counter per scope."""

    scope = ""

    def __init__(self):  # rates come from MUSTER_RATE_LIMITS, not DRF's settings
        pass

    def allow_request(self, request, view):
        return hit(self.scope, client_ip(request))

    def wait(self):
        rate = rate_for(self.scope)
        return rate.seconds if rate else None


class SignupThrottle(ScopedIPThrottle):
    scope = "signup"


class LoginThrottle(ScopedIPThrottle):
    scope = "login"
