"""Read an event document written by ``events.services.backup`` into this database, all or nothing:
the file checked, the import run in one transaction (its rows: ``restore_rows``) and logged.

Reference data is found by slug. Accounts are found by username whatever its case, or created
inactive without a usable password (``backup_accounts``): the restored rows name who did what,
and the result lists the accounts created. Every foreign key is rebuilt from the document's own
references, and ids inside JSON fields are rewritten to the new rows' ids (``events.event_refs``).

A campaign's document (its ``campaign`` part) brings the campaign along, in the same transaction
(``campaigns.services.restore``): then ``slug`` is the campaign's, which must be free too,
and its event's becomes ``campaign-<slug>``. An event of a game system played as campaigns is
refused without its campaign, and a campaign with an event of another system."""
from __future__ import annotations

import binascii
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils.translation import gettext_lazy as _

from events import event_refs
from events.audit import Actor, record
from events.errors import Invalid
from events.services.backup import FORMAT, READABLE_VERSIONS, VERSION
from events.services.restore_rows import EventRestore, Restored
from events.services.tournaments import require_staff

MAX_BYTES = 256 * 1024 * 1024  # far above a real event; stops a stray file early
ACTION = "event_imported"


def read_document(data: bytes, max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """The document in an uploaded file, or ``Invalid`` saying why it cannot be used."""
    if len(data) > max_bytes:
        raise Invalid(_("The file is larger than %(size)s MiB.") % {"size": max_bytes // (1024 * 1024)},
                      "backup_too_large")
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Invalid(_("This file is not a Muster event export (it is not JSON)."),
                      "backup_unreadable") from None
    check_format(document)
    return document


def check_format(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise Invalid(_("This file is not a Muster event export."), "backup_unreadable")
    if document.get("version") not in READABLE_VERSIONS:
        raise Invalid(_("This export has format version %(found)s; this Muster reads versions "
                        "%(versions)s.") % {"found": document.get("version"),
                                            "versions": ", ".join(map(str, READABLE_VERSIONS))},
                      "backup_version")


def restore_event(actor: Actor, document: dict[str, Any], slug: str | None = None) -> Restored:
    """Create the event of ``document`` (under ``slug`` if given) with every row it holds."""
    require_staff(actor)
    check_format(document)
    try:
        with transaction.atomic():
            restored = EventRestore(document, slug).run()
            campaign = {"campaign": restored.campaign.slug} if restored.campaign else {}
            record(actor, ACTION, None, restored.tournament.slug,
                   {"slug": restored.tournament.slug, **campaign, "version": VERSION,
                    **restored.counts})
            return restored
    except event_refs.UnknownRef as exc:
        raise Invalid(_("The export is damaged: it refers to a row it does not hold (%(kind)s %(ref)s).")
                      % {"kind": exc.kind, "ref": exc.value}, "backup_damaged") from None
    except ValidationError as exc:
        raise Invalid(_("The export holds a value this Muster refuses: %(reason)s")
                      % {"reason": "; ".join(exc.messages)}, "backup_damaged") from None
    except (KeyError, TypeError, ValueError, AttributeError, binascii.Error, DatabaseError) as exc:
        raise Invalid(_("The export is incomplete or damaged: %(reason)s")
                      % {"reason": f"{type(exc).__name__}: {exc}"[:300]}, "backup_damaged") from None
