"""Refuse hostile requests before a view, a form or the database sees them.

- A declared body over MUSTER_MAX_REQUEST_BYTES is refused before a byte of it is read.
- A NUL character in the path, the query string, a cookie, a header or a form field is refused
  (PostgreSQL cannot store or even compare it: it would be a 500).

Under /api/ the answer is a JSON 400 `{"detail", "code"}`; a page gets its usual 400 error
page, except an oversized form post, which goes back to the page with the message on it."""
from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from config.errors import bare_error_page
from config.input_checks import any_nul, form_has_nul
from config.request_limits import (
    NUL_CODE,
    TOO_LARGE_CODE,
    declared_too_large,
    nul_message,
    too_large_message,
)

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RequestGuardMiddleware:
    """After MessageMiddleware (an oversized page post leaves a message) and before the CSRF
    check, which is the first to read a form body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if declared_too_large(request.META):
            return too_large(request)
        if nul_outside_body(request):
            return refuse(request, NUL_CODE, nul_message())
        if request.method == "POST" and request.content_type in FORM_TYPES:
            refusal = check_form(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def nul_outside_body(request: HttpRequest) -> bool:
    query = request.GET
    headers = (value for key, value in request.META.items()
               if key.startswith("HTTP_") and isinstance(value, str))
    return (any_nul((request.path, request.META.get("QUERY_STRING", ""), *headers,
                     *request.COOKIES.keys(), *request.COOKIES.values()))
            or form_has_nul(query.lists()))


def check_form(request: HttpRequest) -> HttpResponse | None:
    """Read the form body now (the CSRF check would read it next) and refuse a NUL in it.

    Django's own parse errors become a 400 here too: they would otherwise surface in the CSRF
    check or the view as a 500."""
    try:
        fields = request.POST
    except RequestDataTooBig:
        return too_large(request)
    except (MultiPartParserError, SuspiciousOperation):
        return refuse(request, "parse_error", _("The request could not be read."))
    if form_has_nul(fields.lists()):
        return refuse(request, NUL_CODE, nul_message())
    return None


def refuse(request: HttpRequest, code: str, detail: str) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"detail": detail, "code": code}, status=400)
    return bare_error_page(request, 400, detail)


def too_large(request: HttpRequest) -> HttpResponse:
    """The API: a 400. A page's form post: back to the page (GET) with the message on it."""
    if is_api(request) or request.method != "POST" or not hasattr(request, "_messages"):
        return refuse(request, TOO_LARGE_CODE, too_large_message())
    messages.error(request, too_large_message())
    return HttpResponseRedirect(back_url(request), status=303)


def back_url(request: HttpRequest) -> str:
    """The page the form was on (its Referer, when it is ours), else the URL posted to."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()},
                                                   request.is_secure()):
        return referer
    return request.get_full_path()
