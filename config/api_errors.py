"""Every API error as JSON `{"detail", "code"}` (or DRF's field map), never an HTML page or a 500."""
import logging

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.parsers import BodyNotObject, not_an_object
from config.refusals import Refusal
from config.request_limits import TOO_LARGE_CODE, too_large_message

logger = logging.getLogger(__name__)


class Conflict(exceptions.APIException):
    """409: the object's state forbids the action."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


def exception_handler(exc, context):
    if isinstance(exc, Refusal):  # every context's refusals, mapped here only
        return Response({"detail": str(exc), "code": exc.code}, status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        exc = exceptions.ValidationError({"detail": too_large_message(), "code": TOO_LARGE_CODE})
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(_("The request could not be read."))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "detail" in data and "code" not in data:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else getattr(exc, "default_code", "error")
        response.data = {"detail": str(data["detail"]), "code": code}
    elif isinstance(data, dict) and "detail" in data:
        response.data = {"detail": str(data["detail"]), "code": str(data["code"])}
    return response


def api_error(detail: str, code: str, status_code: int = 400) -> Response:
    return Response({"detail": detail, "code": code}, status=status_code)


def validated(serializer_class, request) -> dict:
    """The request body checked by `serializer_class`; a malformed body raises a 400."""
    if not_an_object(request):  # every body of the API is an object (config/parsers.py)
        raise BodyNotObject
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
