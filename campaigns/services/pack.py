"""The turn pack of an Epic 40,000 campaign (systems/epic-campaign.md §1.1 "Printed"): the map
(public, and each player's), an order sheet per player, a battle sheet per battle, the turn
report, gathered here into plain data in the campaign's language and laid out by
campaigns/pack_sheets.py.

A turn pack is a ``MissionPack`` of kind ``turn_pack`` on the turn's league round, asked for,
built and served by the mission-pack machinery (printing/services/packs.py): a double click gets
the pack under way, a stale one is superseded, the file is stored atomically and downloaded by
staff from ``mission-packs/{id}/download/``.

Hidden information (R12) is kept as the site keeps it: each player's map is
``campaign_reads.map_seen_by`` for that side (what ``GET map/`` gives them), the public map
shows army names only, an order sheet names its own side's detachments, and the battle sheets
and the turn report name a detachment only once the enemy has seen it (a battle reveals its
detachments to both players). The map is the state of the campaign when the pack is printed.
Infiltrations (R25): each order sheet has the player's own results and the enemy's dice against
them (the page's ``infiltration_lines``); the turn report only what both know: side, territories,
faces and outcomes, never a die's target, and the infiltrating detachment once captured.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from campaigns.drawing import drawing, territory_rows
from campaigns.engine import map as grid
from campaigns.engine.air import CAPTURED
from campaigns.engine.air_missions import PURPOSE_FLAK, PURPOSE_INTERCEPTION
from campaigns.engine.infiltration import PURPOSE as PURPOSE_INFILTRATION
from campaigns.engine.orders import allowances
from campaigns.engine.scoring import PURPOSE_OTHER_SECTORS
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    FORTIFY,
    INFILTRATION,
    INFILTRATION_PHASE,
    MOVE,
    REACTION,
    VEHICLES,
    CampaignState,
)
from campaigns.engine.tools import INITIATIVE_COUNTERS, PHASES, initiative_value
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignReveal,
    CampaignSide,
    CampaignTurn,
)
from campaigns.pack_sheets import (
    AllowanceLine,
    BattleSheet,
    DetachmentLine,
    ForceLine,
    MapPage,
    OrderSheet,
    PhaseBoxes,
    ResultRow,
    RollLine,
    ScoreLine,
    TurnHeader,
    TurnPackContent,
    TurnReport,
)
from campaigns.pages.air import flak_line, interception_line, landing_line, mission_line
from campaigns.pages.campaign import (
    Reader,
    allowance_rows,
    attacks_against,
    infiltration_lines,
    initiative_lines,
    ledger,
    my_army,
    my_orders,
    side_label,
    turn_reports,
)
from campaigns.services import air as campaign_air
from campaigns.services import battles as campaign_battles
from campaigns.services import reads as campaign_reads
from campaigns.services.campaign import require_staff, scores_of, sides_of, state_of
from campaigns.services.dice import ENTERED
from campaigns.services.turns import turn_of
from campaigns.words import INFILTRATION_OUTCOMES, PLANETS, SIDES, phase_name, word
from events.audit import Actor
from events.models import Game, Round
from printing.models import MissionPack
from printing.services import packs


def request_turn_pack(actor: Actor, campaign: Campaign, number: int) -> MissionPack:
    """Print turn ``number``'s pack in the background (staff). 404 ``turn_not_found`` for a
    turn not opened yet; a second request while one builds gets that one."""
    require_staff(actor)
    turn_of(campaign, number)
    return packs.request_pack(actor, campaign.tournament, number, kind=MissionPack.Kind.TURN_PACK)


def turn_packs(campaign: Campaign, limit: int = 5) -> list[MissionPack]:
    """The latest turn packs of ``campaign``, newest first (the cockpit lists them)."""
    return list(MissionPack.objects.filter(
        round__campaign_turn__campaign=campaign, kind=MissionPack.Kind.TURN_PACK,
    ).select_related("round")[:limit])


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


# --- the pack ----------------------------------------------------------------------------------

def turn_pack_content(round_: Round) -> TurnPackContent:
    """Everything turn ``round_``'s pack prints, in the campaign's language."""
    turn = CampaignTurn.objects.select_related("campaign__tournament").get(round=round_)
    campaign = turn.campaign
    with translation.override(campaign.tournament.language):
        public = campaign_reads.campaign_view(campaign)
        sides = sides_of(campaign)
        state = state_of(campaign, turn)
        reader = both_players(campaign)
        battles = list(turn.battles.select_related("game").order_by("pk"))
        points = {(row.side.side, row.name): row.points for row in CampaignDetachment.objects.filter(
            side__campaign=campaign).select_related("side")}
        return TurnPackContent(
            header=header(campaign, turn),
            maps=map_pages(campaign, sides, turn),
            orders=tuple(order_sheet(sides[side], state, turn) for side in grid.SIDES
                         if side in sides),
            battles=tuple(battle_sheet(campaign, b, public, sides, points)
                          for b in battles if b.contested),
            battles_note=battles_note(turn, battles),
            report=turn_report(campaign, turn, public, reader, battles),
        )


def header(campaign: Campaign, turn: CampaignTurn) -> TurnHeader:
    state = (gettext("closed") if turn.closed_at is not None
             else gettext("now: %(phase)s") % {"phase": phase_name(turn.phase)})
    return TurnHeader(
        language=campaign.tournament.language, campaign=campaign.name, turn=turn.number,
        planet=word(PLANETS, campaign.planet) if campaign.planet else "",
        date=date_format(timezone.localdate(), "DATE_FORMAT"), state=state)


# --- maps (R6–R8, R12) -----------------------------------------------------------------------------

def map_html(campaign: Campaign, viewer: str | None, map_id: str,
             turn: CampaignTurn | None = None) -> str:
    """The campaign page's map, drawn for ``viewer`` (campaign_reads.map_seen_by); a closed
    ``turn``'s as that turn left it."""
    closed = turn if turn is not None and turn.closed_at is not None else None
    territories = campaign_reads.map_seen_by(campaign, viewer, turn, closed=closed)
    return render_to_string("league/campaign_map.html", {
        "drawing": drawing(territories), "territory_rows": territory_rows(territories),
        "map_id": map_id})


def map_pages(campaign: Campaign, sides: Mapping[str, CampaignSide],
              turn: CampaignTurn | None = None) -> tuple[MapPage, ...]:
    pages = [MapPage(gettext("Public map"),
                     gettext("Counters show army names only: a detachment's name stays hidden."),
                     map_html(campaign, campaign_reads.PUBLIC, "map-public", turn))]
    for side in grid.SIDES:
        if side not in sides:
            continue
        words = {"player": sides[side].player.name, "side": word(SIDES, side)}
        pages.append(MapPage(
            gettext("Map of %(player)s (%(side)s)") % words,
            gettext("For %(player)s only: their own detachments by name; enemy detachments by "
                    "name once a battle or an infiltration revealed them, else by army name.")
            % words,
            map_html(campaign, side, f"map-{side}", turn)))
    return tuple(pages)


# --- order sheets (R16, G6, R19–R29, R34) ----------------------------------------------------------

def where_line(code: str) -> str:
    place = grid.territory(code)
    return gettext("%(code)s, %(side)s line %(line)s") % {
        "code": code, "side": word(SIDES, place.home_side), "line": place.line}


def allowance_lines(state: CampaignState, side: str) -> tuple[AllowanceLine, ...]:
    """The page's allowance rows, with the regular actions already used and each unused
    Supreme Commander's extra action, for a detachment of the commander's line (R26, R28)."""
    engine = allowances(state, side)
    lines = []
    for row in allowance_rows(state, side):
        commanders = [gettext("%(name)s, for a detachment in its line (%(where)s)") % {
            "name": name, "where": where_line(state.detachment(side, name).location)}
            for name in row["commanders"]]
        lines.append(AllowanceLine(row["label"], row["limit"], engine[row["kind"]].used,
                                   row["left"], "; ".join(commanders)))
    return tuple(lines)


def orders_of(state: CampaignState, side: str, kinds: Sequence[str]) -> tuple[str, ...]:
    """The side's accepted orders of ``kinds``, in the words of the player's page."""
    return tuple(my_orders(replace(state, orders=state.accepted(side, kinds)), side))


def infiltrators_ready(state: CampaignState, side: str) -> tuple[str, ...]:
    """R25: the side's detachments that may still infiltrate this turn, as the engine checks
    them: on the map, not isolated, with infiltrator units, not infiltrated yet."""
    used = {name for a in state.accepted(side, (INFILTRATION,)) for name in a.order.detachments}
    return tuple(d.name for d in state.detachments
                 if d.side == side and d.on_map and d.infiltrators
                 and d.location not in state.isolated and d.name not in used)


def phase_boxes(state: CampaignState, side: str) -> tuple[PhaseBoxes, ...]:
    """Per phase, the orders accepted so far and an empty box for each action left."""
    left = allowances(state, side)
    commander = gettext("Supreme Commander")
    flown = orders_of(state, side, (AIR_MISSION,))
    air = sum(1 for d in state.detachments if d.side == side and d.on_map and d.kind == "air")
    air = max(air - len(flown), 0)
    against = ", ".join(f"{a['from']} → {a['to']}" for a in attacks_against(state, side))

    def boxes(kind: str) -> tuple[str, ...]:
        return ("",) * left[kind].left + (commander,) * len(left[kind].commanders_left)

    return (
        PhaseBoxes(phase_name("air").capitalize(),
                   gettext("One mission per air detachment (infiltration, interception, "
                           "transport or ground attack, escort) and its route."),
                   flown, ("",) * air),
        PhaseBoxes(phase_name("infiltration").capitalize(),
                   gettext("A detachment with infiltrators, from an adjacent territory: the "
                           "target territory."),
                   orders_of(state, side, (INFILTRATION,)), infiltrators_ready(state, side)),
        PhaseBoxes(gettext("Moves and fortifications"),
                   gettext("One detachment into an adjacent territory you hold; a fortification "
                           "uses a move. Majors always keep a detachment."),
                   orders_of(state, side, (MOVE, FORTIFY, VEHICLES)), boxes(MOVE)),
        PhaseBoxes(gettext("Attacks"),
                   gettext("The detachments of one territory against one adjacent enemy "
                           "territory, within the lines of resistance."),
                   orders_of(state, side, (ATTACK,)), boxes(ATTACK)),
        PhaseBoxes(gettext("Reactions"),
                   (gettext("One detachment not under attack, adjacent to the attacked "
                            "territory or in its line. Attacks against you so far: %(list)s.")
                    % {"list": against or "—"}),
                   orders_of(state, side, (REACTION,)), boxes(REACTION)),
    )


def own_infiltrations(turn: CampaignTurn, owner: CampaignSide) -> tuple[str, ...]:
    """The turn's infiltrations as ``owner``'s player reads them on their page (R12): their own
    dice and outcomes, the enemy's dice against them, the enemy detachment named on a 1."""
    return tuple(infiltration_text(line) for line in infiltration_lines(turn, Reader(Actor(), owner)))


def infiltration_text(line: Mapping[str, Any]) -> str:
    text = f"{line['title']}: {'; '.join(line['dice']) or gettext('no enemy detachment there')}"
    if line["captured"]:
        text += " · " + gettext("captured: %(units)s") % {"units": line["captured"]}
    return text


def order_sheet(owner: CampaignSide, state: CampaignState, turn: CampaignTurn) -> OrderSheet:
    side = owner.side
    isolated = tuple(code for code in grid.CODES
                     if code in state.isolated and state.control.get(code) == side)
    lines = []
    for d in my_army(owner):
        notes = [gettext("Supreme Commander")] if d.row.supreme_commander else []
        if d.row.location and d.row.location in isolated and not d.row.destroyed:
            notes.append(gettext("isolated"))
        notes += d.seen_by_enemy
        lines.append(DetachmentLine(d.row.name, d.row.points, d.kind, d.where, "; ".join(notes)))
    return OrderSheet(
        side=word(SIDES, side), player=owner.player.name, army=owner.army_name,
        strategic_value=owner.strategic_value,
        initiative_value=initiative_value(owner.strategic_value),
        allowances=allowance_lines(state, side), isolated=isolated, detachments=tuple(lines),
        phases=phase_boxes(state, side), infiltrations=own_infiltrations(turn, owner))


# --- battle sheets (R17, R28–R32, G12–G14) --------------------------------------------------------

def fortifications_text(count: int) -> str:
    if not count:
        return gettext("no fortification")
    return ngettext("%(count)d bunker or trench, 15 × 15 cm at most",
                    "%(count)d bunkers or trenches, 15 × 15 cm at most each", count) % {
        "count": count}


def battle_status(battle: CampaignBattle, public: Mapping[str, Any]) -> tuple[str, str]:
    """(status in words, winner in words or "" while the result is not confirmed)."""
    if not campaign_battles.confirmed(battle):
        return str(Game.Status(battle.game.status).label), ""
    winner = campaign_battles.winner_side(battle)
    shown = side_label(public, winner) if winner else gettext("draw")
    return gettext("confirmed"), shown


def battle_sheet(campaign: Campaign, battle: CampaignBattle, public: Mapping[str, Any],
                 sides: Mapping[str, CampaignSide], points: Mapping[tuple[str, str], int]
                 ) -> BattleSheet:
    """One battle's sheet; ``points`` of each detachment by (side, name)."""
    isolated = set(battle.isolated)
    isolated_note = gettext("isolated")

    def forces(side: str, names: Sequence[str]) -> tuple[ForceLine, ...]:
        return tuple(ForceLine(n, points.get((side, n)), isolated_note if n in isolated else "")
                     for n in names)

    def who(side: str) -> str:
        return f"{side_label(public, side)}, {sides[side].player.name}"

    status, winner = battle_status(battle, public)
    facts = (battle.game.outcome or {}).get("campaign", {}) if winner else {}
    rows = []
    for side, names in ((battle.attacker, battle.attackers),
                        (battle.defender, battle.defender_deployed + battle.defender_reserves)):
        for name in names:
            after = (gettext("stays") if name in battle.stay else
                     gettext("retreats to %(code)s") % {"code": battle.retreat_to[name]}
                     if name in battle.retreat_to else "")
            rows.append(ResultRow(name, word(SIDES, side), name in facts.get("swept", ()),
                                  name in facts.get("destroyed", ()), after))
    place = grid.territory(battle.territory)
    majors = {code for row in sides.values() for code in row.majors}
    where = [gettext("%(side)s line %(line)s") % {"side": word(SIDES, place.home_side),
                                                   "line": place.line}]
    if battle.territory in majors:
        where.append(gettext("major"))
    if battle.fortifications:
        where.append(gettext("fortified"))
    return BattleSheet(
        territory=battle.territory, where=", ".join(where),
        planet=word(PLANETS, campaign.planet) if campaign.planet else "",
        table=battle.game.table, status=status, attacker=who(battle.attacker),
        defender=who(battle.defender), attackers=forces(battle.attacker, battle.attackers),
        attacker_points=battle.attacker_points,
        deployed=forces(battle.defender, battle.defender_deployed),
        reserves=forces(battle.defender, battle.defender_reserves),
        defender_points=battle.defender_points,
        fortifications=fortifications_text(battle.fortifications),
        counters=(INITIATIVE_COUNTERS["attacker"], INITIATIVE_COUNTERS["defender"]),
        at_stake=(int(battle.at_stake.get("attacker", 0)), int(battle.at_stake.get("defender", 0))),
        isolated=tuple(n for n in battle.attackers + battle.defender_deployed
                       + battle.defender_reserves if n in isolated),
        winner=winner, rows=tuple(rows))


def battles_note(turn: CampaignTurn, battles: Sequence[CampaignBattle]) -> str:
    if any(b.contested for b in battles):
        return ""
    if turn.phase not in (campaign_battles.BATTLES_PHASE, "closed"):
        return gettext("The battles are drawn up once the attacks and reactions are declared: "
                       "print the pack again then for their sheets.")
    return gettext("No battle was fought this turn.")


# --- turn report (R15, R33–R40, G20) ---------------------------------------------------------------

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
