"""Awards and penalties: define an event's extra score components, enter values, cast votes,
and read them all for the standings in one query."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import Value
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Player, Tournament
from events.services.tournaments import locked_tournament, require_staff
from venue.award_models import MAX_VALUE, MAX_WEIGHT, ScoreComponent, ScoreEntry, ScoreVote

Kind = ScoreComponent.Kind
COMPONENT_FIELDS = ("name", "kind", "weight", "players_vote", "counts")
MAX_REASON = 300


@dataclass(frozen=True)
class Component:
    """A component as the standings read it (no model instance)."""

    id: int
    name: str
    kind: str
    weight: int
    players_vote: bool
    counts: bool

    def points(self, value: int) -> int:
        return (-1 if self.kind == Kind.PENALTY else 1) * self.weight * value


@dataclass(frozen=True)
class ComponentScore:
    """One player's line in one component: the value (staff entry plus votes) and its points."""

    component: Component
    value: int
    points: int
    counted: bool


@dataclass(frozen=True)
class Extras:
    """An event's components and each player's value in them (staff value + votes received)."""

    components: tuple[Component, ...] = ()
    values: Mapping[tuple[int, int], int] = field(default_factory=dict)  # (component, player)

    def scores(self, player_id: int, *, ranked: bool = True) -> list[ComponentScore]:
        """Every component for ``player_id``, in definition order; ``counted`` only when the
        standings rank with extras and the component counts."""
        return [
            ComponentScore(c, value, c.points(value), ranked and c.counts)
            for c in self.components
            for value in (self.values.get((c.id, player_id), 0),)
        ]

    def extra(self, *, ranked: bool = True) -> dict[int, int]:
        """The points the standings engine adds per player (``extra``); empty when not ranked."""
        if not ranked:
            return {}
        by_id = {c.id: c for c in self.components}
        totals: dict[int, int] = defaultdict(int)
        for (component_id, player_id), value in self.values.items():
            component = by_id[component_id]
            if component.counts:
                totals[player_id] += component.points(value)
        return dict(totals)


def load(tournament: Tournament) -> Extras:
    """Components, staff entries and votes of ``tournament`` in a single query: a UNION of the
    three, each row carrying its component, so a page adds one query whatever its size."""
    columns = ("name", "kind", "weight", "players_vote", "counts")
    player = Value(None, output_field=models.BigIntegerField())
    defined = (ScoreComponent.objects.filter(tournament=tournament)
               .annotate(cid=models.F("pk"), who=player, amount=Value(0))
               .values_list("cid", *columns, "who", "amount").order_by())
    entered = (ScoreEntry.objects.filter(component__tournament=tournament)
               .annotate(cid=models.F("component_id"), who=models.F("player_id"),
                         amount=models.F("value"))
               .values_list("cid", *(f"component__{c}" for c in columns), "who", "amount")
               .order_by())
    voted = (ScoreVote.objects.filter(component__tournament=tournament)
             .annotate(cid=models.F("component_id"), who=models.F("voted_for_id"), amount=Value(1))
             .values_list("cid", *(f"component__{c}" for c in columns), "who", "amount")
             .order_by())
    components: dict[int, Component] = {}
    values: dict[tuple[int, int], int] = defaultdict(int)
    for cid, name, kind, weight, votes, counts, who, amount in defined.union(entered, voted, all=True):
        components.setdefault(cid, Component(cid, name, kind, weight, votes, counts))
        if who is not None:
            values[(cid, who)] += amount
    ordered = tuple(components[cid] for cid in sorted(components))
    return Extras(ordered, dict(values))


# Components ----------------------------------------------------------------------------------

def _checked(values: Mapping[str, Any]) -> dict[str, Any]:
    """The component fields, checked: a name, a known kind, a weight from 1 to MAX_WEIGHT."""
    name = str(values.get("name", "")).strip()
    if not name or len(name) > 80:
        raise Invalid(_("A component needs a name of at most 80 characters."), "component_name")
    kind = values.get("kind", Kind.AWARD)
    if kind not in Kind.values:
        raise Invalid(_("A component is an award or a penalty."), "component_kind")
    weight = values.get("weight", 1)
    if not isinstance(weight, int) or isinstance(weight, bool) or not 1 <= weight <= MAX_WEIGHT:
        raise Invalid(_("The weight is a whole number from 1 to %(max)s.") % {"max": MAX_WEIGHT},
                      "component_weight")
    return {"name": name, "kind": kind, "weight": weight,
            "players_vote": bool(values.get("players_vote", False)),
            "counts": bool(values.get("counts", True))}


def _save_component(component: ScoreComponent) -> None:
    try:
        with transaction.atomic():
            component.save()
    except IntegrityError:
        raise Conflict(_("This event already has a component called “%(name)s”.")
                       % {"name": component.name}, "component_name_taken") from None


@transaction.atomic
def define_component(actor: Actor, tournament: Tournament, **values: Any) -> ScoreComponent:
    """A new award or penalty of the event (staff; audited)."""
    require_staff(actor)
    locked = locked_tournament(tournament)
    component = ScoreComponent(tournament=locked, **_checked(values))
    _save_component(component)
    record(actor, "score_component_defined", locked, component,
           {"component": component.pk, **_fields(component)})
    return component


@transaction.atomic
def change_component(actor: Actor, component: ScoreComponent, **changes: Any) -> ScoreComponent:
    """Change a component's name, kind, weight, vote or ranking switch (staff; audited with
    before and after). Entries and votes stay: they are read with the new weight."""
    require_staff(actor)
    locked_tournament(component.tournament)
    current = ScoreComponent.objects.select_for_update().get(pk=component.pk)
    before = _fields(current)
    after = _checked({**before, **changes})
    if after == before:
        return current
    for key, value in after.items():
        setattr(current, key, value)
    _save_component(current)
    record(actor, "score_component_changed", current.tournament, current,
           {"component": current.pk, "before": before, "after": after})
    return current


@transaction.atomic
def remove_component(actor: Actor, component: ScoreComponent) -> None:
    """Delete a component with its entries and votes; the audit entry keeps what they were."""
    require_staff(actor)
    tournament = locked_tournament(component.tournament)
    entries = dict(component.entries.values_list("player_id", "value"))
    votes = component.votes.count()
    record(actor, "score_component_removed", tournament, component,
           {"component": component.pk, **_fields(component),
            "entries": {str(k): v for k, v in entries.items()}, "votes": votes})
    component.delete()


def _fields(component: ScoreComponent) -> dict[str, Any]:
    return {key: getattr(component, key) for key in COMPONENT_FIELDS}


def get_component(tournament: Tournament, component_id: int) -> ScoreComponent:
    found = tournament.score_components.filter(pk=component_id).first()
    if found is None:
        raise NotFound(_("No such award or penalty in this event."), "component_not_found")
    return found


# Entries -------------------------------------------------------------------------------------

@transaction.atomic
def set_entry(actor: Actor, component: ScoreComponent, player: Player, value: int | None,
              reason: str = "") -> ScoreEntry | None:
    """Staff enter ``value`` for ``player`` in ``component`` (None clears it). A penalty needs a
    reason. The player's row is locked, so two organisers typing in the same cell queue."""
    require_staff(actor)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.tournament_id != component.tournament_id:
        raise Invalid(_("This player is not registered for this event."), "player_not_found")
    reason = reason.strip()
    _check_entry(component, value, reason)
    current = ScoreEntry.objects.filter(component=component, player=locked).first()
    before = None if current is None else {"value": current.value, "reason": current.reason}
    after = None if value is None else {"value": value, "reason": reason}
    if before == after:
        return current
    if value is None:
        current.delete()
        current = None
    else:
        current = current or ScoreEntry(component=component, player=locked)
        current.value, current.reason, current.entered_by = value, reason, actor.user
        current.save()
    record(actor, "score_entry_set", component.tournament, locked,
           {"component": component.pk, "name": component.name, "player": locked.pk,
            "before": before, "after": after})
    return current


def _check_entry(component: ScoreComponent, value: int | None, reason: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
        raise Invalid(_("A value is a whole number from 0 to %(max)s.") % {"max": MAX_VALUE},
                      "entry_value")
    if len(reason) > MAX_REASON:
        raise Invalid(_("A reason has at most %(max)s characters.") % {"max": MAX_REASON},
                      "entry_reason_too_long")
    if component.kind == Kind.PENALTY and value > 0 and not reason:
        raise Invalid(_("A penalty needs a reason."), "penalty_reason_required")


# Votes ---------------------------------------------------------------------------------------

@transaction.atomic
def cast_vote(actor: Actor, component: ScoreComponent, voted_for: Player) -> ScoreVote:
    """A player of the event gives their one vote in ``component`` to another player while the
    event runs; voting again moves the vote. The voter's row is locked (a double submit queues)."""
    if actor.user_id is None:
        raise Forbidden(_("Sign in to vote."), "not_authenticated")
    voter = (Player.objects.select_for_update()
             .filter(tournament_id=component.tournament_id, user_id=actor.user_id).first())
    if voter is None:
        raise Forbidden(_("Only the players of this event can vote."), "not_a_player")
    if not component.players_vote:
        raise Forbidden(_("Players do not vote on this one."), "component_not_votable")
    status = Tournament.objects.filter(pk=component.tournament_id).values_list("status", flat=True)
    if status.first() != Tournament.Status.RUNNING:  # read now: the component may be old
        raise Conflict(_("Votes are open while the event runs."), "voting_closed")
    if voted_for.tournament_id != component.tournament_id:
        raise Invalid(_("This player is not registered for this event."), "player_not_found")
    if voted_for.pk == voter.pk:
        raise Invalid(_("You cannot vote for yourself."), "vote_for_self")
    vote, created = ScoreVote.objects.get_or_create(
        component=component, voter=voter, defaults={"voted_for": voted_for})
    if not created and vote.voted_for_id == voted_for.pk:
        return vote
    previous = None if created else vote.voted_for_id
    if not created:
        vote.voted_for = voted_for
        vote.save(update_fields=["voted_for", "created_at"])
    record(actor, "score_vote", voter.tournament, component,
           {"component": component.pk, "voter": voter.pk, "before": previous,
            "after": voted_for.pk})
    return vote


def votes_of(player: Player) -> dict[int, int]:
    """Component id -> the player this player voted for."""
    return dict(ScoreVote.objects.filter(voter=player).values_list("component_id", "voted_for_id"))


# Reading for the API ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """An event's components with what staff entered and the votes each player received: three
    queries whatever the size of the event."""

    components: tuple[ScoreComponent, ...]
    entries: Mapping[int, tuple[ScoreEntry, ...]]  # component id -> its entries, by player
    votes: Mapping[tuple[int, int], int]  # (component id, player id) -> votes received


def board(tournament: Tournament, component_id: int | None = None) -> Board:
    """Every component of ``tournament`` (or only ``component_id``) with its entries and votes."""
    components = tournament.score_components.order_by("pk")
    entries = ScoreEntry.objects.filter(component__tournament=tournament).select_related(
        "entered_by").order_by("component_id", "player_id")
    votes = ScoreVote.objects.filter(component__tournament=tournament)
    if component_id is not None:
        components = components.filter(pk=component_id)
        entries, votes = entries.filter(component_id=component_id), votes.filter(
            component_id=component_id)
    grouped: dict[int, list[ScoreEntry]] = defaultdict(list)
    for entry in entries:
        grouped[entry.component_id].append(entry)
    counted = votes.values_list("component_id", "voted_for_id").annotate(n=models.Count("pk"))
    return Board(tuple(components), {cid: tuple(rows) for cid, rows in grouped.items()},
                 {(cid, pid): n for cid, pid, n in counted.order_by()})
