"""The team engine's refusals: a stable code, its parameters and the status api-v1 gives it."""
from __future__ import annotations

from typing import Any

from config.refusals import CodedRefusal


class TeamRefused(CodedRefusal, ValueError):
    """Refused input (400 unless ``status`` says otherwise: 409 for a state, 403 for a person)."""

    def __init__(self, code: str, /, status: int = 400, **params: Any) -> None:
        super().__init__(code, **params)
        self.status = status


class DraftRefused(TeamRefused):
    """A draft move the contract refuses (``draft_*`` codes)."""
