"""Epic 40,000 campaigns (seed 001): creation, sides and armies, planet, majors, placement and
the start; what a campaign shows (its sides, the map under hidden information, the score).

The turn cycle is in services/turns.py and the battles in services/battles.py. Every change
locks the campaign row first (``locked``), so the steps of one campaign are applied one after
the other, and writes an audit entry on the campaign's tournament. Rules: campaigns/engine/."""
from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from armylists.models import Chart, GameSystem
from campaigns import notice_queue as notices
from campaigns.engine import map as grid
from campaigns.engine import tools
from campaigns.engine.army import (
    AIRBORNE,
    ArmyReport,
    DetachmentSpec,
    unit_dict,
    unit_from_dict,
    validate_army,
)
from campaigns.engine.battles import ENEMY_FORCE
from campaigns.engine.declaration import SEALED
from campaigns.engine.placement import first_to_place, placement_refusal, unguarded_majors
from campaigns.engine.scoring import EVERY_TURN_HELD, OTHER_SECTORS_TABLE
from campaigns.engine.state import AcceptedOrder, CampaignState, Detachment, Order
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignSide, CampaignTurn
from campaigns.services.dice import throw
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import AuditEntry, Player, Round, Tournament
from events.services.tournaments import free_slug
from missions.models import DiceStream
from missions.services import new_seed
from systems.registry import campaign_system

Status = Campaign.Status
SLUG_ATTEMPTS = 20
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


# Creation ---------------------------------------------------------------------------------

def _insert(row: Campaign | Tournament, base: str) -> None:
    """Save a new row under the first free slug from ``base``; a creation that loses the race
    on the unique index takes the next one, inside a savepoint."""
    model = type(row)
    for _attempt in range(SLUG_ATTEMPTS):
        row.slug = free_slug(model, base)
        try:
            with transaction.atomic():
                row.save(force_insert=True)
            return
        except IntegrityError:
            if not model.objects.filter(slug=row.slug).exists():
                raise
    raise Conflict(_("Another campaign already has this address; choose another name."),
                   "slug_taken")


def army_chart(system: GameSystem) -> Chart:
    """The chart every campaign army is stored under (made on first use; it has no slots)."""
    chart, _created = Chart.objects.get_or_create(slug=campaign_system().campaign_chart, defaults={
        "game_system": system, "name_en": "Epic 40,000 campaign army",
        "name_fr": "Armée de campagne Epic 40 000"})
    return chart


def _tournament(actor: Actor, name: str, slug: str, army_points: int, seed: int) -> Tournament:
    """The campaign's event row, made here rather than by ``create_tournament``: events refuse
    campaign systems (events/systems/config). A draft until the start, so neither the public
    nor self-registration reach it; its rounds are the turns, its games the battles."""
    system = GameSystem.objects.get(slug=campaign_system().slug)
    stream = DiceStream.objects.create(key=f"campaign:{slug}:{uuid.uuid4().hex[:12]}", seed=seed)
    tournament = Tournament(name=name, game_system=system, chart=army_chart(system),
                            points_limit=army_points, rounds=1, seed=seed, dice=stream,
                            created_by=actor.user, status=Tournament.Status.DRAFT)
    _insert(tournament, f"campaign-{slug}"[:70])
    return tournament


@transaction.atomic
def create_campaign(actor: Actor, *, name: str, settings: Mapping[str, Any],
                    army_points: int = 5000, seed: int | None = None) -> Campaign:
    """A campaign in set-up, with its tournament and dice stream seeded from ``seed``."""
    require_staff(actor)
    seed = new_seed() if seed is None else seed
    chosen = dict(settings)
    victory_score = chosen.pop("victory_score")
    campaign = Campaign(name=name, army_points=army_points, victory_score=victory_score,
                        settings=chosen, created_by=actor.user)
    base = slugify(name)[:70] or "campaign"
    campaign.slug = free_slug(Campaign, base)
    campaign.tournament = _tournament(actor, name, campaign.slug, army_points, seed)
    _insert(campaign, base)
    record(actor, "campaign_created", campaign.tournament, campaign,
           {"campaign": campaign.slug, "seed": seed, "army_points": army_points,
            "victory_score": victory_score, "settings": chosen})
    return campaign


# Sides and armies -------------------------------------------------------------------------

def _account(username: str) -> Any:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise Invalid(_("No account is called “%(username)s”.") % {"username": username},
                      "unknown_user")
    return user


@transaction.atomic
def add_side(actor: Actor, campaign: Campaign, *, side: str, name: str, army_name: str,
             faction: str, strategic_value: int, username: str | None = None) -> CampaignSide:
    """A side and its player (a ``Player`` of the campaign's tournament). G2: the organiser
    types the strategic value, 0 to 10."""
    require_staff(actor)
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    low, high = tools.STRATEGIC_VALUE_MIN, tools.STRATEGIC_VALUE_MAX
    if not low <= strategic_value <= high:
        raise refusal("strategic_value_out_of_range", {"min": low, "max": high})
    if row.sides.filter(side=side).exists():
        raise Conflict(_("This side already has a player."), "side_taken")
    user = _account(username) if username else None
    if user is not None and Player.objects.filter(tournament=row.tournament, user=user).exists():
        raise Conflict(_("This account already plays the other side."), "already_registered")
    player = Player.objects.create(tournament=row.tournament, user=user, name=name, faction=faction)
    created = CampaignSide.objects.create(campaign=row, side=side, player=player,
                                          army_name=army_name, faction=faction,
                                          strategic_value=strategic_value)
    record(actor, "campaign_side_added", row.tournament, created,
           {"campaign": row.slug, "side": side, "player": player.pk,
            "user": getattr(user, "pk", None), "strategic_value": strategic_value})
    return created


def check_side_access(actor: Actor, campaign: Campaign, side: str) -> None:
    """403/404 before a body is read: only that side's player and staff change a side."""
    side_for(actor, campaign, side)


@transaction.atomic
def set_army(actor: Actor, campaign: Campaign, side: str,
             detachments: Sequence[DetachmentSpec]) -> tuple[ArmyReport, bool]:
    """Check a side's detachments (R1–R3) and store them when valid. R2: « Ces détachements ne
    changeront pas durant la campagne »: frozen once the campaign runs, and from the side's
    first placement (its placed detachments would be lost)."""
    row = locked(campaign)
    owner = side_for(actor, row, side)
    placed = owner.detachments.exclude(location="").exists()
    if row.status not in SETTING_UP or placed:
        raise Conflict(_("The detachments are fixed for the whole campaign."), "detachments_frozen")
    report = validate_army(detachments, owner.faction, row.army_points)
    if report.valid:
        owner.detachments.all().delete()
        CampaignDetachment.objects.bulk_create([
            CampaignDetachment(side=owner, name=d.name, points=d.points, kind=d.kind,
                               supreme_commander=d.supreme_commander, position=index,
                               units=[unit_dict(u) for u in d.units])
            for index, d in enumerate(detachments)])
    record(actor, "campaign_army_set", row.tournament, owner,
           {"campaign": row.slug, "side": side, "saved": report.valid,
            "total_points": report.total_points, "detachments": len(detachments),
            "errors": [p.code for p in report.errors]})
    return report, report.valid


@transaction.atomic
def set_majors(actor: Actor, campaign: Campaign, side: str, majors: Sequence[str]) -> CampaignSide:
    """G30: each player picks two majors in their own sector during set-up; public (R7)."""
    row = locked(campaign)
    owner = side_for(actor, row, side)
    require_status(row, *SETTING_UP)
    if not grid.check_majors(side, majors):
        raise Invalid(_("Choose two different territories of your own sector (%(codes)s).")
                      % {"codes": ", ".join(c for c in grid.CODES if grid.home_side(c) == side)},
                      "majors_invalid")
    before, owner.majors = owner.majors, list(majors)
    owner.save(update_fields=["majors"])
    record(actor, "campaign_majors_set", row.tournament, owner,
           {"campaign": row.slug, "side": side, "before": before, "after": owner.majors})
    return owner


# Planet -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlanetAnswer:
    planet: str | None
    candidates: tuple[str, ...]
    rolls: tuple[dict[str, Any], ...]
    unused_dice: tuple[int, ...] = ()


@transaction.atomic
def set_planet(actor: Actor, campaign: Campaign, *, planet: str | None = None,
               dice: Sequence[int] | None = None) -> PlanetAnswer:
    """R5: the planet by agreement (``planet``) or by 2D6 (server or entered dice). G3: an 8
    leaves the choice to the organiser unless the campaign's ``planet_on_eight`` fixed it."""
    require_staff(actor)
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    unused: tuple[int, ...] = ()
    if planet is not None:
        if dice is not None:
            raise Invalid(_("Either choose the planet or roll for it, not both."), "planet_and_dice")
        last = row.planet_rolls[-1]["candidates"] if row.planet_rolls else []
        candidates = tuple(last) if planet in last else (planet,)
        row.planet = planet
        record(actor, "campaign_planet_chosen", row.tournament, row,
               {"campaign": row.slug, "planet": planet})
    else:
        on_eight = settings_of(row).planet_on_eight
        thrown = throw(row, actor, lambda roller: tools.roll_planet(roller, on_eight), dice)
        result = thrown.value.result
        candidates = result.candidates
        row.planet = result.planet or ""
        line = {**thrown.rolls[0], "planet": result.planet, "candidates": list(candidates)}
        row.planet_rolls = [*row.planet_rolls, line]
        unused = thrown.unused
        record(actor, "campaign_planet_rolled", row.tournament, row,
               {"campaign": row.slug, **line, **({"unused_dice": list(unused)} if unused else {})})
    row.save(update_fields=["planet", "planet_rolls"])
    return PlanetAnswer(row.planet or None, tuple(candidates), tuple(row.planet_rolls), unused)


# Placement and start ----------------------------------------------------------------------

def _placeable(row: CampaignDetachment) -> bool:
    # R13: airborne detachments start off the map; G28: air detachments are based on it.
    return row.kind != AIRBORNE and not row.destroyed


def next_placer(campaign: Campaign, rows: Iterable[CampaignDetachment] | None = None) -> str | None:
    """R11: the first placer, then the sides alternate; a side with nothing left to place lets
    the other go on. None once everything is placed (or before the first placer is known)."""
    if not campaign.placement_first:
        return None
    rows = list(rows) if rows is not None else list(
        CampaignDetachment.objects.filter(side__campaign=campaign).select_related("side"))
    left = {side: sum(1 for r in rows if r.side.side == side and _placeable(r) and not r.location)
            for side in grid.SIDES}
    placed = sorted((r for r in rows if r.placed_order is not None), key=lambda r: r.placed_order)
    due = grid.enemy(placed[-1].side.side) if placed else campaign.placement_first
    if left[due]:
        return due
    other = grid.enemy(due)
    return other if left[other] else None


def _ready_sides(campaign: Campaign) -> dict[str, CampaignSide]:
    sides = sides_of(campaign)
    if len(sides) < 2 or any(not row.detachments.exists() for row in sides.values()):
        raise Conflict(_("Both sides need a player and an army before placement."),
                       "placement_not_ready")
    return sides


def _first_placer(actor: Actor, campaign: Campaign, sides: Mapping[str, CampaignSide],
                  dice: Sequence[int] | None) -> None:
    """R11 with G5: the lower strategic value places first; equal values → a roll-off whose
    winner lets the other side place first (campaigns/engine/placement.py)."""
    if campaign.placement_first:
        return
    values = {side: row.strategic_value for side, row in sides.items()}
    if values[grid.WEST] != values[grid.EAST]:
        campaign.placement_first, _roll = first_to_place(values)
        return
    thrown = throw(campaign, actor, lambda roller: first_to_place(values, roller), dice)
    campaign.placement_first = thrown.value[0]
    campaign.placement_roll = list(thrown.rolls)


@transaction.atomic
def place(actor: Actor, campaign: Campaign, *, detachment: str, territory: str,
          side: str | None = None, dice: Sequence[int] | None = None) -> str | None:
    """Place one detachment in its side's sector (R11); returns the side to place next."""
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    sides = _ready_sides(row)
    _first_placer(actor, row, sides, dice)
    due = next_placer(row)
    if due is None:
        raise Conflict(_("Every detachment is already placed."), "placement_complete")
    placer = acting_side(actor, row, due if side is None and actor.is_staff else side)
    if placer != due and not actor.is_staff:
        raise Conflict(_("It is the other side's turn to place a detachment."), "not_your_placement")
    problem = placement_refusal(state_of(row), placer, detachment, territory)
    if problem is not None:
        raise refusal(*problem)
    unit = sides[placer].detachments.get(name=detachment)
    latest = CampaignDetachment.objects.filter(side__campaign=row).aggregate(
        top=Max("placed_order"))["top"]
    unit.location, unit.placed_order = territory, (latest or 0) + 1
    unit.save(update_fields=["location", "placed_order"])
    row.status = Status.PLACEMENT
    row.save(update_fields=["status", "placement_first", "placement_roll"])
    following = next_placer(row)
    notices.queue_placement(row, placer, following, unit.placed_order)
    record(actor, "campaign_placement", row.tournament, unit,
           {"campaign": row.slug, "side": placer, "detachment": detachment,
            "territory": territory, "next": following})
    return following


def open_turn(campaign: Campaign, number: int) -> CampaignTurn:
    """Turn ``number`` and its league round, published at once so its battles can be reported."""
    tournament = campaign.tournament
    round_ = Round.objects.create(tournament=tournament, number=number,
                                  status=Round.Status.PUBLISHED, published_at=timezone.now())
    if tournament.rounds < number:
        tournament.rounds = number
        tournament.save(update_fields=["rounds"])
    return CampaignTurn.objects.create(campaign=campaign, number=number, round=round_)


@transaction.atomic
def start(actor: Actor, campaign: Campaign) -> Campaign:
    """Every placeable detachment on the map and every major guarded (R10): turn 1 opens."""
    require_staff(actor)
    row = locked(campaign)
    require_status(row, *SETTING_UP)
    sides = _ready_sides(row)
    missing = [side for side, owner in sides.items() if len(owner.majors) != grid.MAJORS_PER_SIDE]
    if missing:
        raise Conflict(_("Each side must choose its two major territories first."),
                       "majors_missing")
    rows = CampaignDetachment.objects.filter(side__campaign=row).select_related("side")
    unplaced = [r.name for r in rows if _placeable(r) and not r.location]
    if unplaced:
        raise Conflict(_("%(count)s detachments are still to be placed.") % {"count": len(unplaced)},
                       "placement_incomplete")
    unguarded = unguarded_majors(state_of(row))
    if unguarded:
        raise refusal("major_unguarded", {"territory": unguarded[0]}, Conflict)
    row.control = grid.home_control()
    row.isolated = sorted(grid.isolated(row.control))
    row.fortified = []
    row.status, row.current_turn = Status.RUNNING, 1
    row.save(update_fields=["control", "isolated", "fortified", "status", "current_turn"])
    open_turn(row, 1)
    notices.queue_campaign_phase(row, 1, "")  # turn 1 open; its phases follow
    tournament = row.tournament
    previous, tournament.status = tournament.status, Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    record(actor, "status_changed", tournament, tournament,
           {"from": previous, "to": tournament.status})
    record(actor, "campaign_started", tournament, row, {"campaign": row.slug, "turn": 1})
    return row
