"""Surrender (R35: « lorsque ses adversaires se rendent »): a side gives up and the campaign
ends at once with the enemy's victory, whatever the turn's phase. The player types their army's
name to confirm, as an organiser types a round's number to re-pair it: one tap on a phone in a
pocket must not end ten weeks of campaign."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from campaigns import notice_queue as notices
from campaigns.engine.map import enemy
from campaigns.engine.scoring import SURRENDER, Victory
from campaigns.models import Campaign
from campaigns.services.campaign import locked, require_status, side_for
from campaigns.services.turns import RUNNING, finish
from events.audit import Actor, record
from events.errors import Invalid


def _same(typed: str, name: str) -> bool:
    return " ".join(typed.split()).casefold() == " ".join(name.split()).casefold()


@transaction.atomic
def surrender(actor: Actor, campaign: Campaign, side: str, confirmation: str) -> Campaign:
    """Side ``side`` surrenders (its player or staff); 409 unless the campaign runs, 400
    ``confirmation_mismatch`` unless ``confirmation`` is the side's army name."""
    row = locked(campaign)
    giving_up = side_for(actor, row, side)
    require_status(row, RUNNING)
    if not _same(str(confirmation), giving_up.army_name):
        raise Invalid(_("Type your army's name (%(army)s) to confirm the surrender.")
                      % {"army": giving_up.army_name}, "confirmation_mismatch")
    giving_up.surrendered = True
    giving_up.save(update_fields=["surrendered"])
    finish(actor, row, Victory(side=enemy(side), reason=SURRENDER))
    row.save(update_fields=["status", "winner", "victory_reason"])
    notices.queue_campaign_surrender(row, side)
    record(actor, "campaign_surrendered", row.tournament, giving_up,
           {"campaign": row.slug, "side": side, "turn": row.current_turn, "winner": row.winner})
    return row
