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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, BinaryIO

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from campaigns.drawing import drawing, territory_rows
from campaigns.engine import map as grid
from campaigns.engine.orders import allowances
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    FORTIFY,
    INFILTRATION,
    MOVE,
    REACTION,
    VEHICLES,
    CampaignState,
)
from campaigns.engine.tools import INITIATIVE_COUNTERS, initiative_value
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
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
    TurnHeader,
    TurnPackContent,
    render_turn_pack,
)
from campaigns.rows import (
    Reader,
    allowance_rows,
    attacks_against,
    infiltration_lines,
    my_army,
    my_orders,
    side_label,
)
from campaigns.services import reads as campaign_reads
from campaigns.services.campaign import require_staff, sides_of, state_of
from campaigns.services.pack_report import battle_status, battles_note, both_players, turn_report
from campaigns.services.turns import turn_of
from campaigns.words import PLANETS, SIDES, phase_name, word
from config.typography import elide
from events.audit import Actor
from events.errors import Invalid
from events.models import Round
from printing import renderers
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
            elide(gettext("Map of %(player)s (%(side)s)") % words),
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


def turn_pack_renderer(pack: MissionPack, chunk: int,
                       progress: Callable[[int, int], None]) -> Callable[[BinaryIO], int]:
    turn = turn_pack_content(pack.round)
    return lambda out: render_turn_pack(turn, out, progress=progress)


def check_turn_round(round_: Round) -> None:
    """Only a campaign turn's round has a turn pack."""
    if not hasattr(round_, "campaign_turn"):
        raise Invalid(_("Only a campaign turn has a turn pack."), "pack_kind_unknown")


def register() -> None:
    """The turn pack's renderer, for the pack builder (CampaignsConfig.ready)."""
    renderers.register(MissionPack.Kind.TURN_PACK, turn_pack_renderer, check_turn_round)
