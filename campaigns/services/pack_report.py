"""The turn report of an Epic 40,000 campaign's turn pack (R15, R33–R40, G20): the turn's dice,
its battles, isolation, infiltrations and air, named only as both players know them (R12);
gathered for campaigns/services/pack.py and laid out by campaigns/pack_sheets.py."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from campaigns.air_rows import flak_line, interception_line, landing_line, mission_line
from campaigns.engine import map as grid
from campaigns.engine.air import CAPTURED
from campaigns.engine.air_missions import PURPOSE_FLAK, PURPOSE_INTERCEPTION
from campaigns.engine.infiltration import PURPOSE as PURPOSE_INFILTRATION
from campaigns.engine.scoring import PURPOSE_OTHER_SECTORS
from campaigns.engine.state import INFILTRATION_PHASE
from campaigns.engine.tools import PHASES
from campaigns.models import Campaign, CampaignBattle, CampaignReveal, CampaignTurn
from campaigns.pack_sheets import RollLine, ScoreLine, TurnReport
from campaigns.rows import Reader, initiative_lines, ledger, side_label, turn_reports
from campaigns.services import air as campaign_air
from campaigns.services import battles as campaign_battles
from campaigns.services.campaign import scores_of
from campaigns.services.dice import ENTERED
from campaigns.words import INFILTRATION_OUTCOMES, SIDES, phase_name, word
from events.audit import Actor
from events.models import Game

# --- who reads the shared parts ---------------------------------------------------------------

@dataclass(frozen=True)
class BothPlayers(Reader):
    """The reader of the parts handed to both players: a detachment is named once its enemy
    has seen it (R12), so neither player learns anything new from the other's sheet."""

    seen: frozenset[tuple[str, str]] = frozenset()

    @property
    def insider(self) -> bool:
        return True

    def knows(self, side: str, name: str) -> bool:
        return (side, name) in self.seen


def both_players(campaign: Campaign) -> BothPlayers:
    seen = CampaignReveal.objects.filter(detachment__side__campaign=campaign,
                                         level=CampaignReveal.FULL).values_list(
        "detachment__side__side", "detachment__name")
    return BothPlayers(Actor(), None, seen=frozenset(seen))


def battle_status(battle: CampaignBattle, public: Mapping[str, Any]) -> tuple[str, str]:
    """(status in words, winner in words or "" while the result is not confirmed)."""
    if not campaign_battles.confirmed(battle):
        return str(Game.Status(battle.game.status).label), ""
    winner = campaign_battles.winner_side(battle)
    shown = side_label(public, winner) if winner else gettext("draw")
    return gettext("confirmed"), shown


def battles_note(turn: CampaignTurn, battles: Sequence[CampaignBattle]) -> str:
    if any(b.contested for b in battles):
        return ""
    if turn.phase not in (campaign_battles.BATTLES_PHASE, "closed"):
        return gettext("The battles are drawn up once the attacks and reactions are declared: "
                       "print the pack again then for their sheets.")
    return gettext("No battle was fought this turn.")



def roll_purpose(purpose: str) -> str:
    prefix = "epic.initiative."
    if purpose.startswith(prefix):
        return gettext("Initiative: %(phase)s") % {"phase": phase_name(purpose[len(prefix):])}
    if purpose == PURPOSE_OTHER_SECTORS:
        return gettext("Other sectors")
    if purpose == PURPOSE_INFILTRATION:
        return gettext("Infiltration")
    if purpose == PURPOSE_FLAK:
        return gettext("Flak")
    if purpose == PURPOSE_INTERCEPTION:
        return gettext("Interception of a landing")
    return purpose


def air_rolls(turn: CampaignTurn) -> list[dict[str, Any]]:
    """R21, R14: each Flak die (rolled for the Flak's side) and each landing interception die
    (for the intercepting side), as the turn keeps them."""
    out: list[dict[str, Any]] = []
    for entry in turn.air or []:
        if entry.get("kind") == "mission":
            out += [{"purpose": PURPOSE_FLAK, "expression": "1D6", "dice": [f["die"]],
                     "total": f["die"], "side": f["side"], "source": entry.get("source")}
                    for f in entry["flak"]]
        else:
            out += [{"purpose": PURPOSE_INTERCEPTION, "expression": "1D6", "dice": [d["die"]],
                     "total": d["die"], "side": entry["interceptor_side"],
                     "source": entry.get("source")} for d in entry["dice"]]
    return out


def shared_air(campaign: Campaign, turn: CampaignTurn) -> tuple[str, ...]:
    """What both players know of the air phase (R12, R19): each mission's kind and route, the
    Flak dice, who may intercept whom, each landing interception's dice; no detachment name."""
    seen = campaign_air.air_view(campaign, turn, campaign_air.BOTH)
    return tuple([mission_line(m) for m in seen["missions"]]
                 + [flak_line(r) for r in seen["flak"]]
                 + [interception_line(i) for i in seen["interceptions"]]
                 + [landing_line(e) for e in seen["landings"]])


def infiltration_rolls(turn: CampaignTurn) -> list[dict[str, Any]]:
    """R25: each infiltration die as a roll of the infiltrating side (their dice log is the
    audit's; the turn keeps the faces and where they were thrown)."""
    return [{"purpose": PURPOSE_INFILTRATION, "expression": "1D6", "dice": [die["die"]],
             "total": die["die"], "side": entry["side"], "source": entry.get("source")}
            for entry in turn.infiltrations or [] for die in entry["dice"]]


def roll_lines(turn: CampaignTurn) -> tuple[RollLine, ...]:
    """Every roll of the turn, in order: each phase's initiative, then the close's dice. The
    close logs only the dice Muster threw; a face entered for a side's other sectors (R40) is
    kept in the close's answer, and printed from there."""
    report = turn.report or {}
    logged = []
    for phase in PHASES:
        logged += (turn.initiative or {}).get(phase, {}).get("dice_log", [])
        if phase == INFILTRATION_PHASE:  # resolved before the next phase's initiative
            logged += air_rolls(turn) + infiltration_rolls(turn)  # R21: Flak first
    logged += report.get("dice_log", [])
    thrown = {roll.get("side") for roll in logged if roll.get("purpose") == PURPOSE_OTHER_SECTORS}
    logged += [{"purpose": PURPOSE_OTHER_SECTORS, "expression": "1D6", "dice": [sector["die"]],
                "total": sector["die"], "side": side, "source": ENTERED}
               for side, sector in report.get("other_sectors", {}).items() if side not in thrown]
    return tuple(RollLine(
        purpose=roll_purpose(roll.get("purpose", "")), side=word(SIDES, roll.get("side")),
        dice=f"{roll.get('expression', '')}: {' + '.join(str(d) for d in roll.get('dice', ()))}",
        total=roll.get("total"),
        source=gettext("at the table") if roll.get("source") == ENTERED else gettext("by Muster"))
        for roll in logged)


def battle_lines(battles: Sequence[CampaignBattle], public: Mapping[str, Any]) -> tuple[str, ...]:
    lines = []
    for b in battles:
        words = {"territory": b.territory, "attacker": side_label(public, b.attacker),
                 "defender": side_label(public, b.defender)}
        if not b.contested:
            lines.append(gettext("%(territory)s: taken by %(attacker)s without a battle "
                                 "(undefended).") % words)
            continue
        status, winner = battle_status(b, public)
        result = (gettext("winner: %(winner)s") % {"winner": winner} if winner else status)
        lines.append(gettext("%(territory)s: %(attacker)s attacks %(defender)s; %(result)s.")
                     % {**words, "result": result})
    return tuple(lines)


def isolation_lines(campaign: Campaign, turn: CampaignTurn,
                    closed: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Isolated this turn (R33, computed at the previous close) and, once closed, next turn."""
    lines = []
    if closed is None:
        codes = [c for c in grid.CODES if c in set(campaign.isolated)]
        if codes:
            lines.append(gettext("Isolated this turn: %(codes)s.") % {"codes": ", ".join(codes)})
    elif closed["isolated"]:
        lines.append(gettext("Isolated next turn: %(codes)s.")
                     % {"codes": ", ".join(closed["isolated"])})
    return tuple(lines)


def shared_infiltrations(turn: CampaignTurn, public: Mapping[str, Any]) -> tuple[str, ...]:
    """What both players know of each infiltration (R12): the side, the territories, each
    die's face and outcome. The dice's targets and what a 6 or a 5 showed stay on the
    players' own sheets; the infiltrating detachment is named only once its infiltrators
    were captured, when the enemy learnt it, with the units taken."""
    lines = []
    for entry in turn.infiltrations or []:
        captured = any(d["outcome"] == CAPTURED for d in entry["dice"])
        words = {"side": side_label(public, entry["side"]), "to": entry["to"],
                 "from": entry["from"], "detachment": entry["detachment"]}
        text = (gettext("%(side)s infiltrated %(to)s from %(from)s with %(detachment)s") % words
                if captured else
                gettext("%(side)s infiltrated %(to)s from %(from)s") % words)
        dice = "; ".join(f"{d['die']}: {word(INFILTRATION_OUTCOMES, d['outcome'])}"
                         for d in entry["dice"])
        text += ": " + (dice or gettext("no enemy detachment there"))
        if captured and entry["captured"]:
            text += " · " + gettext("captured: %(units)s") % {
                "units": ", ".join(u["name"] for u in entry["captured"])}
        lines.append(text)
    return tuple(lines)


def turn_report(campaign: Campaign, turn: CampaignTurn, public: Mapping[str, Any],
                reader: BothPlayers, battles: Sequence[CampaignBattle]) -> TurnReport:
    """The closed turn's report as the players' page gives it, read by both players; an open
    turn's report says so and gives what is known: rolls, battles, ledger lines so far."""
    closed = next((r for r in turn_reports(campaign, reader, public)
                   if r["number"] == turn.number), None) if turn.closed_at else None
    score = (closed["scores"] if closed is not None
             else {word(SIDES, s): v for s, v in scores_of(campaign).items()})
    totals = tuple(gettext("%(side)s: %(score)s of %(target)s") % {
        "side": side, "score": value, "target": campaign.victory_score}
        for side, value in score.items())
    lines = [row for row in reversed(ledger(campaign, reader)) if row["turn"] == turn.number]
    initiative = tuple(gettext("%(phase)s: %(rolls)s; %(winner)s chooses who acts first.") % {
        "phase": line["phase"].capitalize(), "rolls": ", ".join(line["rolls"]),
        "winner": line["winner"]} for line in initiative_lines(turn, public))
    note = "" if closed is not None else gettext(
        "Turn %(number)s is not closed yet (now: %(phase)s): this report gives what is known "
        "so far.") % {"number": turn.number, "phase": phase_name(turn.phase)}
    return TurnReport(
        closed=closed is not None, note=note, rolls=roll_lines(turn), initiative=initiative,
        infiltrations=shared_infiltrations(turn, public),
        air=shared_air(campaign, turn),
        battles=battle_lines(battles, public),
        control_changes=tuple(closed["changes"]) if closed else (),
        isolated=isolation_lines(campaign, turn, closed),
        relocations=tuple(closed["moves"]) if closed else (),
        score_lines=tuple(ScoreLine(r["side"], r["kind"], r["subject"], r["points"])
                          for r in lines),
        other_sectors=tuple(closed["sectors"]) if closed else (),
        totals=totals, victory=closed["victory"] if closed else "")
