"""Error pages: JSON under /api/, friendly bilingual pages elsewhere.

A database that refuses a connection (down, restarting, or out of connections: "too many
clients already") answers 503 with Retry-After rather than 500, whether a view met it
(``RefusedConnectionMiddleware``) or another middleware (``server_error``). Errors a query
meets on an open connection stay 500s. How long processes keep their connections: CONN_MAX_AGE
in config/settings.py."""
import logging
import sys
import traceback
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import loader
from django.utils.translation import get_language
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)
# Long enough for a restart or a burst to pass, short enough for a player to wait.
RETRY_AFTER_SECONDS = 5


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _respond(request, status: int, code: str, detail: str):
    if _is_api(request):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return render(request, "error.html", {"status": status, "detail": detail}, status=status)


def not_found(request, exception=None):
    return _respond(request, 404, "not_found", _("This page does not exist."))


def forbidden(request, exception=None):
    return _respond(request, 403, "permission_denied", _("You may not see this page."))


def bad_request(request, exception=None):
    return _respond(request, 400, "bad_request", _("The request could not be understood."))


def server_error(request):
    if refused_connection(sys.exc_info()[1]):  # Django calls this inside its except block
        return unavailable(request)
    detail = _("Something went wrong on our side.")
    if _is_api(request):
        return JsonResponse({"detail": detail, "code": "server_error"}, status=500)
    # No context processors: the session, the user and the messages would query the database,
    # which may be what failed. The page shows the signed-out header instead.
    context = {"status": 500, "detail": detail, "request": request,
               "csrf_token": get_token(request), "LANGUAGE_CODE": get_language()}
    return HttpResponseServerError(loader.render_to_string("error.html", context))


def bare_error_page(request, status: int, detail: str) -> HttpResponse:
    """An error page that reads nothing of the request but its CSRF cookie (for input refused
    before the view: the path, a cookie or the session key may be what is wrong), and so
    shows the signed-out header."""
    context = {"status": status, "detail": detail, "csrf_token": get_token(request),
               "LANGUAGE_CODE": get_language()}
    return HttpResponse(loader.render_to_string("error.html", context), status=status)


def refused_connection(error: BaseException | None) -> bool:
    """True for a database error raised while opening a connection, not by a query: Django's
    backends open theirs in ``get_new_connection``, which the error's traceback then passes."""
    if not isinstance(error, OperationalError):
        return False
    return any(frame.f_code.co_name == "get_new_connection"
               and frame.f_globals.get("__name__", "").startswith("django.db.backends")
               for frame, _line in traceback.walk_tb(error.__traceback__))


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After; the page reads nothing from the database (signed-out header)."""
    detail = _("The site is busy or briefly unavailable. Try again in a few seconds.")
    if _is_api(request):
        response = JsonResponse({"detail": detail, "code": "service_unavailable"}, status=503)
    else:
        response = bare_error_page(request, 503, detail)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class RefusedConnectionMiddleware:
    """A refused connection met by a view (page or API) answers ``unavailable``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not refused_connection(exception):
            return None
        logger.error("The database refused a connection: %s", exception)
        return unavailable(request)
