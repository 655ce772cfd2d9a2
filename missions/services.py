"""Missions use cases: catalogue rows as engine specs, and dice streams that log every roll."""
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TypeVar

from django.db import transaction

from missions import margin, victory
from missions.catalogue_types import MissionSpec, StratagemException
from missions.dice import Roll, Roller
from missions.models import (
    DiceBatch,
    DiceRoll,
    DiceStream,
    MarginBand,
    Mission,
    Stratagem,
    StratagemCategory,
)

T = TypeVar("T")
MAX_SEED = 2**31 - 1

MISSION_SPEC_FIELDS = ("slug", "kind", "objective_kind", "d6", "order", "uses_victory_points", "roles",
                       "first_turn", "special_rules_by_level", "victory_points", "stratagem_exceptions")


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED)


def mission_spec(mission: Mission) -> MissionSpec:
    return MissionSpec.from_mapping({name: getattr(mission, name) for name in MISSION_SPEC_FIELDS})


def mission_table(missions: Iterable[Mission] | None = None) -> tuple[list[str], list[str]]:
    """Slugs for D6 results 1–5, and the special missions in catalogue order.

    ``missions``: the catalogue when the caller has already loaded it (saves a query)."""
    missions = sorted(Mission.objects.all() if missions is None else missions, key=lambda m: m.order)
    standard = [m.slug for m in sorted((m for m in missions if m.kind == "standard"), key=lambda m: m.d6 or 0)]
    special = [m.slug for m in missions if m.kind == "special"]
    return standard, special


def catalogue_names() -> dict[str, str]:
    """Stratagem and category slugs -> their names in the active language (for messages)."""
    names = {s.slug: s.name for s in Stratagem.objects.all()}
    names.update({c.slug: c.name for c in StratagemCategory.objects.all()})
    return names


def roll_data(roll: Roll) -> dict:
    """A logged roll as the API and the stored games show it."""
    return {"sequence": roll.sequence, "purpose": roll.purpose, "expression": roll.expression,
            "dice": list(roll.dice), "total": roll.total, "player": roll.actor}


def stratagem_categories() -> dict[str, str]:
    return dict(Stratagem.objects.values_list("slug", "category__slug"))


def exceptions_of(mission: Mission) -> tuple[StratagemException, ...]:
    return mission_spec(mission).stratagem_exceptions


def margin_band(vp_margin: int, points_limit: int) -> dict[str, str]:
    """The victory-margin band (TO-editable data) that a VP difference falls in."""
    rows = {band.slug: band for band in MarginBand.objects.all()}
    bands = [margin.MarginBand(slug, band.min_fraction) for slug, band in rows.items()]
    slug = margin.classify(vp_margin, points_limit, bands or margin.DEFAULT_BANDS)
    return {"slug": slug, "name": rows[slug].name if slug in rows else slug}


def stream_for(key: str, seed: int | None = None) -> DiceStream:
    stream, _created = DiceStream.objects.get_or_create(
        key=key, defaults={"seed": new_seed() if seed is None else seed}
    )
    return stream


@contextmanager
def rolling(stream: DiceStream, actor=None, *, batch: bool = False) -> Iterator[Roller]:
    """Lock the stream, hand out a roller resumed at its counter, and store every roll made:
    a DiceRoll row each, or with ``batch`` one DiceBatch row for them all (a round's pairing
    rolls thousands at once; a row each was most of its time, issue #15).

    Concurrent callers queue on the row lock, so two requests never reuse a roll number.
    """
    with transaction.atomic():
        locked = DiceStream.objects.select_for_update().get(pk=stream.pk)
        roller = Roller(locked.seed, locked.next_sequence)
        yield roller
        if batch:
            _store_batch(locked, roller.rolls, actor)
        else:
            DiceRoll.objects.bulk_create([
                DiceRoll(stream=locked, sequence=r.sequence, purpose=r.purpose, expression=r.expression,
                         dice=list(r.dice), total=r.total, actor=actor)
                for r in roller.rolls
            ])
        locked.next_sequence = roller.next_sequence
        locked.save(update_fields=["next_sequence"])
        stream.next_sequence = locked.next_sequence


def _store_batch(stream: DiceStream, rolls: Sequence[Roll], actor) -> None:
    if rolls:
        DiceBatch.objects.create(
            stream=stream, first_sequence=rolls[0].sequence, actor=actor,
            rolls=[[r.purpose, r.expression, list(r.dice), r.total] for r in rolls])


def logged_rolls(streams: Iterable[DiceStream]) -> list[DiceRoll]:
    """Every roll logged on ``streams``, rows and batches alike, as DiceRoll rows (a batch's
    unsaved), ordered by stream and roll number, their actor loaded. Two queries."""
    streams = list(streams)
    rolls = list(DiceRoll.objects.filter(stream__in=streams).select_related("actor"))
    for batch in DiceBatch.objects.filter(stream__in=streams).select_related("actor"):
        for roll in batch.as_rolls():
            roll.actor = batch.actor  # loaded once for the batch
            rolls.append(roll)
    rolls.sort(key=lambda r: (r.stream_id, r.sequence))
    return rolls


def roll_with(stream: DiceStream, action: Callable[[Roller], T], actor=None) -> T:
    with rolling(stream, actor) as roller:
        return action(roller)


def score_game(mission: Mission, sides: tuple[victory.SideState, victory.SideState]) -> victory.VpResult:
    """Score a finished game under the mission's VP rules (25% rule; raises VpInputError)."""
    return victory.score(sides, mission_spec(mission).victory_points)


def vp_result(sides: tuple[str, str], points: Mapping[str, int]) -> victory.VpResult:
    """Winner and margin from reported totals (no unit detail)."""
    return victory.result_of(tuple(victory.SideScore(name, points.get(name, 0), ()) for name in sides))
