"""The game page's table rolls: a form per registered roll kind the game offers (the plain dice
share one, a button each), the roll action, and each logged roll in words. Every kind's form,
button, fields, help and words are its `RollKind`'s (systems/rolls.py)."""
from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from events.audit import Actor
from events.models import Game, Player
from events.roll_forms import roll_form_class
from events.services import table_rolls
from events.views.common import attempt
from systems.rolls import RollKind, TableRoll, player_of_side, roll_kind

PLAIN_KEY = "plain"


def players_of(found: Game) -> tuple[Player, ...]:
    return tuple(p for p in (found.player_a, found.player_b) if p is not None)


def form_key(kind: RollKind) -> str:
    """The plain dice share one form (one button each); every other kind has its own."""
    return PLAIN_KEY if kind.plain else kind.name


def kind_turns(found: Game, kind: RollKind | None) -> tuple[int, ...]:
    return kind.turns(found) if kind is not None and kind.turns is not None else ()


def roll(request, actor: Actor, found: Game, bound: dict[str, Any]):
    """The posted roll: a redirect to the log once made, None to show the page with the error."""
    kind = roll_kind(request.POST.get("kind"))
    key = form_key(kind) if kind is not None else "unknown"  # never echo raw input in ids
    form = roll_form_class(kind.name if kind else None)(
        request.POST, turns=kind_turns(found, kind), players=players_of(found),
        auto_id=f"id_roll_{key}_%s")
    if not form.is_valid():
        bound[f"roll_{key}"] = form  # shown again with its errors
        messages.error(request, _("This roll could not be made: check the turn and the note."))
        return None
    made = attempt(request, lambda: table_rolls.roll(actor, found.pk, form.request()))
    if made is None:
        return None
    line = roll_line(made, found)
    messages.success(request, _("%(what)s: %(dice)s. %(result)s") % {
        "what": line["what"], "dice": line["dice"], "result": line["result"]})
    return redirect(reverse("game", args=[found.pk]) + "#dice")


def dice_context(found: Game, live: bool, bound: dict[str, Any]) -> dict[str, Any]:
    log = table_rolls.log(found)
    may_roll = live and found.status != Game.Status.CONFIRMED
    return {"table_log": [roll_line(line, found) for line in log], "may_roll": may_roll,
            "roll_forms": roll_forms(found, log, bound) if may_roll else [],
            "permanent_holder": permanent_holder(found)}


def roll_forms(found: Game, log: list[TableRoll], bound: dict[str, Any]) -> list[dict[str, Any]]:
    offered = [k for k in map(roll_kind, table_rolls.offered(found)) if k is not None]
    plain = [k for k in offered if k.plain]
    forms = []
    for kind in offered:
        if kind.plain and kind is not plain[0]:
            continue  # the plain dice share one form, one button each
        turns = kind_turns(found, kind)
        key = form_key(kind)
        form = bound.get(f"roll_{key}") or roll_form_class(kind.name)(
            initial={"kind": kind.name, "nonce": secrets.token_hex(8),
                     **next_roll(kind, turns, log)},
            turns=turns, players=players_of(found), auto_id=f"id_roll_{key}_%s")
        buttons = [(k.name, k.label) for k in (plain if kind.plain else [kind])]
        forms.append({"kind": kind.name, "roll_kind": kind, "buttons": buttons, "form": form,
                      "has_turn": bool(turns), "has_what": kind.what_label is not None})
    return forms


def next_roll(kind: RollKind, turns: tuple[int, ...], log: list[TableRoll]) -> dict[str, Any]:
    """The turn (and pass) the form offers first: the roll that most likely comes next."""
    if not turns:
        return {}
    done = [r.details for r in log if r.kind == kind.name]
    if kind.next_roll is not None:
        return kind.next_roll(done[0] if done else None, turns)
    return {"turn": turns[0]}


def permanent_holder(found: Game) -> Player | None:
    """Who holds the Dynamics permanent +2, for the advantage form's help line."""
    holder = (found.pregame or {}).get("permanent_advantage")
    pid = int(holder) if str(holder or "").isdigit() else None
    return next((p for p in players_of(found) if p.pk == pid), None)


def roll_line(line: TableRoll, found: Game) -> dict[str, Any]:
    """One table roll in words: who, when, what for, the dice and what they mean."""
    players = {p.pk: p.name for p in players_of(found)}
    details = line.details
    who = players.get(details.get("player")) or _("%(name)s (organiser)") % {"name": line.username}
    kind = roll_kind(line.kind)
    if kind is not None:
        what, result = kind.words(line, found, players)
    else:  # a kind no longer installed: its name and total
        what, result = line.kind, _("Total %(total)s.") % {"total": line.total}
    if details.get("what"):
        what = f"{what} · {details['what']}"
    if line.source == table_rolls.ENTERED:
        what = _("%(what)s (dice thrown at the table)") % {"what": what}
    return {"who": who, "when": line.rolled_at, "what": what,
            "dice": dice_words(line, found, players), "result": result}


def dice_words(line: TableRoll, found: Game, players: dict[int, str]) -> str:
    """The faces, or in a roll-off each player's die with its modifier (ties included)."""
    if not line.sides:
        return ", ".join(str(d) for d in line.dice)
    words = []
    for made in line.sides:
        name = players.get(player_of_side(found, made["side"]) or 0, "")
        if made["modifier"]:
            words.append(_("%(player)s %(die)s%(modifier)+d = %(score)s") % {
                "player": name, "die": made["die"], "modifier": made["modifier"], "score": made["score"]})
        else:
            words.append(_("%(player)s %(die)s") % {"player": name, "die": made["die"]})
    return ", ".join(words)
