"""Account preferences: the e-mail address, the language a player prefers and whether they
want e-mail notices."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile
from events.audit import Actor, record
from events.errors import Invalid


def preferred_language(user: Any) -> str:
    """The account's language code, or "" to follow the browser (one query, none if anonymous)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def preferences(user: Any) -> tuple[str, bool]:
    """(language, e-mail notices wanted) of the account in one query: ("", True) until set."""
    found = Profile.objects.filter(user=user).values_list("language", "notices").first()
    return ("", True) if found is None else (found[0] or "", found[1])


def remember_language(user: Any, language: str) -> Profile:
    """Store the language on the account; "" goes back to following the browser."""
    if language not in {"", *dict(settings.LANGUAGES)}:
        raise Invalid(_("Choose one of the offered languages."), "unknown_language")
    return Profile.objects.update_or_create(user=user, defaults={"language": language})[0]


@transaction.atomic
def update_account(actor: Actor, *, email: str, language: str,
                   notices: bool | None = None) -> Profile:
    """Save the profile form; an address change is audited (without the addresses), and so is
    turning notices off or on (None leaves them as they are)."""
    user = actor.user
    if email != user.email:
        user.email = email
        user.save(update_fields=["email"])
        record(actor, "account.email", None, user.username)
    profile = remember_language(user, language)
    if notices is not None and profile.notices != notices:
        profile.notices = notices
        profile.save(update_fields=["notices"])
        record(actor, "account.notices", None, user.username, {"notices": notices})
    return profile
