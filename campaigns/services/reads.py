"""What a campaign shows, and to whom: the public campaign and score, a side's own army, and
the map under the hidden-information rule (R12: « Sur la face visible du pion est simplement
écrit le nom de l'armée »; a detachment's name is seen by its owner, by staff, and by an enemy
that met it in battle or saw it through infiltration)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from campaigns.engine import map as grid
from campaigns.engine import tools
from campaigns.models import (
    Campaign,
    CampaignDetachment,
    CampaignReveal,
    CampaignSide,
    CampaignTurn,
)
from campaigns.services import declarations as campaign_declarations
from campaigns.services.campaign import (
    SETTING_UP,
    control_of,
    current_turn,
    scores_of,
    settings_of,
    side_of_actor,
    sides_of,
)
from campaigns.services.placement import next_placer
from events.audit import Actor
from events.errors import Forbidden


def viewer_side(actor: Actor, campaign: Campaign) -> str | None:
    """Whose eyes the map is seen with: None for staff (everything), the player's side, or 403."""
    if actor.is_staff:
        return None
    mine = side_of_actor(actor, campaign)
    if mine is None:
        raise Forbidden(_("Only the campaign's players and organisers can see its map."),
                        "not_a_participant")
    return mine.side


def revealed_to(campaign: Campaign, side: str) -> frozenset[int]:
    """R12: the enemy detachments ``side`` has seen whole (by battle or infiltration)."""
    return frozenset(seen_by(campaign, side)[CampaignReveal.FULL])


def seen_by(campaign: Campaign, side: str, by_turn: int | None = None) -> dict[str, set[int]]:
    """The ids of the enemy detachments ``side`` has seen (by the end of turn ``by_turn`` when
    given), by level: ``full`` (name and sheet) or ``war_engines`` only (R25 on a 5)."""
    out: dict[str, set[int]] = {CampaignReveal.FULL: set(), CampaignReveal.WAR_ENGINES: set()}
    rows = CampaignReveal.objects.filter(detachment__side__campaign=campaign, to_side=side)
    if by_turn is not None:
        rows = rows.filter(turn__lte=by_turn)
    for pk, level in rows.values_list("detachment_id", "level"):
        out.setdefault(level, set()).add(pk)
    return out


def war_engine_units(row: CampaignDetachment) -> list[dict[str, Any]]:
    """R25 on a 5: « combien de machines de guerre … et de quel type »: the units tagged
    war_engine, by name and type, and nothing else of the sheet."""
    return [{"name": u.get("name", ""), "type": u.get("type", "")} for u in row.units or []
            if "war_engine" in (u.get("tags") or [])]


def shown_name(row: CampaignDetachment, viewer: str | None, revealed: frozenset[int]) -> str | None:
    """R12: « Sur la face visible du pion est simplement écrit le nom de l'armée »: a detachment's
    name for staff, its owner, and an enemy that has seen it; None otherwise."""
    if viewer is None or row.side.side == viewer or row.pk in revealed:
        return row.name
    return None


def map_view(actor: Actor, campaign: Campaign, turn: CampaignTurn | None = None
             ) -> list[dict[str, Any]]:
    """The 18 territories as ``actor`` may see them (contract ``GET .../map/``); ``turn`` is
    the current turn when the caller has it."""
    viewer = viewer_side(actor, campaign)
    if turn is None and viewer is not None:  # staff see sealed moves anyway
        turn = current_turn(campaign)
    return map_seen_by(campaign, viewer, turn)


# Whose eyes a printed public map uses: nobody's side, so every counter shows its army only.
PUBLIC = "public"


def map_seen_by(campaign: Campaign, viewer: str | None, turn: CampaignTurn | None = None,
                closed: CampaignTurn | None = None) -> list[dict[str, Any]]:
    """The 18 territories as ``viewer`` sees them: None (staff) everything, a side its own
    names and the enemy ones revealed to it, ``PUBLIC`` army names only (R12).

    An enemy counter whose war engines an infiltration showed (R25 on a 5) keeps its army name
    only (``detachment`` null) and adds ``"war_engines": [{"name", "type"}]``: the player learns
    how many war engines and of which type stand there, not which detachment it is.

    ``turn``: the open turn, whose sealed moves (G11) ``viewer`` does not see yet. ``closed``:
    a closed turn whose map is drawn as that turn left it (its report's snapshot), with what
    ``viewer`` had seen by then."""
    at = (closed.report or {}).get("map") if closed is not None else None
    levels = seen_by(campaign, viewer, closed.number if at else None) if viewer in grid.SIDES else {}
    revealed = frozenset(levels.get(CampaignReveal.FULL, ()))
    engines_only = levels.get(CampaignReveal.WAR_ENGINES, set()) - revealed
    control = grid.full_control(at["control"]) if at else control_of(campaign)
    majors = {code for row in campaign.sides.all() for code in row.majors}
    rows = list(CampaignDetachment.objects.filter(side__campaign=campaign).select_related(
        "side").order_by("-side__side", "position", "pk"))
    if at:
        then = {(side, name): code for side, name, code in at["detachments"]}
        where = {row.pk: then.get((row.side.side, row.name), "") for row in rows}
    else:
        # G11: a move still sealed shows its detachment where it stood, except to its owner.
        origins = campaign_declarations.sealed_origins(turn, viewer)
        where = {row.pk: "" if row.destroyed else origins.get((row.side.side, row.name),
                                                                row.location) for row in rows}
    counters: dict[str, list[dict[str, Any]]] = {code: [] for code in grid.CODES}
    for row in rows:
        if not where[row.pk]:
            continue
        counter = {"side": row.side.side, "army_name": row.side.army_name,
                   "detachment": shown_name(row, viewer, revealed)}
        if row.pk in engines_only:
            counter["war_engines"] = war_engine_units(row)
        counters[where[row.pk]].append(counter)
    source = at or {"fortified": campaign.fortified, "isolated": campaign.isolated}
    fortified, isolated = set(source["fortified"]), set(source["isolated"])
    return [{"code": code, "home_side": t.home_side, "line": t.line, "major": code in majors,
             "controller": control[code], "fortified": code in fortified,
             "isolated": code in isolated, "counters": counters[code]}
            for code, t in grid.TERRITORIES.items()]


def score_view(campaign: Campaign) -> dict[str, Any]:
    """The public ledger (R35–R40): the kind and points of each line, never a detachment name."""
    entries = [{"turn": e.turn, "side": e.side, "kind": e.kind, "points": e.points}
               for e in campaign.score_entries.order_by("turn", "pk")]
    return {"entries": entries, "totals": scores_of(campaign)}


def side_view(row: CampaignSide, score: int) -> dict[str, Any]:
    """A side as anyone may see it: its player, army name, faction, strategic value, score and
    majors (public, G30); never its detachments (R12)."""
    return {"side": row.side, "player": row.player_id, "name": row.player.name,
            "army_name": row.army_name, "faction": row.faction,
            "strategic_value": row.strategic_value,
            "initiative_value": tools.initiative_value(row.strategic_value),
            "score": score, "majors": list(row.majors)}


def campaign_view(campaign: Campaign) -> dict[str, Any]:
    """The contract's ``GET /campaigns/{slug}/`` (public)."""
    sides, scores = sides_of(campaign), scores_of(campaign)
    turn = current_turn(campaign)
    settings = {**settings_data(campaign), "victory_score": campaign.victory_score}
    victory = ({"side": campaign.winner, "reason": campaign.victory_reason}
               if campaign.winner else None)
    return {
        "slug": campaign.slug, "name": campaign.name, "status": campaign.status,
        "tournament": campaign.tournament.slug, "army_points": campaign.army_points,
        "settings": settings, "planet": campaign.planet or None,
        "sides": {side: (side_view(sides[side], scores[side]) if side in sides else None)
                  for side in grid.SIDES},
        "turn": campaign.current_turn or None,
        "phase": (turn.phase or None) if turn is not None else None,
        "placement_next": next_placer(campaign) if campaign.status in SETTING_UP else None,
        "victory": victory,
    }


def settings_data(campaign: Campaign) -> dict[str, Any]:
    cfg = settings_of(campaign)
    return {"adjacency": cfg.adjacency, "planet_on_eight": cfg.planet_on_eight,
            "territory_scoring": cfg.territory_scoring,
            "battle_points_basis": cfg.battle_points_basis,
            "declaration_mode": cfg.declaration_mode,
            "other_sectors_table": {str(k): v for k, v in sorted(cfg.other_sectors_table.items())}}


def army_view(owner: CampaignSide) -> dict[str, Any]:
    """A side's own detachments (its player and staff only)."""
    return {"side": owner.side, "detachments": [
        {"name": d.name, "points": d.points, "kind": d.kind,
         "supreme_commander": d.supreme_commander, "territory": d.location or None,
         "destroyed": d.destroyed, "units": list(d.units or []),
         "captured_units": list(d.captured_units or [])} for d in owner.detachments.all()]}
