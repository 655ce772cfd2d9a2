"""API tokens (``Authorization: Token …``) looked up in one plain query with their account
(prepared on each PostgreSQL connection: config/plain_rows.py).

Every token-signed API call asks this first; DRF's own lookup compiled its two-table query anew
each time, which cost more than the query (a draft commit's burst: benchmarks/teams.py). Same
answers as DRF's ``TokenAuthentication``: its refusals, with DRF's own translations."""
from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from config.plain_rows import Part, select, split
from config.plain_rows import cursor as plain_cursor


@cache
def _parts() -> tuple[Part, Part]:
    user = get_user_model()
    return (Part(Token, "k", ("key", "user_id", "created")),
            Part(user, "u", tuple(f.attname for f in user._meta.concrete_fields)))


@cache
def _sql() -> str:
    token, user = _parts()
    return f"{select(_parts())} FROM {token.table()} JOIN {user.table()} ON u.id = k.user_id WHERE k.key = %s"


class PlainTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        with plain_cursor() as cursor:
            cursor.execute(_sql(), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = split(_parts(), row)
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token
