"""Doubles: a tournament of format ``doubles`` whose entrants are pairs.

A pair is one ``Player`` row (its name is the pair's, its account the first partner's), so
pairs are paired, report, confirm and stand in the standings exactly as players do; the second
account joins it as its ``DoublesPartner``, which also holds the partner's list (the first
partner's is the player's main list). The partner reports and confirms the pair's games too
(``EventFormat.entrant_users``). Points: ``per_player``, each list within the event's points
limit; ``per_pair``, both lists together within it (the partner's list is checked against
what the first list leaves)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from armylists import services as army_lists
from armylists.models import ArmyList
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Player, Tournament
from events.services import lists
from events.services.tournaments import is_self, locked_tournament
from teams.models import DOUBLES, DoublesEvent, DoublesPartner
from teams.services.events import settings_row

PER_PLAYER, PER_PAIR = "per_player", "per_pair"


def create_doubles_event(actor: Actor, tournament: Tournament, settings: dict) -> None:
    stored = {"points": settings.get("points", PER_PLAYER)}
    DoublesEvent.objects.create(tournament=tournament, settings=stored)
    record(actor, "doubles_event_created", tournament, tournament, stored)


def read_settings(tournament: Tournament) -> dict | None:
    event = settings_row(DoublesEvent, tournament, DOUBLES)
    return event.settings if event else None


def doubles_event(tournament: Tournament) -> DoublesEvent:
    event = settings_row(DoublesEvent, tournament, DOUBLES)
    if event is None:
        raise Conflict(_("This tournament is not a doubles event."), "not_doubles_event")
    return event


def entrant_users(player: Player) -> set[int]:
    """The other account that acts for the pair ``player`` (its partner's), if any."""
    return set(DoublesPartner.objects.filter(player=player).values_list("user_id", flat=True))


def check_registration(tournament: Tournament, user: Any) -> None:
    """A pair's partner plays in its pair: the same account cannot also enter on its own."""
    if DoublesPartner.objects.filter(player__tournament=tournament, user=user).exists():
        raise Conflict(_("This account already plays in this event as a pair's partner."),
                       "already_partner")


def pairing_players(tournament: Tournament, number: int, players: list) -> list:
    """Every pair paired is complete: a pair still without its partner holds the round."""
    complete = set(DoublesPartner.objects.filter(player__in=players).values_list("player_id", flat=True))
    missing = sorted(p.name for p in players if p.pk not in complete)
    if missing:
        raise Conflict(_("These pairs have no partner yet: %(names)s.") % {"names": ", ".join(missing[:12])},
                       "pairs_incomplete")
    return players


def _may_act_for(actor: Actor, player: Player) -> bool:
    return actor.is_staff or is_self(actor, player) or (
        actor.user_id is not None and actor.user_id in entrant_users(player))


@transaction.atomic
def add_partner(actor: Actor, tournament: Tournament, player: Player, username: str) -> DoublesPartner:
    """The pair's second account (the first partner or staff name it by username)."""
    if not (actor.is_staff or is_self(actor, player)):
        raise Forbidden(_("Only this pair's first partner or an organiser can name its partner."),
                        "not_your_pair")
    locked = locked_tournament(tournament)  # one account in one pair of the event, at once
    doubles_event(locked)
    if DoublesPartner.objects.filter(player=player).exists():
        raise Conflict(_("This pair already has its partner."), "pair_complete")
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise Invalid(_("No account is named “%(username)s”.") % {"username": username}, "partner_unknown")
    if user.pk == player.user_id:
        raise Invalid(_("A pair is two different accounts."), "partner_self")
    taken = (locked.players.filter(user=user).exists()
             or DoublesPartner.objects.filter(player__tournament=locked, user=user).exists())
    if taken:
        raise Invalid(_("“%(username)s” already plays in this event.") % {"username": username},
                      "partner_taken")
    partner = DoublesPartner.objects.create(player=player, user=user)
    record(actor, "doubles_partner_added", locked, player, {"player": player.pk, "user": user.pk})
    return partner


def _limit(event: DoublesEvent, tournament: Tournament, player: Player) -> int:
    """The points the partner's list may use."""
    if event.settings["points"] != PER_PAIR:
        return tournament.points_limit
    main = lists.current_list(player, "")
    if main is None:
        raise Conflict(_("The points are shared by the pair: enter the first partner's list first."),
                       "pair_main_list_first")
    return max(tournament.points_limit - main.total_points, 1)


@transaction.atomic
def submit_partner_list(actor: Actor, tournament: Tournament, player: Player, entries: Sequence[Any],
                        source_format: str = "units") -> ArmyList:
    """A new version of the partner's list (the partner, the first partner or staff)."""
    if not _may_act_for(actor, player):
        raise Forbidden(_("Only this pair or an organiser can change this list."), "not_your_list")
    locked = Player.objects.select_for_update(of=("self", "tournament"), no_key=True).select_related(
        "tournament__chart").get(pk=player.pk)
    event = doubles_event(locked.tournament)
    partner = DoublesPartner.objects.select_for_update().filter(player=locked).first()
    if partner is None:
        raise Conflict(_("Name the pair's partner first."), "pair_incomplete")
    if lists.lists_locked(locked.tournament) and not locked.list_unlocked:
        raise Conflict(_("Lists are locked for this tournament. Ask an organiser to unlock yours."),
                       "list_locked")
    t = locked.tournament
    army = army_lists.store_list(
        owner=partner.user, chart=t.chart, points_limit=_limit(event, t, locked), entries=entries,
        name=f"{locked.name} (2) — {t.name}"[:200], source_format=source_format,
        supersedes=partner.army_list)
    partner.army_list = army
    partner.save(update_fields=["army_list"])
    record(actor, "doubles_list_submitted", t, locked, {"player": locked.pk, "list": army.pk})
    return army


def pair_data(actor: Actor, tournament: Tournament, player: Player) -> dict[str, Any]:
    """The pair: both accounts, both lists' points (and the lists' ids to whom may read them),
    and whether the pair keeps to the points rule."""
    event = doubles_event(tournament)
    partner = DoublesPartner.objects.select_related("user", "army_list").filter(player=player).first()
    main = lists.current_list(player, "")
    second = partner.army_list if partner else None
    used = [a.total_points for a in (main, second) if a is not None]
    limit = tournament.points_limit
    within = (sum(used) <= limit) if event.settings["points"] == PER_PAIR else all(u <= limit for u in used)
    readable = _may_act_for(actor, player) or tournament.lists_published
    return {
        "player": player.pk, "name": player.name, "points": event.settings["points"],
        "partner": partner.user.get_username() if partner else None,
        "lists": [{"member": n, "total_points": a.total_points if a else None,
                   "valid": a.valid if a else None, "id": a.pk if a and readable else None}
                  for n, a in ((1, main), (2, second))],
        "points_limit": limit, "points_used": sum(used),
        "within_limit": within and len(used) == 2 and all(a.valid for a in (main, second) if a),
    }


def get_pair(tournament: Tournament, pk: int) -> Player:
    doubles_event(tournament)
    player = tournament.players.filter(pk=pk).first()
    if player is None:
        raise NotFound(_("No such player in this tournament."), "player_not_found")
    return player
