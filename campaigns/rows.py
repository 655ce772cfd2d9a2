"""The campaign's rows as a reader may read them (R12), shared by the campaign page
(campaigns/pages/campaign.py), the cockpit, the turn pack (campaigns/services/pack.py) and the
e-mail notices (campaigns/services/notices.py): who reads and which names they know, their
army, allowances and orders, the turn's infiltrations, the ledger and the turn reports.

Not a page: the services read these rows, and nothing here imports a page."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.choices import order_label
from campaigns.engine import map as grid
from campaigns.engine.orders import allowances
from campaigns.engine.state import ATTACK, ORDER_KINDS, CampaignState
from campaigns.engine.tools import PHASES
from campaigns.messages import campaign_message
from campaigns.models import (
    Campaign,
    CampaignDetachment,
    CampaignReveal,
    CampaignSide,
    CampaignTurn,
)
from campaigns.services import declarations as campaign_declarations
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services.campaign import accepted_order, side_of_actor
from campaigns.words import (
    INFILTRATION_OUTCOMES,
    KINDS,
    RELOCATIONS,
    REVEAL_SOURCES,
    SCORE_KINDS,
    SIDES,
    VICTORY_REASONS,
    phase_name,
    word,
)
from events.audit import Actor


@dataclass(frozen=True)
class Reader:
    """Who reads the page: their side (None for staff and outsiders) and which names they know."""

    actor: Actor
    side: CampaignSide | None
    revealed: frozenset[str] = frozenset()  # enemy detachment names revealed to ``side``

    @property
    def staff(self) -> bool:
        return self.actor.is_staff

    @property
    def insider(self) -> bool:
        return self.side is not None or self.staff

    def knows(self, side: str, name: str) -> bool:
        """R12: staff and the owner know a detachment's name; an enemy once it was revealed."""
        if self.staff or (self.side is not None and self.side.side == side):
            return True
        return self.side is not None and name in self.revealed

    def names(self, side: str, names: Sequence[str]) -> list[str]:
        return [n if self.knows(side, n) else _("a hidden detachment") for n in names]


def reader_of(actor: Actor, campaign: Campaign) -> Reader:
    side = side_of_actor(actor, campaign)
    if side is None:
        return Reader(actor, None)
    seen = CampaignReveal.objects.filter(detachment__side__campaign=campaign, to_side=side.side,
                                         level=CampaignReveal.FULL)
    return Reader(actor, side, frozenset(seen.values_list("detachment__name", flat=True)))


def side_label(public: Mapping[str, Any], side: str) -> str:
    row = public["sides"].get(side)
    if row is None:
        return str(word(SIDES, side))
    return _("%(side)s (%(army)s)") % {"side": word(SIDES, side), "army": row["army_name"]}


# The reader's own army ----------------------------------------------------------------------

@dataclass
class DetachmentRow:
    row: CampaignDetachment
    kind: str
    where: str
    seen_by_enemy: list[str] = field(default_factory=list)


def _where(row: CampaignDetachment) -> str:
    if row.destroyed:
        return _("destroyed")
    if row.location:
        return row.location
    if row.kind == "airborne":
        return _("in orbit")
    return _("not placed")


def my_army(side: CampaignSide) -> list[DetachmentRow]:
    """The side's detachments and what the enemy knows of each (R12: « Vos adversaires ne
    peuvent voir la composition de vos détachements que lorsqu'une bataille est engagée »)."""
    rows = list(side.detachments.all())
    seen: dict[int, list[str]] = {}
    for reveal in CampaignReveal.objects.filter(detachment__side=side).order_by("turn"):
        text = (_("seen %(how)s, turn %(turn)s") if reveal.level == CampaignReveal.FULL
                else _("its war engines seen %(how)s, turn %(turn)s"))
        seen.setdefault(reveal.detachment_id, []).append(
            text % {"how": word(REVEAL_SOURCES, reveal.source), "turn": reveal.turn})
    return [DetachmentRow(r, word(KINDS, r.kind), _where(r), seen.get(r.pk, [])) for r in rows]


def revealed_enemies(reader: Reader, campaign: Campaign) -> list[dict[str, Any]]:
    """The enemy detachments the reader has seen whole, with how and when and their sheet's
    units (R12, R25 on a 6); a detachment whose war engines only were seen stays on the map as
    an army name with its war engines."""
    if reader.side is None:
        return []
    rows = CampaignReveal.objects.filter(
        detachment__side__campaign=campaign, to_side=reader.side.side,
        level=CampaignReveal.FULL).select_related("detachment").order_by(
        "turn", "detachment__position")
    return [{"name": r.detachment.name, "how": word(REVEAL_SOURCES, r.source), "turn": r.turn,
             "where": _where(r.detachment),
             "units": ", ".join(u.get("name", "") for u in r.detachment.units or [])}
            for r in rows]



def allowance_rows(state: CampaignState, side: str) -> list[dict[str, Any]]:
    """R16/G6: each kind up to the initiative value; R26/R28: the Supreme Commanders' extras."""
    left = allowances(state, side)
    words = {"move": _("Moves (fortifications use one)"), "attack": _("Attacks"),
             "reaction": _("Reactions")}
    return [{"kind": kind, "label": words[kind], "left": a.left, "limit": a.limit,
             "commanders": list(a.commanders_left)} for kind, a in left.items()]



def my_orders(state: CampaignState, side: str, turn: CampaignTurn | None = None) -> list[str]:
    """The reader's orders this turn: sealed ones say so (G11); those refused when their phase
    was revealed say why."""
    sealed = campaign_declarations.sealed_ids(turn)
    lines = [order_label(a.order) + (_(" (Supreme Commander's extra action)") if a.bonus else "")
             + (_(" (sealed until the phase's orders are revealed)") if a.id in sealed else "")
             for a in state.accepted(side, ORDER_KINDS)]
    if turn is not None:
        for row in campaign_declarations.refused_orders(turn, side):
            order = accepted_order(row).order
            lines.append(_("%(order)s: refused when the orders were revealed (%(reason)s)") % {
                "order": order_label(order),
                "reason": campaign_message(row.refusal_code, row.refusal_params)})
    return lines



def attacks_against(state: CampaignState, side: str) -> list[dict[str, Any]]:
    """Enemy attacks declared this turn against the reader: territories only (R12)."""
    return [{"id": a.id, "from": a.order.from_, "to": a.order.to}
            for a in state.accepted(grid.enemy(side), (ATTACK,))]


# Infiltrations (R25) ----------------------------------------------------------------------------

def _die_line(die: Mapping[str, Any]) -> str:
    text = f"{die['die']}: {word(INFILTRATION_OUTCOMES, die['outcome'])}"
    if die.get("target"):
        text += f" — {die['target']}"
    if die.get("units"):
        text += " (" + ", ".join(u["name"] for u in die["units"]) + ")"
    if die.get("war_engines"):
        text += " (" + ", ".join(f"{u['name']}, {u['type']}" if u.get("type") else u["name"]
                                 for u in die["war_engines"]) + ")"
    return text


def infiltration_lines(turn: CampaignTurn, reader: Reader) -> list[dict[str, Any]]:
    """The turn's resolved infiltrations as the reader may read them (R12: the API's
    ``GET …/turns/{n}/infiltrations/``): their own dice and what they saw; the enemy's dice
    against their own detachments, and the enemy detachment only when its infiltrators were
    captured."""
    if not reader.insider:
        return []
    viewer = None if reader.side is None else reader.side.side
    out = []
    for entry in campaign_infiltrations.seen_results(turn, viewer):
        words = {"to": entry["to"], "from": entry["from"], "detachment": entry["detachment"]}
        if viewer is None or entry["side"] == viewer:
            title = _("%(detachment)s infiltrates %(to)s from %(from)s") % words
        elif entry["detachment"]:
            title = _("Enemy infiltration of %(to)s from %(from)s by %(detachment)s") % words
        else:
            title = _("Enemy infiltration of %(to)s from %(from)s") % words
        out.append({"side": entry["side"], "title": title, "dice": [_die_line(d) for d in entry["dice"]],
                    "captured": ", ".join(u["name"] for u in entry["captured"])})
    return out



# Ledger and turn reports ------------------------------------------------------------------------

def ledger(campaign: Campaign, reader: Reader) -> list[dict[str, Any]]:
    """R35–R40, newest first. A line's subject is printed when it is a territory or a detachment
    the reader knows; an organiser's reason stays in the cockpit."""
    rows = []
    for e in campaign.score_entries.order_by("-turn", "-pk"):
        subject = e.subject if reader.insider else ""  # the public ledger: kinds and points
        if subject and subject not in grid.TERRITORIES and not reader.knows(e.side, subject):
            subject = ""
        rows.append({"turn": e.turn, "side": word(SIDES, e.side), "kind": word(SCORE_KINDS, e.kind),
                     "points": e.points, "subject": subject})
    return rows


def initiative_lines(turn: CampaignTurn, public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """R15: each phase's roll-off, 1D6 + strategic value each, ties thrown again."""
    lines = []
    for phase in PHASES:
        done = (turn.initiative or {}).get(phase)
        if not done:
            continue
        rolls = [_("%(side)s %(die)s + %(modifier)s = %(score)s") % {
            "side": word(SIDES, r["side"]), "die": r["die"], "modifier": r["modifier"],
            "score": r["score"]} for r in done.get("rolls", [])]
        lines.append({"phase": phase_name(phase), "rolls": rolls,
                      "winner": side_label(public, done.get("winner", ""))})
    return lines


def turn_reports(campaign: Campaign, reader: Reader, public: Mapping[str, Any]
                 ) -> list[dict[str, Any]]:
    """The closed turns, newest first: control changes, isolation, other sectors, victory, and
    the detachments that moved at the close (names the reader knows only)."""
    out = []
    for turn in campaign.turns.filter(closed_at__isnull=False).order_by("-number"):
        report = turn.report or {}
        changes = [_("%(territory)s: %(from)s → %(to)s") % {
            "territory": c["territory"], "from": word(SIDES, c["from"]), "to": word(SIDES, c["to"])}
            for c in report.get("control_changes", [])]
        sectors = [_("%(side)s: die %(die)s, modifier %(modifier)s, result %(modified)s, "
                     "%(delta)+d points") % {"side": word(SIDES, side), **values}
                   for side, values in report.get("other_sectors", {}).items()]
        moves = []
        for r in report.get("relocations", []):
            if not reader.knows(r["side"], r["detachment"]):
                continue
            where = f" → {r['to']}" if r.get("to") else ""
            moves.append(f"{r['detachment']}: {word(RELOCATIONS, r['reason'])}{where}")
        victory = report.get("victory")
        out.append({
            "number": turn.number, "changes": changes,
            "isolated": report.get("isolated_next_turn", []), "sectors": sectors,
            "moves": moves, "scores": {word(SIDES, s): v for s, v in report.get("scores", {}).items()},
            "initiative": initiative_lines(turn, public),
            "infiltrations": infiltration_lines(turn, reader),
            "victory": (_("%(side)s wins: %(reason)s.") % {
                "side": side_label(public, victory["side"]),
                "reason": word(VICTORY_REASONS, victory["reason"])}) if victory else "",
        })
    return out
