"""Input errors of the pure engines: a stable code and the values a message needs."""
from typing import Any


class CodedError(ValueError):
    """Input no game could produce; ``code`` and ``params`` feed the API's error body."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params
