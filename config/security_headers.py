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

from csp.constants import HEADER
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from csp.utils import build_policy
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


def _plain(request: HttpRequest, response: HttpResponseBase) -> bool:
    """No nonce asked for, no view's own policy, not the admin site: the settings' policy as is."""
    return (getattr(request, "_csp_nonce", None) is None and not _is_admin(request)
            and not any(hasattr(response, name) for name in ("_csp_config", "_csp_update", "_csp_replace")))


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the admin site's additions to the policy.

    An answer with the settings' policy as is (every API answer, most redirects) gets it built once
    per process, not twice per answer (the enforced and the unset report-only one)."""

    _built: tuple[object, str] | None = None

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if (settings.DEBUG or getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
                or not _plain(request, response)):
            return super().process_response(request, response)
        policy = self._plain_policy()
        excluded = (settings.CONTENT_SECURITY_POLICY or {}).get("EXCLUDE_URL_PREFIXES") or ()
        if (policy and HEADER not in response and not getattr(response, "_csp_exempt", False)
                and not request.path_info.startswith(tuple(excluded))):
            response[HEADER] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response

    def _plain_policy(self) -> str:
        """Built again only when the settings' policy is another object (a test's override)."""
        config = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        if self._built is None or self._built[0] is not config:
            self._built = (config, build_policy())
        return self._built[1]

    def get_policy_parts(self, request: HttpRequest, response: HttpResponseBase,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        extra = getattr(settings, "MUSTER_ADMIN_CONTENT_SECURITY_POLICY", None)
        if extra and not report_only and _is_admin(request):
            parts.update = with_sources(parts.update, extra)
        return parts
