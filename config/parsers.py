"""The API's body parsers: DRF's, plus refusals of NUL characters, of deep JSON nesting and of a
body that is not an object of fields.

A NUL in any string (key or value) would reach PostgreSQL, which refuses it with a 500; a deep
document would exhaust the recursion limit in the parser or in whatever walks it next. Every
body of the API is an object of fields (the schema says so): a JSON array, string or number, or
a multipart body without any part, would otherwise reach views that read ``{}`` from it and take
their defaults. All become a 400 `{"detail", "code"}` here, before any view sees the data."""
from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from config.input_checks import contains_nul, form_has_nul, json_too_deep
from config.request_limits import NUL_CODE, TOO_DEEP_CODE, nul_message, too_deep_message


class NulCharacter(ParseError):
    default_code = NUL_CODE

    def __init__(self):
        super().__init__(nul_message(), NUL_CODE)


class JsonTooDeep(ParseError):
    default_code = TOO_DEEP_CODE

    def __init__(self):
        super().__init__(too_deep_message(), TOO_DEEP_CODE)


class BodyNotObject(ParseError):
    default_code = "body_not_object"

    def __init__(self):
        super().__init__(_("The request body must be an object of fields."), self.default_code)


def not_an_object(request) -> bool:
    """Whether the body of a DRF ``request`` is not an object of fields: parsed JSON that is not
    an object, or a multipart body without any part (middleware may have parsed a form through
    Django's ``request.POST``, which these parsers never see)."""
    if not isinstance(request.data, Mapping):
        return True
    sent = int(request.META.get("CONTENT_LENGTH") or 0) > 0
    multipart = (request.content_type or "").startswith("multipart/form-data")
    return sent and multipart and not request.data and not request.FILES


class SafeJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read()  # bounded: config.request_guards refused a body over the cap
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if json_too_deep(text):
            raise JsonTooDeep
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:  # cannot happen under the cap above; kept as a last guard
            raise JsonTooDeep from None
        # The strict parser refuses a raw NUL in a string: only the escape can bring one.
        if "\\u0000" in text and contains_nul(data):
            raise NulCharacter
        if not isinstance(data, dict):
            raise BodyNotObject
        return data


class SafeFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        if form_has_nul(data.lists()):
            raise NulCharacter
        return data


class SafeMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        result = super().parse(stream, media_type, parser_context)
        if form_has_nul(result.data.lists()):
            raise NulCharacter
        if not result.data and not result.files:  # a body was sent (DRF skips empty ones): no part
            raise BodyNotObject
        return result
