"""The events context refuses with the project's one refusal type (config/refusals.py)."""
from config.refusals import Conflict, Forbidden, Invalid, NotFound
from config.refusals import ServiceRefusal as ServiceError

__all__ = ["Conflict", "Forbidden", "Invalid", "NotFound", "ServiceError"]
