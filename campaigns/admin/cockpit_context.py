"""What the campaign cockpit shows (systems/epic-campaign.md §1.1 and §1.7): the set-up
checklist, the phase stepper, the whole map, this turn's orders, the battles and their report
status, the score ledger and the turn packs, with the forms of its buttons."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.admin import air as campaign_air
from campaigns.admin.forms import (
    ArmyForm,
    CloseForm,
    ForceOrderForm,
    InfiltrationsForm,
    InitiativeForm,
    MajorsForm,
    PlacementForm,
    PlanetForm,
    ScoreEntryForm,
    SideForm,
    army_text,
)
from campaigns.drawing import drawing, territory_rows
from campaigns.engine import map as grid
from campaigns.engine.declaration import SEALED
from campaigns.engine.state import ATTACKS_PHASE, INFILTRATION_PHASE
from campaigns.engine.tools import PHASES
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignBattle, CampaignDetachment
from campaigns.rows import Reader, infiltration_lines
from campaigns.services import battles as campaign_battles
from campaigns.services import campaign as campaigns
from campaigns.services import declarations as campaign_declarations
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import overrides as campaign_overrides
from campaigns.services import pack as campaign_pack
from campaigns.services import reads as campaign_reads
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import SETTING_UP
from campaigns.words import ORDER_KINDS, PLANETS, SCORE_KINDS, SIDES, phase_name, word
from events.audit import Actor


def placeable(c: Campaign) -> list[tuple[str, str]]:
    """Detachments still to place (R13: airborne ones start off the map), as ``side|name``."""
    rows = CampaignDetachment.objects.filter(side__campaign=c, location="", destroyed=False).exclude(
        kind="airborne").select_related("side").order_by("-side__side", "position")
    return [(f"{r.side.side}|{r.name}", f"{word(SIDES, r.side.side)}: {r.name} ({r.points})")
            for r in rows]


def checklist(public: dict[str, Any], sides: dict[str, Any], c: Campaign) -> list[dict[str, Any]]:
    """The set-up steps in the seed's order (R1–R11, G2, G30) and whether each is done."""
    armies = all(side in sides and sides[side].detachments.exists() for side in grid.SIDES)
    majors = all(side in sides and len(sides[side].majors) == 2 for side in grid.SIDES)
    started = c.status not in SETTING_UP
    unplaced = bool(placeable(c)) if not started else False
    return [
        {"label": _("Two sides with a player, an army name and a strategic value"),
         "done": len(sides) == 2},
        {"label": _("Both armies (R1–R3)"), "done": armies},
        {"label": _("Planet (R5)"), "done": bool(c.planet)},
        {"label": _("Two majors per side (R7, G30)"), "done": majors},
        {"label": _("Every detachment placed (R11)"), "done": started or (armies and not unplaced)},
        {"label": _("Started"), "done": started},
    ]


def battle_rows(c: Campaign) -> list[dict[str, Any]]:
    turn = campaigns.current_turn(c)
    number = turn.number if turn else 0
    rows = CampaignBattle.objects.filter(turn__campaign=c, turn__number__gte=number - 1).select_related(
        "game", "turn").order_by("-turn__number", "pk")
    out = []
    for b in rows:
        winner = campaign_battles.winner_side(b) if campaign_battles.confirmed(b) else None
        out.append({"battle": b, "winner": word(SIDES, winner) if winner else "",
                    "game_url": reverse("admin:league_game_change", args=[b.game_id]) if b.game_id else "",
                    "status": b.game.get_status_display() if b.game else _("captured, no battle")})
    return out


def declaring_line(c: Campaign, turn: Any) -> dict[str, Any]:
    """G11: the open phase's declaring, and whether the sealed attacks may be revealed now."""
    view = campaign_declarations.declarations_view(c, turn)
    sealed = view["mode"] == SEALED
    return {
        "text": (_("Sealed orders.") if sealed else _("Orders in turn, one each.")),
        "first": word(SIDES, view["first"]) if view["first"] else "",
        "ready": [word(SIDES, s) for s in view["ready"]],
        "next": word(SIDES, view["next"]) if view["next"] else "",
        "deadline": campaign_declarations.deadline_of(turn),
        "may_reveal": sealed and turn.phase == ATTACKS_PHASE and not view["revealed"],
    }


def cockpit_context(request: HttpRequest, c: Campaign) -> dict[str, Any]:
    actor = Actor.of(request)
    public = campaign_reads.campaign_view(c)
    sides = campaigns.sides_of(c)
    turn = campaigns.current_turn(c) if c.status == Campaign.Status.RUNNING else None
    context: dict[str, Any] = {
        "campaign": c, "public": public, "sides": sides, "checklist": checklist(public, sides, c),
        "setting_up": c.status in SETTING_UP, "turn": turn,
        "planet": word(PLANETS, c.planet) if c.planet else "",
        "side_form": SideForm(auto_id="id_newside_%s"),
        "planet_form": PlanetForm(auto_id="id_planet_%s"),
        "army_forms": {s: ArmyForm(initial={"side": s, "detachments": army_text(
            sides[s].detachments.all() if s in sides else ())}, auto_id=f"id_{s}_%s")
            for s in grid.SIDES},
        "majors_forms": {s: MajorsForm(initial={"side": s}, auto_id=f"id_{s}_%s")
                         for s in grid.SIDES},
        "placement_form": (PlacementForm(detachments=placeable(c), auto_id="id_place_%s")
                           if c.status in SETTING_UP else None),
        "ledger": [{"entry": e, "kind": word(SCORE_KINDS, e.kind)}
                   for e in c.score_entries.order_by("-turn", "-pk")],
        "totals": campaigns.scores_of(c), "score_form": ScoreEntryForm(auto_id="id_score_%s"),
        "battles": battle_rows(c),
        "turn_packs": [{"pack": pack, "url": reverse("admin:printing_missionpack_change",
                                                     args=[pack.pk])}
                       for pack in campaign_pack.turn_packs(c)],
    }
    if c.status != Campaign.Status.SETUP:  # from the first placement on
        territories = campaign_reads.map_view(actor, c)
        context.update(drawing=drawing(territories), territory_rows=territory_rows(territories))
    if turn is not None:
        done = campaign_turns.phase_index(turn.phase)
        forced = campaign_overrides.forced_ids(c, turn)
        state = campaigns.state_of(c, turn)
        waiting = turn.phase == INFILTRATION_PHASE and bool(
            campaign_infiltrations.pending(state, turn))
        context.update(
            phase=phase_name(turn.phase),
            next_phases=[(p, phase_name(p)) for p in PHASES[done + 1:]],
            initiative_form=InitiativeForm(auto_id="id_initiative_%s"),
            close_form=CloseForm(auto_id="id_close_%s"),
            orders=[{"order": o, "kind": word(ORDER_KINDS, o.kind), "forced": o.pk in forced,
                     "refusal": (campaign_message(o.refusal_code, o.refusal_params)
                                 if o.refusal_code else "")}
                    for o in turn.orders.order_by("pk")],
            declaring=declaring_line(c, turn),
            force_form=ForceOrderForm(auto_id="id_force_%s"), may_generate=turn.phase == "attacks",
            orders_open=turn.phase != campaign_battles.BATTLES_PHASE,
            infiltrations_form=InfiltrationsForm(auto_id="id_infiltrations_%s") if waiting else None,
            infiltrations=infiltration_lines(turn, Reader(actor, None)),
            **campaign_air.cockpit(c, turn, state))  # R13, R14, R19–R24
    return context
