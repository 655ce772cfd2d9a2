"""Epic 40,000 campaigns (seed 001): what every campaign service shares, i.e. its settings,
finding and locking it, its sides and who acts for them, its turns, the engine's view of it
(map, armies, accepted orders) and its score.

The set-up steps are in services/setup.py (creation, sides and armies, majors, planet) and
services/placement.py (placement and the start), the turn cycle in services/turns.py and the
battles in services/battles.py. Every change locks the campaign row first (``locked``), so the
steps of one campaign are applied one after the other, and writes an audit entry on the
campaign's tournament. Rules: campaigns/engine/."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from campaigns.engine import map as grid
from campaigns.engine import tools
from campaigns.engine.army import unit_from_dict
from campaigns.engine.battles import ENEMY_FORCE
from campaigns.engine.declaration import SEALED
from campaigns.engine.scoring import EVERY_TURN_HELD, OTHER_SECTORS_TABLE
from campaigns.engine.state import AcceptedOrder, CampaignState, Detachment, Order
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignSide, CampaignTurn
from events.audit import Actor
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import AuditEntry

Status = Campaign.Status
SETTING_UP = (Status.SETUP, Status.PLACEMENT)


@dataclass(frozen=True)
class Settings:
    """A campaign's decided defaults (systems/epic-campaign.md §1.3)."""

    adjacency: str = grid.ORTHOGONAL  # G4
    planet_on_eight: str = tools.ON_EIGHT_ASK  # G3
    territory_scoring: str = EVERY_TURN_HELD  # G16
    battle_points_basis: str = ENEMY_FORCE  # G17
    other_sectors_table: Mapping[int, int] = field(default_factory=lambda: OTHER_SECTORS_TABLE)  # G19
    declaration_mode: str = SEALED  # G11


def settings_of(campaign: Campaign) -> Settings:
    raw = campaign.settings or {}
    table = raw.get("other_sectors_table")
    return Settings(
        adjacency=raw.get("adjacency", grid.ORTHOGONAL),
        planet_on_eight=raw.get("planet_on_eight", tools.ON_EIGHT_ASK),
        territory_scoring=raw.get("territory_scoring", EVERY_TURN_HELD),
        battle_points_basis=raw.get("battle_points_basis", ENEMY_FORCE),
        other_sectors_table=({int(k): int(v) for k, v in table.items()} if table
                             else OTHER_SECTORS_TABLE),
        declaration_mode=raw.get("declaration_mode", SEALED),
    )


# Finding and locking ----------------------------------------------------------------------

def require_staff(actor: Actor) -> None:
    if not actor.is_staff:
        raise Forbidden(_("Only the organisers can do this."), "staff_only")


def get_campaign(slug: str) -> Campaign:
    campaign = Campaign.objects.select_related("tournament").filter(slug=slug).first()
    if campaign is None:
        raise NotFound(_("No such campaign."), "campaign_not_found")
    return campaign


def locked(campaign: Campaign) -> Campaign:
    """The campaign row, locked until the end of the caller's transaction: every change of one
    campaign (two orders sent at once spending the last allowance) queues here."""
    return Campaign.objects.select_for_update(of=("self",)).select_related(
        "tournament__dice").get(pk=campaign.pk)


def require_status(campaign: Campaign, *allowed: str) -> None:
    if campaign.status in allowed:
        return
    if campaign.status in SETTING_UP:
        raise Conflict(_("The campaign has not started yet."), "campaign_not_running")
    if campaign.status == Status.FINISHED and Status.RUNNING in allowed:
        raise Conflict(_("The campaign is over."), "campaign_finished")
    raise Conflict(_("The campaign has started: its set-up can no longer change."),
                   "campaign_started")


def sides_of(campaign: Campaign) -> dict[str, CampaignSide]:
    return {row.side: row for row in campaign.sides.select_related("player__user")}


def side_of_actor(actor: Actor, campaign: Campaign) -> CampaignSide | None:
    """The side ``actor`` plays in ``campaign``, if any."""
    if actor.user_id is None:
        return None
    return campaign.sides.select_related("player").filter(player__user_id=actor.user_id).first()


def side_for(actor: Actor, campaign: Campaign, side: str) -> CampaignSide:
    """Side ``side`` when ``actor`` plays it or is staff: 404 for an unknown side, 403 else."""
    found = campaign.sides.select_related("player").filter(side=side)
    row = found.first() if side in grid.SIDES else None
    if row is None:
        raise NotFound(_("This campaign has no such side."), "side_not_found")
    if not actor.is_staff and (actor.user_id is None or row.player.user_id != actor.user_id):
        raise Forbidden(_("Only this side's player or an organiser can do this."), "not_your_side")
    return row


def acting_side(actor: Actor, campaign: Campaign, asked: str | None) -> str:
    """The side an order or a placement is for: the player's own, or the one staff name."""
    mine = side_of_actor(actor, campaign)
    if actor.is_staff and (asked is not None or mine is None):
        if asked is None:
            raise Invalid(_("Say which side this is for (“side”)."), "side_required")
        return asked
    if mine is None:
        raise Forbidden(_("Only the campaign's players can do this."), "not_a_participant")
    if asked is not None and asked != mine.side:
        raise Forbidden(_("Only this side's player or an organiser can do this."), "not_your_side")
    return mine.side


def refusal(code: str, params: Mapping[str, object], error: type = Invalid) -> Exception:
    """An engine refusal code as a service error, in the reader's language."""
    return error(campaign_message(code, params), code)


# The engine's view of a campaign -----------------------------------------------------------

def current_turn(campaign: Campaign) -> CampaignTurn | None:
    if not campaign.current_turn:
        return None
    return campaign.turns.filter(number=campaign.current_turn).select_related("round").first()


def staff_turn(actor: Actor, campaign: Campaign, number: int) -> tuple[Campaign, CampaignTurn]:
    """An organiser's step on turn ``number`` of a running campaign: the locked campaign row and
    the turn (403 for players, 409 unless the campaign runs, 404 for a turn not opened)."""
    require_staff(actor)
    row = locked(campaign)
    require_status(row, Campaign.Status.RUNNING)
    return row, turn_row(row, number)


def turn_row(campaign: Campaign, number: int) -> CampaignTurn:
    """Turn ``number`` of ``campaign``, locked; 404 if it does not exist, 409 once closed."""
    turn = CampaignTurn.objects.select_for_update(of=("self",)).select_related("round").filter(
        campaign=campaign, number=number).first()
    if turn is None:
        raise NotFound(_("This campaign has no such turn."), "turn_not_found")
    if turn.closed_at is not None:
        raise Conflict(_("Turn %(number)s is closed.") % {"number": number}, "turn_closed")
    return turn


def control_of(campaign: Campaign) -> dict[str, str]:
    return grid.full_control(campaign.control or {})


def accepted_order(row: CampaignOrder) -> AcceptedOrder:
    order = Order(row.side, row.kind, tuple(row.detachments), row.from_code or None,
                  row.to_code or None, row.for_attack_id,
                  # R19–R24: an air mission's mission, routes and escorted mission.
                  row.mission or None, tuple(row.route or ()), tuple(row.return_route or ()),
                  row.escort_of_id)
    return AcceptedOrder(row.pk, order, row.bonus or None, row.commander or None)


def engine_detachment(row: CampaignDetachment) -> Detachment:
    return Detachment(row.name, row.side.side, row.points, row.kind, row.supreme_commander,
                      row.location or None, row.destroyed,
                      tuple(unit_from_dict(u) for u in row.units or ()),
                      row.vehicles_in_orbit)  # R13


def state_of(campaign: Campaign, turn: CampaignTurn | None = None) -> CampaignState:
    """The campaign as the engine reads it: map, both armies, this turn's accepted orders."""
    sides = list(campaign.sides.all())
    rows = CampaignDetachment.objects.filter(side__campaign=campaign).select_related("side")
    # G11: an order refused when its phase's sealed orders were revealed counts for nothing.
    orders = (turn.orders.exclude(status=CampaignOrder.REFUSED).order_by("pk")
              if turn is not None else ())
    return CampaignState(
        control=control_of(campaign),
        majors=frozenset(code for row in sides for code in row.majors),
        detachments=tuple(engine_detachment(row) for row in rows),
        strategic_values={**dict.fromkeys(grid.SIDES, 0),
                          **{row.side: row.strategic_value for row in sides}},
        isolated=frozenset(campaign.isolated), fortified=frozenset(campaign.fortified),
        phase=(turn.phase or None) if turn is not None else None,
        orders=tuple(accepted_order(row) for row in orders),
        adjacency=settings_of(campaign).adjacency,
    )


FORCED_ACTION = "campaign_order_forced"  # the audit action of an order staff forced through


def forced_ids(campaign: Campaign, turn: CampaignTurn) -> frozenset[int]:
    """The orders of ``turn`` an organiser forced through (their refusal is in the audit log)."""
    entries = AuditEntry.objects.filter(tournament_id=campaign.tournament_id,
                                        action=FORCED_ACTION).values_list("data", flat=True)
    # A forced order refused later is gone: a restored backup names it None (events.event_refs).
    return frozenset(int(data["order"]) for data in entries
                     if data.get("turn") == turn.number and data.get("refusal")
                     and data.get("order") is not None)


def scores_of(campaign: Campaign) -> dict[str, int]:
    totals = dict.fromkeys(grid.SIDES, 0)
    rows = campaign.score_entries.values("side").annotate(total=Sum("points"))
    totals.update({row["side"]: row["total"] for row in rows})
    return totals


def army_points_of(campaign: Campaign) -> dict[str, int]:
    """Each side's whole army (G17 option ``enemy_army``)."""
    totals = dict.fromkeys(grid.SIDES, 0)
    rows = CampaignDetachment.objects.filter(side__campaign=campaign).values(
        "side__side").annotate(total=Sum("points"))
    totals.update({row["side__side"]: row["total"] for row in rows})
    return totals
