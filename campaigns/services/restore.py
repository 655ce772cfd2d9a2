"""The campaign part of an event document (``campaigns.services.backup``) read back, inside
the event's import (``events.services.restore``) and its transaction.

The event's players, rounds and games are made first; the campaign's rows then point at them
through the document's refs. Every row is checked (``clean_fields``), and so is what the engine
will read without a check of its own: every territory code, every detachment an order, a battle
or a reveal names, and the refs between the campaign's rows. A document that fails is refused
with ``backup_damaged`` and nothing is written."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from django.utils.translation import gettext_lazy as _

from campaigns.engine import map as grid
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignReveal,
    CampaignScoreEntry,
    CampaignSide,
    CampaignTurn,
)
from events import event_refs
from events.errors import Invalid
from events.models import Round, Tournament
from events.services.backup_rows import build, create_all, distinct_refs

COUNTED = ("campaign_detachments", "campaign_turns", "campaign_orders", "campaign_battles",
           "campaign_reveals", "campaign_score_entries")


class Context(Protocol):
    """What the event's import gives the campaign's: accounts, the rows made so far, and the
    refs table the audit log is rewritten with (``ids``: kind -> document ref -> new id)."""

    ids: dict[str, dict[int, int]]

    def account(self, name: str | None) -> Any: ...

    def player(self, ref: Any, *, required: bool = True) -> int | None: ...

    def game(self, ref: Any) -> int: ...

    def round_of(self, number: Any) -> Round: ...

    def refs(self) -> event_refs.Refs: ...


def damaged(what: str) -> Invalid:
    return Invalid(_("The export is damaged: %(what)s.") % {"what": what}, "backup_damaged")


def usernames(data: Mapping[str, Any] | None) -> set[str | None]:
    """The accounts the campaign part names (the organiser who made it, who declared orders)."""
    if not data:
        return set()
    return {data.get("created_by"), *(o.get("created_by") for t in data["turns"] for o in t["orders"])}


# Checks of what the engine reads ------------------------------------------------------------------

def _codes(values: Iterable[Any], where: str, *, blank: bool = False) -> None:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise damaged(_("expected a list of territories for %(where)s") % {"where": where})
    for code in values:
        if code not in grid.TERRITORIES and not (blank and code == ""):
            raise damaged(_("%(where)s names the territory “%(code)s”, which the map does not have")
                          % {"where": where, "code": code})


def _names(values: Iterable[Any], known: set[str], where: str) -> None:
    for name in values:
        if name not in known:
            raise damaged(_("%(where)s names the detachment “%(name)s”, which no side has")
                          % {"where": where, "name": name})


def check(data: Mapping[str, Any]) -> None:
    """Raise ``backup_damaged`` unless the campaign's map, sides, detachments, orders, battles
    and turns hold only territories, sides and detachments the campaign has."""
    control = data["control"]
    if not isinstance(control, Mapping):
        raise damaged(_("the campaign's map is not a table of territories"))
    _codes(control, _("the map"))
    if any(side not in grid.SIDES for side in control.values()):
        raise damaged(_("the map gives a territory to a side that does not exist"))
    _codes(data["fortified"], _("the fortified territories"))
    _codes(data["isolated"], _("the isolated territories"))
    sides = data["sides"]
    counted = Counter(s["side"] for s in sides)
    if any(n > 1 for n in counted.values()) or len({s["player"] for s in sides}) != len(sides):
        raise damaged(_("two sides share a side or a player"))
    names: set[str] = set()
    for side in sides:
        _codes(side["majors"], _("the majors"))
        for d in side["detachments"]:
            _codes([d["location"]], _("the detachment %(name)s") % {"name": d["name"]}, blank=True)
            names.add(d["name"])
    numbers = [t["number"] for t in data["turns"]]
    if len(set(numbers)) != len(numbers):
        raise damaged(_("two turns share a number"))
    if data["current_turn"] and data["current_turn"] not in numbers:
        raise damaged(_("the current turn is missing"))
    for turn in data["turns"]:
        for o in turn["orders"]:
            _codes([o["from_code"], o["to_code"]], _("an order"), blank=True)
            _names(o["detachments"], names, _("an order"))
        for b in turn["battles"]:
            where = _("the battle for %(code)s") % {"code": b["territory"]}
            _codes([b["territory"]], _("a battle"))
            fought = [*b["attackers"], *b["defender_deployed"], *b["defender_reserves"]]
            _names([*fought, *b["isolated"], *b["stay"], *b["retreat_to"]], names, where)
            _codes(b["retreat_to"].values(), where)


# Rows ---------------------------------------------------------------------------------------------

def restore_campaign(ctx: Context, data: Mapping[str, Any], tournament: Tournament,
                     slug: str) -> tuple[Campaign, dict[str, int]]:
    """The campaign of ``data`` under ``slug`` with all its rows; the counts made."""
    check(data)
    campaign = build(Campaign, {**data, "slug": slug}, tournament=tournament,
                     created_by=ctx.account(data.get("created_by")))
    create_all(Campaign, [campaign])
    sides = [build(CampaignSide, s, campaign=campaign, player_id=ctx.player(s["player"]))
             for s in data["sides"]]
    create_all(CampaignSide, sides)
    detachments = [(build(CampaignDetachment, d, side=side), d)
                   for side, s in zip(sides, data["sides"], strict=True) for d in s["detachments"]]
    create_all(CampaignDetachment, [d for d, _doc in detachments])
    reveals = [build(CampaignReveal, r, detachment=d) for d, doc in detachments
               for r in doc["reveals"]]
    create_all(CampaignReveal, reveals)
    turns = [build(CampaignTurn, t, campaign=campaign, round=ctx.round_of(t["round"]))
             for t in data["turns"]]
    create_all(CampaignTurn, turns)
    orders = _orders(ctx, turns, data["turns"])
    _turn_orders(ctx, turns, data["turns"])
    battles = _battles(ctx, turns, data["turns"])
    entries = data["score_entries"]
    distinct_refs(entries)
    lines = [build(CampaignScoreEntry, e, campaign=campaign) for e in entries]
    create_all(CampaignScoreEntry, lines)
    ctx.ids["score_entry"] = {int(e["ref"]): line.pk for e, line in zip(entries, lines, strict=True)}
    counts = dict(zip(COUNTED, (len(detachments), len(turns), orders, battles, len(reveals),
                                len(lines)), strict=True))
    return campaign, counts


def _orders(ctx: Context, turns: list[CampaignTurn], docs: list[Mapping[str, Any]]) -> int:
    """The turns' orders, then each reaction's attack and each escort's mission (orders of the
    same document)."""
    pairs = [(build(CampaignOrder, o, turn=turn, created_by=ctx.account(o.get("created_by"))), o)
             for turn, t in zip(turns, docs, strict=True) for o in t["orders"]]
    distinct_refs([o for _row, o in pairs])
    create_all(CampaignOrder, [row for row, _o in pairs])
    ids = ctx.ids["order"] = {int(o["ref"]): row.pk for row, o in pairs}
    linked: dict[int, CampaignOrder] = {}
    for row, o in pairs:
        for field in ("for_attack", "escort_of"):
            if o.get(field) is not None:
                if int(o[field]) not in ids:
                    raise event_refs.UnknownRef("order", o[field])
                setattr(row, f"{field}_id", ids[int(o[field])])
                linked[row.pk] = row
    CampaignOrder.objects.bulk_update(list(linked.values()), ["for_attack", "escort_of"], batch_size=500)
    return len(pairs)


def _turn_orders(ctx: Context, turns: list[CampaignTurn], docs: list[Mapping[str, Any]]) -> None:
    """The orders a turn's infiltration results and air rolls name, once the orders exist."""
    refs = ctx.refs()
    for turn, doc in zip(turns, docs, strict=True):
        mapped = event_refs.turn_fields(refs, doc)
        turn.air, turn.infiltrations = mapped["air"], mapped["infiltrations"]
    CampaignTurn.objects.bulk_update(turns, ["air", "infiltrations"], batch_size=500)


def _battles(ctx: Context, turns: list[CampaignTurn], docs: list[Mapping[str, Any]]) -> int:
    refs = ctx.refs()  # after the orders: a battle names its attacks
    pairs = [(build(CampaignBattle, {**b, **event_refs.battle_fields(refs, b)}, turn=turn,
                    game_id=None if b.get("game") is None else ctx.game(b["game"])), b)
             for turn, t in zip(turns, docs, strict=True) for b in t["battles"]]
    distinct_refs([b for _row, b in pairs])
    games = [row.game_id for row, _b in pairs if row.game_id is not None]
    if len(set(games)) != len(games):
        raise damaged(_("two battles share a game"))
    create_all(CampaignBattle, [row for row, _b in pairs])
    ctx.ids["battle"] = {int(b["ref"]): row.pk for row, b in pairs}
    return len(pairs)
