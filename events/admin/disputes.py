"""Who disputed a result, when and why, for the pages where organisers settle it (the admin
game page and the results grid). A dispute is only kept in the audit log (``result_disputed``,
written by events/services/results), so it is read from there: one query for a page."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from events.models import AuditEntry, Game

ACTION = "result_disputed"


@dataclass(frozen=True)
class Dispute:
    who: str
    when: datetime
    reason: str


def _who(entry: AuditEntry, game: Game) -> str:
    """The player who disputed (their account plays one side), else the account's name."""
    for player in (game.player_a, game.player_b):
        if player is not None and entry.actor_id is not None and player.user_id == entry.actor_id:
            return player.name
    if entry.actor is None:
        return "Muster"
    return _("organiser %(name)s") % {"name": entry.actor.get_username()}


def _reason(data: dict) -> str:
    # A second report that differs from the first disputes it without a written reason.
    if "reason" not in data:
        return _("reported a different result")
    reason = str(data["reason"]).strip()
    return _("“%(reason)s”") % {"reason": reason} if reason else _("no reason given")


def disputes_of(games: Sequence[Game]) -> dict[int, list[Dispute]]:
    """Game id -> its disputes, oldest first, for ``games`` (of one event): one query."""
    if not games:
        return {}
    by_id = {game.pk: game for game in games}
    tournament_id = games[0].round.tournament_id
    entries: Iterable[AuditEntry] = (
        AuditEntry.objects.filter(tournament_id=tournament_id, action=ACTION,
                                  data__game__in=list(by_id))
        .select_related("actor").order_by("created_at", "pk"))
    found: dict[int, list[Dispute]] = {}
    for entry in entries:
        game = by_id.get((entry.data or {}).get("game"))
        if game is not None:
            found.setdefault(game.pk, []).append(
                Dispute(_who(entry, game), entry.created_at, _reason(entry.data)))
    return found


def reason_of(entry: AuditEntry) -> str:
    """The audit list's summary of a dispute entry (empty for other entries)."""
    if entry.action != ACTION:
        return ""
    return _reason(entry.data or {})
