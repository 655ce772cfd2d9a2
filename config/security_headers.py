"""The browser-side security headers Django does not send by itself.

- Content-Security-Policy (django-csp, ``CONTENT_SECURITY_POLICY`` in config/settings.py): scripts
  and styles come from Muster's own origin, or carry the response's nonce
  (``nonce="{{ request.csp_nonce }}"``); no inline event handler, no ``eval``. django-csp puts the
  nonce in the header only when a template asked for it, so a page with nothing inline has none.
  The admin site alone may also carry ``style="..."`` attributes
  (``MUSTER_ADMIN_CONTENT_SECURITY_POLICY``): some of its list columns are built in Python with
  them. The players' pages may not.
- Permissions-Policy (``PERMISSIONS_POLICY``): the browser features Muster never uses (camera,
  microphone, location, payment, USB, ...) are switched off for every page and anything it embeds.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

PERMISSIONS_POLICY_HEADER = "Permissions-Policy"


def permissions_policy(features: Mapping[str, Iterable[str]]) -> str:
    """``{"camera": [], "fullscreen": ["self"]}`` -> ``camera=(), fullscreen=(self)``."""
    return ", ".join(f"{name}=({' '.join(origins)})" for name, origins in features.items())


class PermissionsPolicyMiddleware:
    """Sends ``settings.PERMISSIONS_POLICY`` on every response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response
        self.header = permissions_policy(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.header and PERMISSIONS_POLICY_HEADER not in response:
            response[PERMISSIONS_POLICY_HEADER] = self.header
        return response


def _is_admin(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and "admin" in match.app_names


def with_sources(update: Mapping[str, object] | None, extra: Mapping[str, Iterable[str]]) -> dict:
    """A view's own ``csp_update`` with ``extra``'s sources added to it."""
    merged: dict[str, object] = dict(update or {})
    for directive, sources in extra.items():
        current = merged.get(directive) or ()
        current = [current] if isinstance(current, str) else list(current)
        merged[directive] = [*current, *sources]
    return merged


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the admin site's additions to the policy."""

    def get_policy_parts(self, request: HttpRequest, response: HttpResponseBase,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        extra = getattr(settings, "MUSTER_ADMIN_CONTENT_SECURITY_POLICY", None)
        if extra and not report_only and _is_admin(request):
            parts.update = with_sources(parts.update, extra)
        return parts
