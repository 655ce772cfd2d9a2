"""Create tournaments, move them through their lifecycle, register and manage players."""
from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from events import formats
from events import notice_letters as notices
from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Player, Tournament
from events.services import factions
from missions.models import DiceStream
from missions.services import new_seed

Status = Tournament.Status
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION_OPEN,),
    Status.REGISTRATION_OPEN: (Status.DRAFT, Status.LISTS_LOCKED),
    Status.LISTS_LOCKED: (Status.REGISTRATION_OPEN, Status.RUNNING),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}
PLAYER_FIELDS = ("name", "club", "faction")
OPENING_STATUSES = (Status.DRAFT, Status.REGISTRATION_OPEN)  # what a new tournament may start as
SLUG_ATTEMPTS = 20  # concurrent creations with one name: each retry takes the next free suffix


def require_staff(actor: Actor) -> None:
    if not actor.is_staff:
        raise Forbidden(_("Only the organisers can do this."), "staff_only")


def free_slug(model: type, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``… : the first slug no ``model`` row has yet."""
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def unique_slug(name: str) -> str:
    return free_slug(Tournament, slugify(name)[:70] or "tournament")


@transaction.atomic
def create_tournament(actor: Actor, *, status: str = Status.DRAFT, **fields: Any) -> Tournament:
    """A new tournament with its own dice stream seeded from ``seed`` (random if absent).

    It is created as a draft; ``status=registration_open`` then opens it through the same
    audited step as ``transition``."""
    require_staff(actor)
    if status not in OPENING_STATUSES:
        raise Invalid(_("A new tournament is either a draft or open for registration."),
                      "status_not_allowed")
    if fields.get("game_system") is None and fields.get("chart") is not None:
        fields["game_system"] = fields["chart"].game_system  # services' callers; the API sends it
    seed = fields.pop("seed", None)
    seed = new_seed() if seed is None else seed
    slug = fields.pop("slug", None)
    settings_of = {f.name: fields.pop(f.name, None) for f in formats.with_settings()}
    tournament = Tournament(seed=seed, created_by=actor.user, **fields)
    tournament.full_clean(exclude=["slug", "dice", "created_by"])
    _insert(tournament, slug)
    record(actor, "tournament_created", tournament, tournament, {"seed": seed})
    event_format = formats.get(tournament.format)
    if event_format and event_format.create:
        event_format.create(actor, tournament, settings_of.get(tournament.format) or {})
    if status != Status.DRAFT:
        advance(actor, tournament, status)
    return tournament


def _insert(tournament: Tournament, slug: str | None) -> None:
    """Save a new tournament under ``slug``, or under the first free slug of its name.

    Two creations with the same name can both see a slug free; the second insert then fails on
    the unique index, inside a savepoint, and takes the next free slug. A slug asked for
    explicitly is not changed: taken, it is a 409."""
    for _attempt in range(SLUG_ATTEMPTS):
        tournament.slug = slug or unique_slug(tournament.name)
        try:
            with transaction.atomic():
                # The key only has to be unique: a deleted event's stream stays behind with its rolls.
                tournament.dice = DiceStream.objects.create(
                    key=f"tournament:{tournament.slug}:{uuid.uuid4().hex[:12]}", seed=tournament.seed)
                tournament.save(force_insert=True)
            return
        except IntegrityError:
            if not Tournament.objects.filter(slug=tournament.slug).exists():
                raise  # another constraint failed: not a slug race
            if slug:
                break
    raise Conflict(_("Another tournament already has this address; choose another name."),
                   "slug_taken")


def locked_tournament(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the end of the caller's transaction.

    Only this row (``of=("self",)``): the chart and level it joins are shared by every event,
    and locking them would make all events queue on each other. ``no_key``: a plain FOR UPDATE
    would also block every insert that references the tournament (audit entries written while
    a report holds its game's lock), which deadlocks against a re-pairing deleting that game."""
    return Tournament.objects.select_for_update(of=("self",), no_key=True).select_related(
        "level", "chart", "game_system").get(pk=tournament.pk)


@transaction.atomic
def transition(actor: Actor, tournament: Tournament, target: str) -> Tournament:
    """Move the lifecycle one allowed step; 409 for any other move."""
    require_staff(actor)
    return advance(actor, locked_tournament(tournament), target)


def advance(actor: Actor, locked: Tournament, target: str) -> Tournament:
    """``transition`` on a row the caller has locked (or just created) in its transaction."""
    if target == locked.status:
        return locked  # a repeated click changes nothing
    if target not in TRANSITIONS.get(locked.status, ()):
        raise Conflict(
            _("A tournament that is “%(current)s” cannot become “%(target)s”.")
            % {"current": Status(locked.status).label, "target": _status_label(target)},
            "transition_not_allowed",
        )
    if target == Status.FINISHED and locked.round_set.exclude(status="completed").exists():
        raise Conflict(_("Every round must be complete before the tournament finishes."),
                       "rounds_unfinished")
    previous, locked.status = locked.status, target
    locked.save(update_fields=["status"])
    step = record(actor, "status_changed", locked, locked, {"from": previous, "to": target})
    notices.queue_status(locked, target, step.pk)
    return locked


def _status_label(value: str) -> str:
    try:
        return str(Status(value).label)
    except ValueError:
        return value


@transaction.atomic
def publish_lists(actor: Actor, tournament: Tournament, published: bool = True) -> Tournament:
    require_staff(actor)
    locked = locked_tournament(tournament)
    if locked.lists_published != published:
        locked.lists_published = published
        locked.save(update_fields=["lists_published"])
        record(actor, "lists_published" if published else "lists_hidden", locked, locked)
    return locked


def _account(username: str):
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise Invalid(_("No account is called “%(username)s”.") % {"username": username},
                      "unknown_user") from None


@transaction.atomic
def register_player(actor: Actor, tournament: Tournament, *, name: str, club: str = "",
                    faction: str = "", username: str | None = None) -> Player:
    """Staff register anyone at any time before the end; a player registers themself while
    registration is open. The faction follows ``factions.resolve`` for both."""
    locked = locked_tournament(tournament)
    if locked.status == Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    if actor.is_staff:
        user = _account(username) if username else None
    else:
        if actor.user is None:
            raise Forbidden(_("Sign in to register."), "not_authenticated")
        if username and username != actor.user.get_username():
            raise Forbidden(_("Only the organisers can register someone else."), "staff_only")
        if locked.status != Status.REGISTRATION_OPEN:
            raise Conflict(_("Registration is not open for this tournament."), "registration_closed")
        user = actor.user
    if user is not None and locked.players.filter(user=user).exists():
        raise Conflict(_("This account is already registered for this tournament."),
                       "already_registered")
    event_format = formats.get(locked.format)
    if user is not None and event_format is not None and event_format.check_registration is not None:
        event_format.check_registration(locked, user)
    faction = factions.resolve(locked, faction)
    player = Player.objects.create(tournament=locked, user=user, name=name, club=club, faction=faction)
    record(actor, "player_registered", locked, player, {"player": player.pk, "user": getattr(user, "pk", None)})
    notices.queue_registered(player)  # the confirmation with the check-in code, after the commit
    return player


def get_player(tournament: Tournament, player_id: int) -> Player:
    try:
        return tournament.players.get(pk=player_id)
    except Player.DoesNotExist:
        raise NotFound(_("No such player in this tournament."), "player_not_found") from None


def is_self(actor: Actor, player: Player) -> bool:
    return actor.user_id is not None and player.user_id == actor.user_id


@transaction.atomic
def update_player(actor: Actor, player: Player, **changes: Any) -> Player:
    """Staff change anything (check-in, drop, name…); a player may only drop themself."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if not (actor.is_staff or is_self(actor, locked)):
        # Checked before the fields: an empty body from a stranger is refused too.
        raise Forbidden(_("Only the organisers can change this."), "staff_only")
    refused = sorted(set(changes) - {"dropped"}) if not actor.is_staff else []
    if refused:
        raise Forbidden(_("Only the organisers can change this."), "staff_only", fields=refused)
    if not actor.is_staff and changes.get("dropped") is False:
        raise Forbidden(_("Only the organisers can bring a dropped player back."), "staff_only")
    if not changes:
        return locked  # nothing to save or to log
    before = {key: _plain(getattr(locked, key)) for key in changes}
    for key, value in changes.items():
        setattr(locked, key, value)
    fields = list(changes)
    if "checked_in" in changes and changes["checked_in"] != before["checked_in"]:
        # When and by whom: a second check-in at the door says so (services/checkin.py).
        locked.checked_in_at = timezone.now() if locked.checked_in else None
        locked.checked_in_by = actor.user if locked.checked_in and actor.user_id else None
        fields += ["checked_in_at", "checked_in_by"]
    locked.save(update_fields=fields)
    record(actor, "player_changed", locked.tournament, locked,
           {"player": locked.pk, "before": before,
            "after": {key: _plain(value) for key, value in changes.items()}})
    return locked


def _plain(value: Any) -> Any:
    """A value the audit log's JSON can hold (a related row becomes its id)."""
    return getattr(value, "pk", value)
