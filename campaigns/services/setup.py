"""Setting an Epic 40,000 campaign up (seed 001): its creation with its tournament and dice
stream, the sides and their armies, the majors and the planet. Placement and the start are in
services/placement.py; the shared reads and locking in services/campaign.py."""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from armylists.models import Chart, GameSystem
from campaigns.engine import map as grid
from campaigns.engine import tools
from campaigns.engine.army import ArmyReport, DetachmentSpec, unit_dict, validate_army
from campaigns.models import Campaign, CampaignDetachment, CampaignSide
from campaigns.services.campaign import (
    SETTING_UP,
    locked,
    refusal,
    require_staff,
    require_status,
    settings_of,
    side_for,
)
from campaigns.services.dice import throw
from events.audit import Actor, record
from events.errors import Conflict, Invalid
from events.models import Player, Tournament
from events.services.tournaments import free_slug
from missions.models import DiceStream
from missions.services import new_seed
from systems.registry import campaign_system

SLUG_ATTEMPTS = 20


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
