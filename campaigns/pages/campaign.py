"""What the campaign page shows, and to whom (campaigns/views.py posts its forms; the rows the
turn pack and the notices print as well are in campaigns/rows.py).

Everything comes from the campaign services: the public campaign and score
(``campaign_reads.campaign_view``), the map under hidden information (``map_view``: the reader
sees what the API would show them, R12), the engine's state, allowances and order checks, the
battles and the retreat options (``campaign_battles``). The page adds one rule of its own for
the names it prints outside the map: a detachment's name appears only to staff, to its owner,
or to an enemy it was revealed to (the same ``CampaignReveal`` rows the map reads). A visitor who
is not a participant gets the public parts only: sides, score, turn and phase.

While the campaign is in set-up, the side's player also gets their army, majors and placement
forms (campaigns/pages/setup.py).

Queries do not grow with the armies or the turns played: a fixed set of reads, plus the
retreat options of a battle the reader must still choose for."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from campaigns.choices import Choice, choices
from campaigns.drawing import drawing, territory_rows
from campaigns.engine import map as grid
from campaigns.engine.declaration import SEALED
from campaigns.engine.state import ATTACKS_PHASE, PHASE_KINDS, CampaignState
from campaigns.engine.tools import INITIATIVE_COUNTERS
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignSide,
    CampaignTurn,
)
from campaigns.pages.air import air_lines
from campaigns.pages.setup import Typed, setup_context
from campaigns.rows import (
    DetachmentRow,
    Reader,
    allowance_rows,
    attacks_against,
    infiltration_lines,
    initiative_lines,
    ledger,
    my_army,
    my_orders,
    reader_of,
    revealed_enemies,
    side_label,
    turn_reports,
)
from campaigns.services import battles as campaign_battles
from campaigns.services import declarations as campaign_declarations
from campaigns.services import order_numbers
from campaigns.services import reads as campaign_reads
from campaigns.services.campaign import current_turn
from campaigns.words import (
    PLANETS,
    SIDES,
    VICTORY_REASONS,
    phase_name,
    word,
)
from events.audit import Actor
from events.models import Game, Report
from events.services import factions

OPEN = (Report.Status.REPORTED, Report.Status.DISPUTED)


# Allowances and orders ------------------------------------------------------------------------

def order_forms(state: CampaignState, side: CampaignSide, army: Sequence[DetachmentRow],
                public: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
    """One form per kind of the open phase, offering only what ``check_order`` accepts."""
    ids = {d.row.name: d.row.pk for d in army}
    titles = {"infiltration": _("Infiltrate an enemy territory"), "move": _("Move a detachment"), "fortify": _("Fortify a territory"),
              "attack": _("Attack"), "reaction": _("React to an attack"),
              "air_mission": _("Give an air detachment its mission"),
              "vehicles": _("Bring a landed detachment's vehicles down")}
    helps = {
        "infiltration": _("A detachment with infiltrator units looks into an adjacent enemy "
                          "territory: one die per enemy detachment there, 6 shows its sheet, "
                          "5 its war engines, 1 loses the infiltrators and shows your detachment."),
        "move": _("Into an adjacent territory you hold."),
        "fortify": _("Uses one move; the territory is fortified if you still hold it at the end of the turn."),
        "attack": _("Detachments of one territory attack one adjacent enemy territory."),
        "reaction": _("One detachment joins the defence of a territory under attack."),
        "air_mission": _("One mission per air detachment this turn, flying the shortest route "
                         "(the enemy is told the mission and route, not the detachment). Flak "
                         "and interception dice are rolled after; the fights are played with "
                         "the Epic rules."),
        "vehicles": _("Uses one move, in a turn after the landing."),
    }
    offered: dict[str, list[Choice]] = choices(state, side.side, ids, public)
    return [{"kind": kind, "title": titles[kind], "help": helps[kind], "choices": found}
            for kind, found in offered.items()]


def declaring(campaign: Campaign, turn: CampaignTurn, reader: Reader) -> dict[str, Any]:
    """G11: how this phase's orders are declared, what the reader owes in it and may do about it.
    Everything here is public (``declarations_view``) or the reader's own: who goes first is said
    once the initiative winner chose it, or once orders the reader may know of settle it."""
    view = campaign_declarations.declarations_view(campaign, turn)
    mine = reader.side.side if reader.side is not None else None
    winner = (turn.initiative or {}).get(turn.phase, {}).get("winner")
    phase_open = turn.phase in PHASE_KINDS
    sealed = view["mode"] == SEALED
    reacting = sealed and turn.phase == ATTACKS_PHASE and view["revealed"]
    if sealed:
        text = _("Sealed orders: your opponent sees your orders of a phase only when they are "
                 "revealed, as the next phase opens.")
        if turn.phase == ATTACKS_PHASE:
            text = (_("The attacks are revealed: declare your reactions.") if reacting else
                    _("Sealed attacks: both sides' attacks are revealed together once both have "
                      "sent theirs; then the reactions are declared."))
    else:
        text = _("Orders in turn: one order each, from the side chosen by the initiative winner.")
    due = view["next"]
    deadline = campaign_declarations.deadline_of(turn) if phase_open else None
    chosen = bool(((turn.declarations or {}).get(turn.phase) or {}).get("first"))
    # Orders settle it as the winner knows them (``choose_first``); the other side knows only
    # the orders out of their envelopes ("" : no side's sealed orders), never the winner's.
    knows = winner if mine == winner or (mine is None and reader.staff) else ""
    settled = phase_open and winner is not None and (
        chosen or campaign_declarations.first_settled(turn, knows))
    i_am_ready = mine in view["ready"]
    found = {
        "mode": view["mode"], "text": text, "phase_open": phase_open, "deadline": deadline,
        "first": word(SIDES, view["first"]) if view["first"] and settled else "",
        "chooser": word(SIDES, winner) if phase_open and winner and not settled else "",
        # Once the attacks are out the reactions are owed: "all sent" spoke of the attacks.
        "ready": [] if reacting else [word(SIDES, s) for s in view["ready"]],
        "i_am_ready": i_am_ready and not reacting, "reacting": reacting,
        "my_turn": (not sealed and due == mine) if mine else False,
        "next": word(SIDES, due) if due else "",
        "may_choose_first": (phase_open and mine is not None and mine == winner and not settled),
        "may_say_ready": phase_open and mine is not None and not i_am_ready and not reacting,
    }
    found["owed"] = owed(turn.phase, found, view, mine) if phase_open and mine else ""
    return found


def owed(phase: str, found: Mapping[str, Any], view: Mapping[str, Any], mine: str) -> str:
    """What the reader's side owes in the open phase, in one sentence (#24 item 9)."""
    if found["may_choose_first"]:
        return _("You won the initiative: choose who declares first.")
    if found["reacting"]:
        return _("Declare a reaction for each attack against you that you want to answer; the "
                 "organisers then generate the battles.")
    if found["i_am_ready"]:
        others = [s for s in view["ready"] if s != mine]
        if phase == ATTACKS_PHASE and view["mode"] == SEALED and not others:
            return _("Your attacks are sent: the reactions open once the other side has sent "
                     "its attacks.")
        return _("Your orders of this phase are sent: the organisers open the next phase.")
    if view["mode"] != SEALED:
        return (_("Declare one order, or say your orders are all sent.") if found["my_turn"]
                else _("Wait for the other side's order."))
    return {
        "air": _("Give your air detachments their missions, then say your orders are all sent."),
        "infiltration": _("Send your infiltrations, then say your orders are all sent."),
        "moves": _("Send your moves and fortifications, then say your orders are all sent."),
        ATTACKS_PHASE: _("Send your attacks, then say they are all sent: both sides' attacks "
                         "are revealed together, then the reactions are declared."),
    }.get(phase, _("Send your orders of this phase, then say they are all sent."))


# Battles --------------------------------------------------------------------------------------

def _report_line(report: Report | None, battle: CampaignBattle, reader: Reader,
                 public: Mapping[str, Any]) -> dict[str, Any] | None:
    if report is None:
        return None
    game = battle.game
    winner = (battle.attacker if report.winner_id == game.player_a_id
              else battle.defender if report.winner_id == game.player_b_id else None)
    facts = (report.outcome or {}).get("campaign", {})
    by_me = reader.side is not None and report.by_player_id == reader.side.player_id
    return {"winner": side_label(public, winner) if winner else None, "by_me": by_me,
            "swept": facts.get("swept", []), "destroyed": facts.get("destroyed", [])}


def _choices(campaign: Campaign, battle: CampaignBattle, reader: Reader) -> dict[str, Any]:
    """R32 after a confirmed result: the winner's stay choice, the beaten defender's retreats."""
    out: dict[str, Any] = {"stay": [], "retreat": [], "retreat_form": False}
    if reader.side is None or battle.turn.closed_at is not None:
        return out
    result = campaign_battles.battle_result(battle)
    if result is None:
        return out
    winner = campaign_battles.winner_side(battle)
    keeper = winner if winner is not None else battle.defender
    mine = reader.side.side
    if mine == keeper:
        # G12: after a draw only the defender's reactors may stay.
        eligible = battle.attackers if keeper == battle.attacker else battle.defender_reserves
        out["stay"] = [{"name": n, "checked": n in battle.stay} for n in eligible
                       if n not in result.destroyed]
    if mine == battle.defender and winner == battle.attacker and battle.contested:
        options = campaign_battles.retreat_choices(campaign, battle.turn, battle)
        for name, codes in options.items():
            chosen = battle.retreat_to.get(name) or (codes[0] if len(codes) == 1 else "")
            out["retreat"].append({"name": name, "options": list(codes), "chosen": chosen})
        out["retreat_form"] = any(len(r["options"]) > 0 for r in out["retreat"])
    return out


def battle_rows(campaign: Campaign, reader: Reader, public: Mapping[str, Any]
                ) -> list[dict[str, Any]]:
    """Every battle of the campaign, newest turn first, as its sheet and its report status."""
    battles = list(CampaignBattle.objects.filter(turn__campaign=campaign).select_related(
        "game", "turn").order_by("-turn__number", "pk"))
    games = [b.game_id for b in battles if b.game_id]
    latest: dict[int, Report] = {}
    for report in Report.objects.filter(game_id__in=games, status__in=OPEN).order_by(
            "created_at", "pk"):
        latest[report.game_id] = report
    planet = word(PLANETS, campaign.planet) if campaign.planet else ""
    rows = []
    for b in battles:
        place = grid.territory(b.territory)
        mine = reader.side.side if reader.side is not None else None
        role = "attacker" if mine == b.attacker else "defender" if mine == b.defender else None
        game = b.game
        open_report = _report_line(latest.get(b.game_id), b, reader, public) if game else None
        turn_open = b.turn.closed_at is None
        status = game.status if game else Game.Status.CONFIRMED
        sees_attackers = b.contested or mine == b.attacker or reader.staff
        rows.append({
            "battle": b, "turn": b.turn.number, "territory": b.territory, "line": place.line,
            "home": word(SIDES, place.home_side), "planet": planet, "role": role,
            "attacker": side_label(public, b.attacker), "defender": side_label(public, b.defender),
            "attackers": reader.names(b.attacker, b.attackers) if sees_attackers else [],
            "deployed": reader.names(b.defender, b.defender_deployed),
            "reserves": reader.names(b.defender, b.defender_reserves),
            "isolated": [n for n in b.isolated if reader.knows(b.attacker, n)
                         or reader.knows(b.defender, n)],
            "counters": INITIATIVE_COUNTERS,
            "at_stake": b.at_stake, "game": game,
            "status": status, "status_label": Game.Status(status).label,
            "open_report": open_report, "turn_open": turn_open,
            "may_report": bool(game and role and turn_open and status != Game.Status.CONFIRMED
                               and not (open_report and not open_report["by_me"]
                                        and status == Game.Status.REPORTED)),
            "may_confirm": bool(game and role and turn_open and status == Game.Status.REPORTED
                                and open_report and not open_report["by_me"]),
            "confirmed": _confirmed(b, public) if status == Game.Status.CONFIRMED and game else None,
            "fighting": ([*b.attackers, *b.defender_deployed, *b.defender_reserves]
                         if b.contested else []),
            **_choices(campaign, b, reader),
        })
    return rows


def _confirmed(battle: CampaignBattle, public: Mapping[str, Any]) -> dict[str, Any]:
    winner = campaign_battles.winner_side(battle)
    facts = (battle.game.outcome or {}).get("campaign", {})
    return {"winner": side_label(public, winner) if winner else None,
            "swept": facts.get("swept", []), "destroyed": facts.get("destroyed", [])}


# The page ----------------------------------------------------------------------------------------

def side_rows(campaign: Campaign, public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The sides as the page shows them: the faction by its name in the reader's language
    (the side stores the faction's slug; one query)."""
    by_key = factions.keys(factions.of_system(campaign.tournament))
    return [dict(row, label=word(SIDES, side), faction=factions.label(row["faction"], by_key))
            for side, row in public["sides"].items() if row]


def page_context(actor: Actor, campaign: Campaign, typed: Typed | None = None) -> dict[str, Any]:
    """The page for ``actor``; ``typed`` is a set-up form they sent that is shown again."""
    public = campaign_reads.campaign_view(campaign)
    reader = reader_of(actor, campaign)
    context: dict[str, Any] = {
        "campaign": campaign, "public": public, "reader": reader,
        "sides": side_rows(campaign, public),
        "planet": word(PLANETS, public["planet"]) if public["planet"] else "",
        "phase": phase_name(public["phase"]),
        "placement_next": word(SIDES, public["placement_next"]) if public["placement_next"] else "",
        "victory": (_("%(side)s wins: %(reason)s.") % {
            "side": side_label(public, public["victory"]["side"]),
            "reason": word(VICTORY_REASONS, public["victory"]["reason"])}
            if public["victory"] else ""),
        "ledger": ledger(campaign, reader),
    }
    if not reader.insider:  # the map and what happened on it are the participants' (R12)
        return context
    context["turn_reports"] = turn_reports(campaign, reader, public)
    turn = current_turn(campaign) if campaign.status == Campaign.Status.RUNNING else None
    territories = campaign_reads.map_view(actor, campaign, turn)
    context.update(drawing=drawing(territories), territory_rows=territory_rows(territories),
                   battles=battle_rows(campaign, reader, public))
    viewer = reader.side.side if reader.side is not None else None
    # G11: the reader's state leaves out the enemy's sealed orders.
    state = campaign_declarations.state_seen_by(campaign, turn, viewer) if turn is not None else None
    if turn is not None:
        context["initiative"] = initiative_lines(turn, public)
        context["infiltrations"] = infiltration_lines(turn, reader)
        context["air"] = air_lines(campaign, turn, viewer, state)  # R13, R14, R19–R24
        context["declaring"] = declaring(campaign, turn, reader)
    if reader.side is None:
        return context
    army = my_army(reader.side)
    context.update(army=army, revealed=revealed_enemies(reader, campaign))
    setup = setup_context(campaign, reader.side, [d.row for d in army], public, typed)
    context["setup"] = setup
    if state is not None:
        side = reader.side.side
        context.update(allowances=allowance_rows(state, side),
                       order_forms=[f for f in order_forms(state, reader.side, army,
                                                        order_numbers.TurnIds(turn))
                                    if campaign_declarations.may_declare(campaign, turn, side,
                                                                         f["kind"])],
                       my_orders=my_orders(state, side, turn),
                       attacks_against=attacks_against(state, side), turn=turn)
        if context["declaring"]["reacting"] and not context["attacks_against"]:
            context["declaring"]["owed"] = _("No attack against you: nothing to declare; the "
                                             "organisers then generate the battles.")
    context["pending"] = (setup["todo"] if setup else []) + pending(context.get("battles", []))
    return context


def pending(battles: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """What waits for the reader, said first on the page, each with a link to its battle."""
    out = []
    for b in battles:
        anchor = f"#battle-{b['battle'].pk}"
        words = {"territory": b["territory"]}
        if b["may_confirm"]:
            out.append({"text": _("Confirm or dispute the result reported for %(territory)s.") % words,
                        "anchor": anchor})
        elif b["may_report"] and b["status"] == Game.Status.PENDING:
            out.append({"text": _("Report the battle for %(territory)s once it is played.") % words,
                        "anchor": anchor})
        if b["retreat_form"] and any(len(r["options"]) > 1 and not r["chosen"] for r in b["retreat"]):
            out.append({"text": _("Choose where your detachments retreat from %(territory)s.") % words,
                        "anchor": anchor})
    return out
