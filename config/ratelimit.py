"""Rate limits for sign-up, log-in and password reset, shared by the API and the site's pages:
per client address (config.client_address), per account or per e-mail address (hashed).

The counters live in the shared cache; while it fails (config.cache_outage) they are kept in
this process instead: each web process then allows the full rate, never more, never none."""
import hashlib
import re
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

from config.cache_outage import CACHE_ERRORS, failed
from config.client_address import client_address

# Generous enough for a 200-player venue behind one Wi-Fi address; strict enough for scripts.
# Password reset: per IP, and per address (hashed) so the form cannot flood one mailbox.
# login_account counts failed log-ins per username, from any address (accounts.login_limits).
DEFAULT_RATES = {"signup": "60/hour", "login": "30/minute", "login_account": "10/15minutes",
                 "password_reset": "20/hour", "password_reset_email": "3/hour"}
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
PERIOD = re.compile(r"(\d*)\s*([smhd])(?:ec|in|our|ay)?(?:ond|ute)?s?", re.IGNORECASE)
# The counters of this process while the shared cache fails (room for a venue's addresses).
IN_PROCESS = LocMemCache("muster-ratelimit-in-process", {"OPTIONS": {"MAX_ENTRIES": 20_000}})


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
    """`30/minute`, `3/hour`, `10/15m` or `10/15minutes` (a number of periods)."""
    count, _, period = rate.partition("/")
    match = PERIOD.fullmatch(period.strip())
    if match is None:
        raise ValueError(f"bad rate period in {rate!r}")
    return Rate(int(count), int(match[1] or 1) * PERIODS[match[2].lower()])


def rate_for(scope: str) -> Rate | None:
    rates = parse_rates(settings.MUSTER_RATE_LIMITS)
    return None if rates is None else rates.get(scope)


def client_ip(request) -> str:
    return client_address(request) or "unknown"


def hashed(text: str) -> str:
    """The rate-limit key of a name or an e-mail address, whatever its case: the cache never
    holds them, and any length or character makes a valid key."""
    return hashlib.sha256(text.strip().casefold().encode()).hexdigest()


def hit(scope: str, ident: str) -> bool:
    """Count one request; False when the caller is over the limit for `scope`."""
    rate = rate_for(scope)
    return rate is None or _count(scope, ident, rate) <= rate.requests


def count(scope: str, ident: str) -> None:
    """Count one event (e.g. a failed log-in) against `scope` without asking for anything."""
    rate = rate_for(scope)
    if rate is not None:
        _count(scope, ident, rate)


def exhausted(scope: str, ident: str) -> bool:
    """True when `ident` has used up its events for `scope` in the current window."""
    rate = rate_for(scope)
    if rate is None:
        return False
    try:
        used = cache.get(_key(scope, ident))
    except CACHE_ERRORS as error:
        failed("the rate limits", error)
        used = IN_PROCESS.get(_key(scope, ident))
    return (used or 0) >= rate.requests


def _key(scope: str, ident: str) -> str:
    return f"ratelimit:{scope}:{ident}"


def _count(scope: str, ident: str, rate: Rate) -> int:
    try:
        return _count_in(cache, _key(scope, ident), rate)
    except CACHE_ERRORS as error:
        failed("the rate limits", error)
        return _count_in(IN_PROCESS, _key(scope, ident), rate)


def _count_in(counters: BaseCache, key: str, rate: Rate) -> int:
    # The window starts at the first event and the counter expires with it (incr keeps the TTL).
    counters.add(key, 0, timeout=rate.seconds)
    try:
        return counters.incr(key)
    except ValueError:  # expired between add and incr
        counters.set(key, 1, timeout=rate.seconds)
        return 1


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
