"""What a request may hold, how big it may be, and the words of each refusal.

The size cap is checked twice: on the declared Content-Length before the body is read
(config.request_guards), and on the bytes of uploaded files as they stream in (the upload
handler below), so a body is never read past the cap."""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler
from django.utils.translation import gettext as _

from config.input_checks import MAX_JSON_DEPTH

NUL_CODE = "nul_character"
TOO_DEEP_CODE = "json_too_deep"
TOO_LARGE_CODE = "request_too_large"
MIB = 1024 * 1024


def max_request_bytes() -> int:
    return settings.MUSTER_MAX_REQUEST_BYTES


def too_large_message() -> str:
    return _("The request is too large (at most %(size)s MiB).") % {
        "size": f"{max_request_bytes() / MIB:g}"}


def nul_message() -> str:
    return _("The request contains a NUL character, which is not allowed.")


def too_deep_message() -> str:
    return _("The JSON body is nested too deeply (at most %(limit)s levels).") % {
        "limit": MAX_JSON_DEPTH}


def declared_too_large(meta: dict) -> bool:
    """Whether the declared Content-Length is over the cap (a missing or bad one reads as 0,
    as Django reads it: then nothing of the body is read)."""
    try:
        return int(meta.get("CONTENT_LENGTH") or 0) > max_request_bytes()
    except ValueError:
        return False


class RequestTooLarge(RequestDataTooBig):
    """The body is over MUSTER_MAX_REQUEST_BYTES; the API and the pages say how large it may be."""


class CappedUploadHandler(FileUploadHandler):
    """First upload handler: refuses a multipart body over the cap before the other handlers
    store it, and stops reading a file as soon as the files together pass the cap."""

    def __init__(self, request=None):
        super().__init__(request)
        self.received = 0

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length > max_request_bytes():
            raise RequestTooLarge(too_large_message())
        return None  # let Django's parser and the next handlers do the work

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > max_request_bytes():
            raise RequestTooLarge(too_large_message())
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler (memory or temporary file) builds the file
