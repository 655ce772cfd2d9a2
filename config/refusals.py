"""The one refusal type: a stable code, the values its sentence needs, and an HTTP status.

Every context refuses with a `Refusal` (or a subclass that only fixes its status or the way it is
built): services raise `Invalid`, `Forbidden`, `NotFound` or `Conflict` with a message a player
understands; pure engines raise their own subclasses with a code and parameters, and the context
that called them words the sentence. The API maps any `Refusal` in one place
(config/api_errors.py); pages show its message. Plain Python: pure engines may import it."""
from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A request refused: ``code`` is stable (clients test it), ``params`` fill its sentence,
    ``status`` follows api-v1 (400 bad input, 403, 404, 409 state), ``message`` is the sentence
    (often a lazy translation, rendered in the reader's language; None: the caller words it)."""

    status = 400

    def __init__(self, message: Any, code: str, **params: Any) -> None:
        super().__init__(str(message) if message is not None else code)
        self.message = message
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(self.message) if self.message is not None else self.code


class CodedRefusal(Refusal):
    """A pure engine's refusal: a code and its parameters; the caller words the sentence."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(None, code, **params)

    def __str__(self) -> str:
        return f"{self.code}: {self.params}"


class ServiceRefusal(Refusal):
    """A use case refused with a sentence for the reader (the services' family)."""


class Invalid(ServiceRefusal):
    status = 400


class Forbidden(ServiceRefusal):
    status = 403


class NotFound(ServiceRefusal):
    status = 404


class Conflict(ServiceRefusal):
    status = 409
