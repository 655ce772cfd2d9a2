"""Error pages: JSON under /api/, friendly bilingual pages elsewhere."""
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import loader
from django.utils.translation import get_language
from django.utils.translation import gettext as _


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
