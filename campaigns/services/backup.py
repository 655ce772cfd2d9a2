"""The campaign part of an event document (``events.services.backup``): the campaign that owns
the event, its two sides with their detachments and what each enemy has seen of them, its turns
with their orders and battles, and the score ledger.

The campaign's players, turns' rounds, battles' games and dice are the event's own rows, already
in the document: a side names its player by ``ref``, a turn its round by number, a battle its
game by ``ref``. Orders, battles and ledger lines get refs of their own (a reaction names its
attack, a battle its attacks, the audit log all three). Detachments are named and territories
coded in every JSON field (map, orders, battles, turn reports, dice logs), so those read the
same in any database. Eight queries whatever the campaign's size."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignReveal,
    CampaignScoreEntry,
    CampaignSide,
    CampaignTurn,
)
from events import event_refs
from events.models import Tournament
from events.services.backup_rows import grouped, numbering, row_data, username
from events.systems import NOT_FOR_EVENTS


@dataclass(frozen=True)
class CampaignRows:
    """Every row of one campaign, read in eight queries."""

    campaign: Campaign
    sides: list[CampaignSide]
    detachments: Mapping[int, list[CampaignDetachment]]  # by side id
    reveals: Mapping[int, list[CampaignReveal]]  # by detachment id
    turns: list[CampaignTurn]
    orders: Mapping[int, list[CampaignOrder]]  # by turn id
    battles: Mapping[int, list[CampaignBattle]]  # by turn id
    entries: list[CampaignScoreEntry]

    @classmethod
    def of(cls, t: Tournament) -> CampaignRows | None:
        """The campaign ``t`` belongs to; None for an event of a system played as events."""
        if t.game_system.kind not in NOT_FOR_EVENTS:
            return None
        campaign = Campaign.objects.select_related("created_by").filter(tournament=t).first()
        if campaign is None:
            return None
        in_turns = {"turn__campaign": campaign}
        return cls(
            campaign=campaign,
            sides=list(campaign.sides.order_by("-side")),  # west, east
            detachments=grouped(CampaignDetachment.objects.filter(side__campaign=campaign)
                                .order_by("side_id", "position", "pk"), "side_id"),
            reveals=grouped(CampaignReveal.objects.filter(detachment__side__campaign=campaign)
                            .order_by("detachment_id", "pk"), "detachment_id"),
            turns=list(campaign.turns.select_related("round").order_by("number")),
            orders=grouped(CampaignOrder.objects.filter(**in_turns).select_related("created_by")
                           .order_by("turn__number", "pk"), "turn_id"),
            battles=grouped(CampaignBattle.objects.filter(**in_turns)
                            .order_by("turn__number", "pk"), "turn_id"),
            entries=list(campaign.score_entries.order_by("pk")),
        )

    def numbers(self) -> dict[str, dict[int, int]]:
        """Database id -> document ref of the orders, battles and ledger lines, in document
        order (a restored campaign, made in that order, is numbered the same)."""
        return {
            "order": numbering(o.pk for turn in self.turns for o in self.orders[turn.pk]),
            "battle": numbering(b.pk for turn in self.turns for b in self.battles[turn.pk]),
            "score_entry": numbering(e.pk for e in self.entries),
        }


def campaign_part(rows: CampaignRows, refs: event_refs.Refs) -> dict[str, Any]:
    c = rows.campaign
    return {
        **row_data(c), "created_by": username(c.created_by),
        "sides": [
            {**row_data(side), "player": refs.player(side.player_id),
             "detachments": [{**row_data(d), "reveals": [row_data(r) for r in rows.reveals[d.pk]]}
                             for d in rows.detachments[side.pk]]}
            for side in rows.sides
        ],
        "turns": [
            {**row_data(turn), **event_refs.turn_fields(refs, row_data(turn)),
             "round": turn.round.number,
             "orders": [_order(o, refs) for o in rows.orders[turn.pk]],
             "battles": [_battle(b, refs) for b in rows.battles[turn.pk]]}
            for turn in rows.turns
        ],
        "score_entries": [{"ref": refs.score_entry(e.pk), **row_data(e)} for e in rows.entries],
    }


def _order(o: CampaignOrder, refs: event_refs.Refs) -> dict[str, Any]:
    return {"ref": refs.order(o.pk), **row_data(o),
            "for_attack": refs.order(o.for_attack_id) if o.for_attack_id else None,
            "escort_of": refs.order(o.escort_of_id) if o.escort_of_id else None,
            "created_by": username(o.created_by)}


def _battle(b: CampaignBattle, refs: event_refs.Refs) -> dict[str, Any]:
    data = row_data(b)
    return {"ref": refs.battle(b.pk), **data, **event_refs.battle_fields(refs, data),
            "game": refs.game(b.game_id) if b.game_id else None}
