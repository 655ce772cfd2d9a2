"""The per-account limit on failed log-ins (scope `login_account`), whatever the address.

The per-address limit (`login`) stops one client; this one stops many addresses guessing one
account's password. Every log-in (API token, site, admin) calls `authenticate()`, so the
backend below refuses a locked account everywhere and the `user_login_failed` signal counts
every failure. A success resets nothing: otherwise the owner's log-in would give a guesser a
fresh allowance. The account opens again when the window of its first failure ends."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from config.ratelimit import count, exhausted, hashed

SCOPE = "login_account"


def account_locked(username: Any) -> bool:
    """True when ``username`` (any case) has had too many failed log-ins lately."""
    return isinstance(username, str) and bool(username) and exhausted(SCOPE, hashed(username))


def locked_message() -> str:
    return _("Too many failed log-ins for this account. Wait a few minutes and try again.")


def count_failure(sender: Any, credentials: dict[str, Any], **kwargs: Any) -> None:
    """Receiver of `user_login_failed` (connected in events.apps)."""
    username = credentials.get("username")
    if isinstance(username, str) and username:
        count(SCOPE, hashed(username))


class LoginLimitedBackend(ModelBackend):
    """Django's backend, except that a locked account is refused before its password is
    checked, even the right one (PermissionDenied stops `authenticate()` at once)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if account_locked(username):
            raise PermissionDenied(locked_message())
        return super().authenticate(request, username=username, password=password, **kwargs)
