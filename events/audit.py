"""Who acts (account, staff or not, address) and the audit log the services write."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from config import plain_rows
from config.client_address import client_address
from events import event_cache
from events.models import AuditEntry, Tournament


@dataclass(frozen=True)
class Actor:
    """The person behind a service call; ``system`` is Muster itself (demo data, imports)."""

    user: Any = None
    ip: str | None = None
    system: bool = False

    @property
    def is_staff(self) -> bool:
        return self.system or bool(getattr(self.user, "is_staff", False))

    @property
    def user_id(self) -> int | None:
        return getattr(self.user, "pk", None)

    @classmethod
    def of(cls, request) -> Actor:
        user = request.user if request.user.is_authenticated else None
        return cls(user=user, ip=client_address(request))


SYSTEM = Actor(system=True)


def entry(actor: Actor, action: str, tournament: Tournament | None, target: object = "",
          data: Mapping[str, Any] | None = None, *, stale: bool = True) -> AuditEntry:
    """The audit entry of a change, not saved yet: ``record`` saves it, or a service saves it
    with its own rows in one statement (``plain_rows.insert(row, entry)``)."""
    # Every change a service makes is recorded here, so this is where the event's cached pages
    # and standings go stale (events.event_cache). ``stale=False``: a change no cached view
    # shows (a sealed draft move), which then spares every cached page of the event.
    if stale:
        event_cache.changed(getattr(tournament, "pk", None))
    return AuditEntry(
        tournament=tournament, actor=actor.user if actor.user_id else None, action=action,
        target=str(target)[:200], data=dict(data or {}), ip=actor.ip,
    )


def record(actor: Actor, action: str, tournament: Tournament | None, target: object = "",
           data: Mapping[str, Any] | None = None, *, stale: bool = True) -> AuditEntry:
    # A plain INSERT (nobody listens to an entry's save): every audited change makes one.
    return plain_rows.insert(entry(actor, action, tournament, target, data, stale=stale))
