"""Refusals of the league services, each with a stable code and a message a player understands."""
from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A use case refused: ``status`` follows api-v1 (400 bad input, 403, 404, 409 state)."""

    status = 400

    def __init__(self, message: Any, code: str, **params: Any):
        super().__init__(str(message))
        self.message = message  # often a lazy translation: rendered in the caller's language
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(self.message)


class Invalid(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409
