"""The words of an Epic 40,000 campaign's e-mail notices: plain text in the active language (the
sender sets the recipient's), links absolute, detachment names already filtered for the
recipient (R12, campaigns/services/notices.py). Where the campaign page says the same
thing, the same sentence is used, so both read alike in every language."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.typography import colon, elide, french
from notices.texts import Letter, footer, subject


@dataclass(frozen=True)
class Head:
    """Who and where: the campaign (the event's name), the turn, the page link of this notice."""

    event: str
    turn: int
    link: str
    profile_link: str


def _letter(head: Head, title: str, lines: Sequence[str], action: str) -> Letter:
    body = [*lines, "", action % {"link": head.link}, "", footer(head.profile_link)]
    return subject(head.event, title), "\n".join(body)


def names_or_dash(names: Sequence[str]) -> str:
    return ", ".join(names) or "—"


# A phase open, a turn open ---------------------------------------------------------------------

@dataclass(frozen=True)
class Allowance:
    label: str  # "Moves (fortifications use one)"
    left: int
    limit: int
    commanders: tuple[str, ...]  # the reader's own Supreme Commanders with their extra action


def allowance_lines(allowances: Sequence[Allowance]) -> list[str]:
    lines = [_("Left to declare this turn:")]
    for a in allowances:
        line = "- " + _("%(label)s: %(left)s of %(limit)s") % {"label": a.label, "left": a.left,
                                                              "limit": a.limit}
        if a.commanders:
            line += " " + _("(extra action: %(names)s)") % {"names": ", ".join(a.commanders)}
        lines.append(line)
    return lines


def phase_open(head: Head, *, phase: str, rolls: Sequence[str], winner: str, i_won: bool,
               allowances: Sequence[Allowance], deadline: str = "") -> Letter:
    """R15/R18: the phase the organisers just opened, who won its initiative, what is left."""
    title = _("Turn %(turn)s: the %(phase)s phase is open") % {"turn": head.turn, "phase": phase}
    lines = [_("Turn %(turn)s of %(event)s: the %(phase)s phase is open.") % {
        "turn": head.turn, "event": head.event, "phase": phase}, ""]
    if i_won:
        lines.append(_("You won the initiative: you choose who acts first."))
    else:
        lines.append(_("%(side)s won the initiative and chooses who acts first.") % {"side": winner})
    if rolls:
        lines.append(_("Initiative: %(rolls)s") % {"rolls": "; ".join(rolls)})
    if deadline:
        lines.append(_("Orders of this phase are due by %(when)s.") % {"when": deadline})
    lines += ["", *allowance_lines(allowances)]
    return _letter(head, title, lines, _("Declare your orders: %(link)s"))


def turn_open(head: Head, *, allowances: Sequence[Allowance]) -> Letter:
    """A turn just opened (the campaign's start): its phases open one by one."""
    title = _("Turn %(turn)s is open") % {"turn": head.turn}
    lines = [_("Turn %(turn)s of %(event)s is open. You will get an e-mail as each of its phases "
               "opens.") % {"turn": head.turn, "event": head.event}, "",
             *allowance_lines(allowances)]
    return _letter(head, title, lines, _("Your campaign page: %(link)s"))


# Battles --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BattleSheet:
    """One battle as the reader may see it: sides as labels, names they know, points."""

    territory: str
    where: str  # "East line 1"
    mine: str  # "attacker", "defender" or ""
    contested: bool
    attacker: str
    attackers: tuple[str, ...]
    attacker_points: int
    defender: str
    deployed: tuple[str, ...]
    reserves: tuple[str, ...]
    defender_points: int
    fortifications: int
    at_stake: tuple[int, int]  # attacker wins, defender wins
    isolated: tuple[str, ...]
    link: str


def battle_lines(sheet: BattleSheet) -> list[str]:
    role = {"attacker": _("you attack"), "defender": _("you defend")}.get(sheet.mine, "")
    title = _("Territory %(code)s (%(where)s)") % {"code": sheet.territory, "where": sheet.where}
    lines = [f"{title}{' · ' + role if role else ''}"]
    if not sheet.contested:
        lines.append(_("Nobody defended it: %(side)s takes it without a battle.")
                     % {"side": sheet.attacker})
        return lines
    points = _("%(n)s points")
    # Labels and their colons through colon(): French sets a non-breaking space before each.
    semicolon = "\u00a0; " if french() else "; "
    lines += [
        f"- {colon(_('Attacker'))} {colon(sheet.attacker)} {names_or_dash(sheet.attackers)} ("
        + points % {"n": sheet.attacker_points} + ")",
        f"- {colon(_('Defender'))} {colon(sheet.defender)} " + _("deployed") + " "
        + names_or_dash(sheet.deployed)
        + ((semicolon + _("in reserve (reactions)") + " " + ", ".join(sheet.reserves))
           if sheet.reserves else "")
        + " (" + points % {"n": sheet.defender_points} + ")",
        f"- {colon(_('Fortifications'))} "
        + (str(sheet.fortifications) if sheet.fortifications else pgettext("fortifications", "none")),
        f"- {colon(_('At stake'))} " + _("attacker wins %(a)s, defender wins %(d)s")
        % {"a": sheet.at_stake[0], "d": sheet.at_stake[1]},
    ]
    if sheet.isolated:
        lines.append(f"- {colon(_('Isolated'))} " + _("%(names)s: destroyed if they lose")
                     % {"names": ", ".join(sheet.isolated)})
    lines.append("  " + _("Report it here: %(link)s") % {"link": sheet.link})
    return lines


def battles(head: Head, sheets: Sequence[BattleSheet]) -> Letter:
    """Step 5: the battles of the turn, each with its sheet and where to report it."""
    title = _("Turn %(turn)s: your battles") % {"turn": head.turn}
    lines = [_("The battles of turn %(turn)s of %(event)s are out. Play them, then report each "
               "result on the campaign page.") % {"turn": head.turn, "event": head.event}]
    for sheet in sheets:
        lines += ["", *battle_lines(sheet)]
    return _letter(head, title, lines, _("Your battles: %(link)s"))


# A battle reported, settled, and the choices after it --------------------------------------------

@dataclass(frozen=True)
class BattleResult:
    winner: str | None  # a side's label; None: a draw
    i_won: bool
    swept: tuple[str, ...]
    destroyed: tuple[str, ...]


def result_lines(result: BattleResult) -> list[str]:
    if result.winner is None:
        lines = [_("Result: a draw (the defender keeps the territory)")]
    elif result.i_won:
        lines = [_("Result: you won")]
    else:
        lines = [elide(_("Result: %(name)s won") % {"name": result.winner})]
    if result.swept:
        lines.append(_("Swept away: %(names)s.") % {"names": ", ".join(result.swept)})
    if result.destroyed:
        lines.append(_("Destroyed: %(names)s.") % {"names": ", ".join(result.destroyed)})
    return lines


def battle_reported(head: Head, *, territory: str, opponent: str, result: BattleResult,
                    disputed: bool) -> Letter:
    """The opponent's report of a battle: confirm it or dispute it (or it contradicts yours)."""
    words = {"turn": head.turn, "opponent": opponent, "territory": territory}
    if disputed:
        title = _("Turn %(turn)s: %(opponent)s reported a different result for %(territory)s") % words
        intro = _("%(opponent)s reported a result of the battle for %(territory)s that differs "
                  "from yours. The two reports differ: report again, or an organiser settles "
                  "it.") % words
        action = _("The battle: %(link)s")
    else:
        title = _("Turn %(turn)s: %(opponent)s reported the battle for %(territory)s") % words
        intro = _("%(opponent)s reported the result of the battle for %(territory)s.") % words
        action = _("Confirm it or dispute it on the campaign page: %(link)s")
    return _letter(head, title, [intro, "", *result_lines(result)], action)


def battle_settled(head: Head, *, territory: str, result: BattleResult) -> Letter:
    words = {"turn": head.turn, "territory": territory}
    title = _("Turn %(turn)s: an organiser settled the battle for %(territory)s") % words
    lines = [_("An organiser settled the disputed result of the battle for %(territory)s.") % words,
             "", *result_lines(result)]
    return _letter(head, title, lines, _("The battle: %(link)s"))


def choose_stay(head: Head, *, territory: str, won: bool, eligible: Sequence[str]) -> Letter:
    """R32: the winner (G12: the defender after a draw) says which detachments stay."""
    words = {"turn": head.turn, "territory": territory}
    title = _("Turn %(turn)s: choose who stays in %(territory)s") % words
    intro = (_("You won the battle for %(territory)s.") if won
             else _("The battle for %(territory)s was a draw.")) % words
    lines = [intro, _("Choose which of these detachments stay in the territory; the others go "
                      "back where they came from: %(names)s.") % {"names": ", ".join(eligible)}]
    return _letter(head, title, lines, _("Choose on the campaign page: %(link)s"))


def choose_retreat(head: Head, *, territory: str, options: Sequence[tuple[str, Sequence[str]]]
                   ) -> Letter:
    """R32, G14: the beaten defender says where each detachment retreats (nearest friendly)."""
    words = {"turn": head.turn, "territory": territory}
    title = _("Turn %(turn)s: choose where your detachments retreat from %(territory)s") % words
    lines = [_("You lost the battle for %(territory)s. Choose where each detachment retreats "
               "(the nearest territories you hold):") % words]
    for name, codes in options:
        where = " / ".join(codes) if codes else _("no way out: destroyed")
        lines.append(f"- {name}: {where}")
    lines += ["", _("The organisers cannot close the turn until you have chosen.")]
    return _letter(head, title, lines, _("Choose on the campaign page: %(link)s"))


# Placement ---------------------------------------------------------------------------------------

def placement(head: Head, *, left: Sequence[str]) -> Letter:
    """R11: the sides place their detachments one at a time, in turn."""
    title = _("Your turn to place a detachment")
    lines = [_("It is your turn to place a detachment in your sector of %(event)s.")
             % {"event": head.event},
             _("Still to place: %(names)s.") % {"names": names_or_dash(left)}]
    return _letter(head, title, lines, _("Your campaign page: %(link)s"))


# The turn closed ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TurnSummary:
    """A closed turn as the reader may see it, every line already in their words."""

    changes: tuple[str, ...]
    score_lines: tuple[str, ...]
    sectors: tuple[str, ...]
    moves: tuple[str, ...]
    isolated: tuple[str, ...]
    totals: str
    victory: str  # "" when the campaign goes on


def turn_closed(head: Head, summary: TurnSummary) -> Letter:
    """Steps 5–7 (R33–R40): control changes, score lines, other sectors, totals, victory."""
    title = _("Turn %(turn)s is closed") % {"turn": head.turn}
    lines = [_("The organisers closed turn %(turn)s of %(event)s.") % {"turn": head.turn,
                                                                       "event": head.event}]
    if summary.victory:
        lines += ["", summary.victory]
    lines += ["", _("Control changes:")]
    lines += [f"- {c}" for c in summary.changes] or ["- " + _("none")]
    lines += ["", _("Score this turn:")]
    lines += [f"- {s}" for s in summary.score_lines] or ["- " + _("none")]
    if summary.sectors:
        lines += ["", _("Other sectors:"), *(f"- {s}" for s in summary.sectors)]
    if summary.moves:
        lines += ["", _("Detachments moved at the close:"), *(f"- {m}" for m in summary.moves)]
    if summary.isolated:
        lines += ["", _("Isolated next turn: %(codes)s") % {"codes": ", ".join(summary.isolated)}]
    lines += ["", summary.totals]
    if not summary.victory:
        lines.append(_("Turn %(turn)s is open.") % {"turn": head.turn + 1})
    return _letter(head, title, lines, _("The turn report: %(link)s"))


# Declaring in turn, sealed attacks revealed --------------------------------------------------------

def your_turn_to_declare(head: Head, *, phase: str, opponent: str) -> Letter:
    """G11, alternating mode: « les joueurs déclarent ensuite leurs mouvements en alternant »."""
    title = _("Turn %(turn)s: your turn to declare") % {"turn": head.turn}
    lines = [_("%(opponent)s has declared: it is your turn to declare an order in the %(phase)s "
               "phase of %(event)s.") % {"opponent": opponent, "phase": phase, "event": head.event},
             _("When you have no more orders for this phase, say so on the page: your opponent "
               "then goes on alone.")]
    return _letter(head, title, lines, _("Declare your orders: %(link)s"))


def attacks_revealed(head: Head, *, against_me: int) -> Letter:
    """G11, sealed mode: the attacks come out together; the reactions follow (R29)."""
    title = _("Turn %(turn)s: the attacks are revealed") % {"turn": head.turn}
    lines = [_("Both sides' attacks of turn %(turn)s of %(event)s are revealed.")
             % {"turn": head.turn, "event": head.event},
             _("Attacks against you: %(count)s. You may now declare your reactions.")
             % {"count": against_me}]
    return _letter(head, title, lines, _("Declare your reactions: %(link)s"))


# Surrender -----------------------------------------------------------------------------------------

def surrendered(head: Head, *, loser: str, winner: str, mine: bool) -> Letter:
    """R35: « lorsque ses adversaires se rendent »: the campaign ends at once."""
    title = _("%(event)s is over: %(side)s surrendered") % {"event": head.event, "side": loser}
    first = (_("You surrendered in turn %(turn)s.") % {"turn": head.turn} if mine else
             _("%(side)s surrendered in turn %(turn)s.") % {"side": loser, "turn": head.turn})
    lines = [first, _("%(side)s wins the campaign.") % {"side": winner}]
    return _letter(head, title, lines, _("The campaign page: %(link)s"))
