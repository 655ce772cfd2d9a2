"""The set-up part of a player's campaign page, while the campaign is in set-up or placement:
their army (R1–R3), their two majors (R7, G30) and their placements (R10, R11, R13). Only the
side's own player gets it; the forms post to campaigns/views.py, which calls the same
services as the API (``set_army``, ``set_majors``, ``place``).

The placement form offers only what ``place`` accepts (the engine's ``placement_refusal``): the
player's detachments still to place, in their own sector. R10 is checked at the start, not at
each placement, so the page says which majors still need a ground detachment and, once every
detachment left is needed for them, offers only those majors. Nothing here reads an enemy
detachment's name (R12): the enemy side appears by its army's name only."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.engine import map as grid
from campaigns.engine.army import AIR, ArmyReport, DetachmentSpec, Problem, validate_army
from campaigns.engine.placement import first_to_place, placement_refusal, unguarded_majors
from campaigns.engine.state import CampaignState, Detachment
from campaigns.forms import (
    BaseDetachmentFormSet,
    MajorsForm,
    PlacementForm,
    army_formset,
    units_text,
)
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignDetachment, CampaignSide
from campaigns.services.campaign import SETTING_UP, state_of
from campaigns.words import KINDS, SIDES, word


@dataclass(frozen=True)
class Typed:
    """What the player just sent, shown again because it was refused or asked for more rows."""

    army: BaseDetachmentFormSet | None = None
    army_report: ArmyReport | None = None
    majors: MajorsForm | None = None
    placement: PlacementForm | None = None


@dataclass(frozen=True)
class PlacementChoices:
    """What the placement form offers ``side`` now, and what the page says about it."""

    detachments: tuple[tuple[str, str], ...]
    territories: tuple[tuple[str, str], ...]
    unguarded: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)


# The army --------------------------------------------------------------------------------------

def army_editable(campaign: Campaign, mine: Sequence[CampaignDetachment]) -> bool:
    """As ``set_army``: in set-up, until the side's first placement (R2)."""
    return campaign.status in SETTING_UP and not any(row.location for row in mine)


def report_lines(report: ArmyReport, limit: int, saved: bool) -> dict[str, Any]:
    """The army check in plain words, as the API's ``army/validate/`` says it."""
    def said(problems: Sequence[Problem]) -> list[str]:
        return [campaign_message(p.code, p.params) for p in problems]
    return {"total": report.total_points, "limit": limit, "valid": report.valid, "saved": saved,
            "errors": said(report.errors), "warnings": said(report.warnings)}


def stored_report(side: CampaignSide, campaign: Campaign,
                  mine: Sequence[CampaignDetachment]) -> ArmyReport:
    specs = [DetachmentSpec(r.name, r.points, r.kind, r.supreme_commander) for r in mine]
    return validate_army(specs, side.faction, campaign.army_points)


def _army(campaign: Campaign, side: CampaignSide, mine: Sequence[CampaignDetachment],
          typed: Typed) -> dict[str, Any]:
    if not army_editable(campaign, mine):
        return {"form": None, "report": None}
    form = typed.army or army_formset(initial=[
        {"name": r.name, "points": r.points, "kind": r.kind,
         "supreme_commander": r.supreme_commander, "units": units_text(r.units)} for r in mine])
    if typed.army_report is not None:
        report = report_lines(typed.army_report, campaign.army_points, saved=False)
    elif mine:
        report = report_lines(stored_report(side, campaign, mine), campaign.army_points, saved=True)
    else:
        report = None
    return {"form": form, "report": report}


# Majors ----------------------------------------------------------------------------------------

def sector_codes(side: str) -> list[str]:
    return [code for code, t in grid.TERRITORIES.items() if t.home_side == side]


def territory_label(code: str, where: bool = True) -> str:
    """``1: line 3 (rear line)``; short (``where`` false) in the placement select."""
    line = grid.territory(code).line
    label = _("%(code)s: line %(line)s") % {"code": code, "line": line}
    said = _("front line") if line == grid.FRONT else _("rear line") if line == grid.REAR else ""
    return f"{label} ({said})" if said and where else label


def major_choices(side: str) -> list[tuple[str, str]]:
    return [(code, territory_label(code)) for code in sector_codes(side)]


def majors_form(side: CampaignSide, typed: Typed) -> MajorsForm:
    return typed.majors or MajorsForm(codes=major_choices(side.side),
                                      initial={"majors": list(side.majors)})


# Placement -------------------------------------------------------------------------------------

def placement_choices(state: CampaignState, side: str, majors: Sequence[str]) -> PlacementChoices:
    """The detachments and territories ``placement_refusal`` accepts for ``side`` (R11, R13),
    narrowed to the unguarded majors when every detachment left is needed to guard them (R10)."""
    own = sector_codes(side)
    left = [d for d in state.detachments
            if d.side == side and placement_refusal(state, side, d.name, own[0]) is None]
    if not left:
        return PlacementChoices((), ())
    codes = [c for c in own if placement_refusal(state, side, left[0].name, c) is None]
    unguarded = tuple(c for c in unguarded_majors(state) if grid.home_side(c) == side)
    guards = [d for d in left if d.kind != AIR]  # G28: air detachments guard nothing
    notes: list[str] = []
    if len(majors) == grid.MAJORS_PER_SIDE and unguarded:
        words = {"majors": ", ".join(unguarded), "count": len(guards)}
        if len(guards) < len(unguarded):
            notes.append(_("Only %(count)s of your detachments left to place can guard a major, "
                           "and %(majors)s still need one: choose majors where your detachments "
                           "stand, or the campaign cannot start.") % words)
        elif len(guards) == len(unguarded) and len(guards) == len(left):
            notes.append(_("Your detachments left to place are needed on your unguarded majors "
                           "(%(majors)s): only those are offered.") % words)
            codes = [c for c in codes if c in unguarded]
        elif len(guards) == len(unguarded):
            notes.append(_("Your ground detachments left to place are needed on your unguarded "
                           "majors (%(majors)s); air detachments do not guard them.") % words)
    return PlacementChoices(
        tuple((d.name, _detachment_label(d)) for d in left),
        tuple((c, _place_label(c, majors, unguarded)) for c in codes), unguarded, tuple(notes))


def _detachment_label(d: Detachment) -> str:
    label = _("%(name)s (%(points)s points, %(kind)s)") % {
        "name": d.name, "points": d.points, "kind": word(KINDS, d.kind)}
    return label + (", " + _("Supreme Commander") if d.supreme_commander else "")


def _place_label(code: str, majors: Sequence[str], unguarded: Sequence[str]) -> str:
    label = territory_label(code, where=False)
    if code in unguarded:
        return _("%(territory)s, major, no guard yet") % {"territory": label}
    if code in majors:
        return _("%(territory)s, major") % {"territory": label}
    return label


def first_placer(campaign: Campaign, public: Mapping[str, Any]) -> str | None:
    """R11: the side due to place; before the first placement, the lower strategic value (G5:
    equal values are settled by a roll-off at the first placement, so None)."""
    if campaign.placement_first:
        return public["placement_next"]
    values = {side: row["strategic_value"] for side, row in public["sides"].items() if row}
    if len(values) < 2 or values[grid.WEST] == values[grid.EAST]:
        return None
    return first_to_place(values)[0]


def _placement(campaign: Campaign, side: CampaignSide, public: Mapping[str, Any],
               state: CampaignState, typed: Typed) -> dict[str, Any]:
    mine = side.side
    ready = all(public["sides"].get(s) for s in grid.SIDES) and all(
        any(d.side == s for d in state.detachments) for s in grid.SIDES)
    offered = placement_choices(state, mine, side.majors)
    due = first_placer(campaign, public)
    roll_off = ready and due is None and not campaign.placement_first
    my_turn = ready and bool(offered.detachments) and (due == mine or roll_off)
    form = None
    if my_turn:
        form = typed.placement or PlacementForm(detachments=offered.detachments,
                                                territories=offered.territories)
    placed_all = ready and due is None and not roll_off
    return {"ready": ready, "my_turn": my_turn, "form": form, "roll_off": roll_off,
            "notes": offered.notes, "unguarded": offered.unguarded,
            "due": _side_label(public, due) if due and not my_turn else "",
            "nothing_left": ready and not offered.detachments and not placed_all,
            "complete": placed_all}


def _side_label(public: Mapping[str, Any], side: str) -> str:
    row = public["sides"].get(side) or {}
    return _("%(side)s (%(army)s)") % {"side": word(SIDES, side), "army": row.get("army_name", "")}


# The whole set-up part -------------------------------------------------------------------------

def setup_context(campaign: Campaign, side: CampaignSide, mine: Sequence[CampaignDetachment],
                  public: Mapping[str, Any], typed: Typed | None = None) -> dict[str, Any] | None:
    """What the set-up sections show the side's player; None once the campaign runs."""
    if campaign.status not in SETTING_UP:
        return None
    typed = typed or Typed()
    army = _army(campaign, side, mine, typed)
    placement = _placement(campaign, side, public, state_of(campaign), typed)
    todo = []
    if not mine:
        todo.append({"text": _("Enter your army's detachments."), "anchor": "#my-army"})
    if len(side.majors) != grid.MAJORS_PER_SIDE:
        todo.append({"text": _("Choose your two major territories."), "anchor": "#majors"})
    if placement["my_turn"]:
        todo.append({"text": _("Place a detachment: it is your turn."), "anchor": "#placement"})
    # A saved army or pair of majors folds its form away (a long page on a phone); a form sent
    # back to be corrected stays open.
    return {"army_form": army["form"], "army_report": army["report"],
            "army_open": not mine or typed.army is not None,
            "army_limit": campaign.army_points, "majors_form": majors_form(side, typed),
            "majors": list(side.majors), "placement": placement, "todo": todo,
            "majors_open": len(side.majors) != grid.MAJORS_PER_SIDE or typed.majors is not None}
