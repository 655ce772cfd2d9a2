"""The accounts an event document names, both ways: listed once on the way out, found or
created on the way in (``events.services.backup``, ``restore``).

Rows name accounts by username: the players', who reported and confirmed a result, who owns a
list, checked a player in, rolled a die, entered an award, opened the check-in window, wrote an
audit entry (or is named in one), created the event, the campaign or a campaign order. The
export lists each of them once (``accounts``) with its username only: not its password, nor its
e-mail (the document never carried one: a file handed from club to club must not spread
addresses, nor let another database mail a stale one), nor its rights (a file must not make
anyone staff).

The import maps each named account onto the account of this database with the same username,
whatever its case (usernames are unique whatever their case: migration league 0007), or creates
it inactive, with an unusable password and that username, so the restored event still says who
reported, who confirmed and who did what. Such an account cannot log in until staff activate
it and its holder sets a password."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from campaigns.services.restore import usernames as campaign_usernames
from events.errors import Conflict

AUDIT_NESTED = ("before", "after")  # audit details that name an account (``user``) there too


def named(document: Mapping[str, Any]) -> set[str]:
    """Every username the rows of ``document`` name (its ``accounts`` list aside)."""
    t = document["tournament"]
    names: set[Any] = {t.get("created_by"), (t.get("check_in_window") or {}).get("opened_by")}
    names.update(roll.get("actor") for roll in t["dice"]["rolls"])
    names.update(e.get("entered_by") for c in document.get("awards", ()) for e in c["entries"])
    for p in document["players"]:
        names.update((p.get("username"), p.get("checked_in_by")))
        names.update(v.get("owner") for lst in p["lists"] for v in lst["versions"])
    for r in document["rounds"]:
        for g in r["games"]:
            names.update(rep.get(k) for rep in g["reports"] for k in ("reporter", "confirmed_by"))
            names.update(roll.get("actor") for roll in (g.get("dice") or {}).get("rolls", ()))
    for e in document["audit"]:
        names.add(e.get("actor"))
        data = e.get("data") or {}
        for part in (data, *(data.get(k) for k in AUDIT_NESTED if isinstance(data, Mapping))):
            if isinstance(part, Mapping) and isinstance(part.get("user"), str):
                names.add(part["user"])
    names.update(campaign_usernames(document.get("campaign")))
    names.update((document.get("format_rows") or {}).get("accounts", ()))  # the event format's
    return {name for name in names if name}


def accounts_part(document: Mapping[str, Any]) -> list[dict[str, str]]:
    """The ``accounts`` list of a document: each account its rows name, once, by username."""
    return [{"username": name} for name in sorted(named(document), key=lambda n: (n.lower(), n))]


def key(name: str) -> str:
    """What two spellings of one username share (the unique index is on ``lower(username)``)."""
    return name.lower()


@dataclass
class Accounts:
    """The accounts of this database a document's usernames stand for."""

    by_key: dict[str, Any]
    created: list[str] = field(default_factory=list)  # usernames of the accounts made here

    def get(self, name: str | None) -> Any:
        """The account ``name`` stands for; None for no name."""
        return self.by_key[key(name)] if name else None

    def pk(self, name: Any) -> int | None:
        """The id of the account ``name`` stands for; None for anything else (an audit entry
        may name an account that was gone when it was exported)."""
        user = self.by_key.get(key(name)) if isinstance(name, str) else None
        return None if user is None else user.pk


def provide(document: Mapping[str, Any]) -> Accounts:
    """Every account ``document`` names: found here by username whatever its case, or created
    inactive without a usable password. Inside the import's transaction: a refused document
    leaves no account behind."""
    listed = [account["username"] for account in document.get("accounts", ())]
    names = sorted(named(document) | {name for name in listed if name})
    _check(names)
    user_model = get_user_model()
    column = user_model.USERNAME_FIELD
    keys = {key(name) for name in names}
    found = user_model.objects.annotate(username_key=Lower(column)).filter(
        Q(username_key__in=sorted(keys)) | Q(**{f"{column}__in": names}))
    accounts = Accounts({key(u.get_username()): u for u in found})
    missing: dict[str, str] = {}
    for name in names:  # two spellings of one name: one account, the first spelling's
        if key(name) not in accounts.by_key:
            missing.setdefault(key(name), name)
    if missing:
        accounts.by_key.update(_create(missing))
        accounts.created = sorted(missing.values(), key=lambda n: (n.lower(), n))
    return accounts


def _check(names: Iterable[Any]) -> None:
    """``TypeError`` or ``ValidationError`` (the import refuses the document) for a name that
    is not a username this Muster accepts."""
    field_ = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"an account is named by {name!r}, not by a username")
        field_.run_validators(name)


def _create(missing: Mapping[str, str]) -> dict[str, Any]:
    """Inactive accounts with unusable passwords, by key; ``Conflict`` if one of the names was
    taken meanwhile (a sign-up during the import)."""
    user_model = get_user_model()
    made = []
    for name in missing.values():
        user = user_model(**{user_model.USERNAME_FIELD: name}, is_active=False)
        user.set_unusable_password()
        made.append(user)
    try:
        with transaction.atomic():
            user_model.objects.bulk_create(made, batch_size=500)
    except IntegrityError:
        raise Conflict(_("An account named in the export was created here during the import: "
                         "import the file again."), "backup_account_taken") from None
    return {key(u.get_username()): u for u in made}
