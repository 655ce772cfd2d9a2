"""Urban War commandos (seed 002, « Règles d'introduction rapide »): profile cards and the
commando check. Pure: no Django.

Independent of the count-based chart engine (armylists/validation.py), whose Problem it reuses so
reports render the same way. Codes and params (api-v1-systems "Urban War"), every problem at once,
in this order:

- ``points_over_limit`` (total, limit, excess);
- ``commando_size_below_min`` (count, min) or ``commando_size_above_max`` (count, max) (U-R1, UG2);
- ``commander_missing`` or ``commander_multiple`` (count) (U-R9);
- per model, in list order: ``unknown_profile`` (profile), ``cal_not_available`` (profile, cal,
  available), ``option_not_available`` (profile, option, label);
- ``label_duplicate`` (label, count) for a label given to several models (results name models by
  label), then ``profile_copies_above_max`` (profile, count, max) when the event caps copies (UG9).
- warning ``option_repeated`` (label, option): an option is on or off, so it is counted once.

A model costs its card's cost at its calibre plus its options (U-R2, U-R8; flat per model, UG8).
A model whose cost cannot be read (unknown card, calibre N/A) counts its readable part only; the
list is invalid anyway. Follow-up actions = calibre (U-R4, UG6). A model without a label gets a
stable one, ``<card>-<n>`` (n counts the unlabelled models of that card), never clashing with
another label of the list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from armylists.catalogue import read
from armylists.validation import Problem
from config.refusals import Refusal

SYSTEM = "urban-war"
CHART = "urban-war-commando"
DATA_FILE = "urban_war.json"
# « AS SH ST T W CD SZ MV » (card 43101); U-R6: AS, SH, ST, T, CD « varie de 1 à 10 »;
# W, SZ, MV « de 1 ou plus ».
STATS: tuple[str, ...] = ("AS", "SH", "ST", "T", "W", "CD", "SZ", "MV")
STATS_ONE_TO_TEN = frozenset({"AS", "SH", "ST", "T", "CD"})
# U-R1 « d'environ 6 à 20 figurines »: hard bounds by default, editable per event (UG2).
SIZE_MIN, SIZE_MAX = 6, 20


@dataclass(frozen=True)
class CalOption:
    """One calibre row of a card: its First Strike and cost; ``cost`` None is « N/A »."""

    cal: int
    fs: int | None
    cost: int | None

    def __post_init__(self) -> None:
        # U-R3 « Elle est de 0 ou plus ».
        if self.cal < 0:
            raise ValueError("a calibre is 0 or more")
        if self.cost is not None and (self.cost < 0 or self.fs is None):
            raise ValueError(f"CAL{self.cal}: an available calibre has a First Strike and a cost ≥ 0")

    @property
    def available(self) -> bool:
        return self.cost is not None


@dataclass(frozen=True)
class CardOption:
    """An option printed on a card: a stable code, its names and its flat cost (None: N/A)."""

    code: str
    name_en: str
    name_fr: str
    cost: int | None

    def __post_init__(self) -> None:
        if self.cost is not None and self.cost < 0:
            raise ValueError(f"option {self.code!r}: a cost cannot be negative")


@dataclass(frozen=True)
class ProfileCard:
    """A profile card (*carte de profil*) as Muster needs it for lists and the table sheet."""

    card: str
    faction: str
    name_en: str
    name_fr: str
    stats: Mapping[str, int]
    cal_options: tuple[CalOption, ...]
    options: tuple[CardOption, ...] = ()
    options_cost_modifier: str = ""
    by_cal: Mapping[int, CalOption] = field(init=False, repr=False, compare=False, hash=False)
    by_option: Mapping[str, CardOption] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", str(self.card))
        object.__setattr__(self, "cal_options", tuple(sorted(self.cal_options, key=lambda o: o.cal)))
        object.__setattr__(self, "options", tuple(self.options))
        if set(self.stats) != set(STATS):
            raise ValueError(f"card {self.card}: the stats are exactly {', '.join(STATS)}")
        for name, value in self.stats.items():
            low, high = (1, 10) if name in STATS_ONE_TO_TEN else (1, None)
            if value < low or (high is not None and value > high):
                raise ValueError(f"card {self.card}: {name} {value} is outside its range")
        by_cal = {option.cal: option for option in self.cal_options}
        by_option = {option.code: option for option in self.options}
        if len(by_cal) != len(self.cal_options) or len(by_option) != len(self.options):
            raise ValueError(f"card {self.card}: a calibre or an option code appears twice")
        object.__setattr__(self, "by_cal", by_cal)
        object.__setattr__(self, "by_option", by_option)

    @property
    def available_cals(self) -> tuple[int, ...]:
        """The calibres a player may tick: those with a cost (« N/A » excluded)."""
        return tuple(option.cal for option in self.cal_options if option.available)

    def name(self, language: str = "en") -> str:
        return self.name_fr if language == "fr" else self.name_en

    def to_dict(self, language: str = "en") -> dict[str, Any]:
        """The contract's profile shape (``GET /api/v1/profiles/``), names in ``language``."""
        return {
            "card": self.card, "name": self.name(language), "faction": self.faction,
            "stats": {name: self.stats[name] for name in STATS},
            "cal_options": [{"cal": o.cal, "fs": o.fs, "cost": o.cost} for o in self.cal_options],
            "options": [{"code": o.code, "name": o.name_fr if language == "fr" else o.name_en, "cost": o.cost}
                        for o in self.options],
        }


def card_from_dict(row: Mapping[str, Any]) -> ProfileCard:
    """A card from its JSON form (the data file, later the database row's fields)."""
    return ProfileCard(
        card=str(row["card"]),
        faction=row["faction"],
        name_en=row["name_en"],
        name_fr=row["name_fr"],
        stats=dict(row["stats"]),
        cal_options=tuple(CalOption(o["cal"], o["fs"], o["cost"]) for o in row["cal_options"]),
        options=tuple(CardOption(o["code"], o.get("name_en", o.get("name", o["code"])),
                                 o.get("name_fr", o.get("name", o["code"])), o["cost"])
                      for o in row.get("options", ())),
        options_cost_modifier=row.get("options_cost_modifier", ""),
    )


def load_cards(data: Mapping[str, Any] | None = None) -> dict[str, ProfileCard]:
    """Every card of the data file (or of ``data``), by card number."""
    rows = (data if data is not None else read(DATA_FILE))["profile_cards"]
    cards = {card.card: card for card in map(card_from_dict, rows)}
    if len(cards) != len(rows):
        raise ValueError("a card number appears twice")
    return cards


class CalNotAvailable(Refusal, ValueError):
    """The card has no cost for this calibre."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "cal_not_available")


class OptionNotAvailable(Refusal, ValueError):
    """The card has no such option, or no cost for it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "option_not_available")


def model_cost(card: ProfileCard, cal: int, options: Sequence[str] = ()) -> int:
    """Cost at the calibre (U-R2) plus each option once (U-R8, UG8)."""
    row = card.by_cal.get(cal)
    if row is None or row.cost is None:
        raise CalNotAvailable(f"card {card.card} has no cost at CAL{cal}")
    total = row.cost
    for code in dict.fromkeys(options):
        option = card.by_option.get(code)
        if option is None or option.cost is None:
            raise OptionNotAvailable(f"card {card.card} has no option {code!r}")
        total += option.cost
    return total


@dataclass(frozen=True)
class CommandoModel:
    """One model as the player enters it: card number, chosen calibre, options, commander, label."""

    profile: str
    cal: int
    options: tuple[str, ...] = ()
    commander: bool = False
    label: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "profile", str(self.profile))
        object.__setattr__(self, "options", tuple(self.options))
        label = self.label.strip() if isinstance(self.label, str) else None
        object.__setattr__(self, "label", label or None)


@dataclass(frozen=True)
class CommandoRules:
    """An event's bounds (UG2) and its optional copy limit per card (UG9, off by default)."""

    size_min: int = SIZE_MIN
    size_max: int = SIZE_MAX
    max_copies: int | None = None

    def __post_init__(self) -> None:
        if self.size_min < 0 or self.size_max < self.size_min:
            raise ValueError("0 ≤ size_min ≤ size_max")
        if self.max_copies is not None and self.max_copies < 1:
            raise ValueError("max_copies is at least 1")


@dataclass(frozen=True)
class PricedModel:
    """A model of the answer (the contract's ``entries``): ``fs`` None when the calibre is N/A."""

    profile: str
    label: str
    cal: int
    points: int
    fs: int | None
    fu: int
    commander: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile, "label": self.label, "cal": self.cal,
                "points": self.points, "fs": self.fs, "fu": self.fu}


@dataclass(frozen=True)
class CommandoReport:
    """The verdict: ``valid`` exactly when there are no errors; fields as the contract names them."""

    valid: bool
    total_points: int
    models: int
    follow_up_actions: int
    commander: str | None
    entries: tuple[PricedModel, ...]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, without messages (the API adds them in the reader's language)."""
        return {
            "valid": self.valid, "total_points": self.total_points, "models": self.models,
            "follow_up_actions": self.follow_up_actions, "commander": self.commander,
            "entries": [entry.to_dict() for entry in self.entries],
            "errors": [problem.to_dict() for problem in self.errors],
            "warnings": [problem.to_dict() for problem in self.warnings],
        }


def labels(models: Sequence[CommandoModel]) -> tuple[str, ...]:
    """Each model's label: its own, or ``<card>-<n>`` skipping every label already in the list."""
    taken = {model.label for model in models if model.label is not None}
    counters: Counter[str] = Counter()
    result: list[str] = []
    for model in models:
        if model.label is not None:
            result.append(model.label)
            continue
        while True:
            counters[model.profile] += 1
            label = f"{model.profile}-{counters[model.profile]}"
            if label not in taken:
                break
        taken.add(label)
        result.append(label)
    return tuple(result)


def _price(model: CommandoModel, label: str, card: ProfileCard | None) -> tuple[PricedModel, list[Problem]]:
    fu = max(model.cal, 0)  # U-R4 « une action supplémentaire … pour chaque point de CAL »
    if card is None:
        return (PricedModel(model.profile, label, model.cal, 0, None, fu, model.commander),
                [Problem("unknown_profile", None, {"profile": model.profile})])
    problems: list[Problem] = []
    row = card.by_cal.get(model.cal)
    points, fs = (row.cost, row.fs) if row is not None and row.available else (0, None)
    if fs is None:
        problems.append(Problem("cal_not_available", None, {
            "profile": model.profile, "cal": model.cal, "available": list(card.available_cals)}))
    for code in dict.fromkeys(model.options):
        option = card.by_option.get(code)
        if option is None or option.cost is None:
            problems.append(Problem("option_not_available", None,
                                    {"profile": model.profile, "option": code, "label": label}))
        else:
            points += option.cost
    return PricedModel(model.profile, label, model.cal, points, fs, fu, model.commander), problems


def validate_commando(
    models: Sequence[CommandoModel],
    cards: Mapping[str, ProfileCard],
    points_limit: int | None,
    rules: CommandoRules = CommandoRules(),
) -> CommandoReport:
    """Check a commando: points, size, one commander, cards, calibres and options; all at once.

    ``points_limit`` None: no limit (the quick-start has none; events set one, UG1).
    """
    if points_limit is not None and points_limit < 0:
        raise ValueError("a points limit cannot be negative")
    names = labels(models)
    priced: list[PricedModel] = []
    model_problems: list[Problem] = []
    warnings: list[Problem] = []
    for model, label in zip(models, names, strict=True):
        entry, problems = _price(model, label, cards.get(model.profile))
        priced.append(entry)
        model_problems += problems
        repeated = [code for code, count in Counter(model.options).items() if count > 1]
        warnings += [Problem("option_repeated", None, {"label": label, "option": code}) for code in repeated]

    total = sum(entry.points for entry in priced)
    errors: list[Problem] = []
    if points_limit is not None and total > points_limit:
        errors.append(Problem("points_over_limit", None,
                              {"total": total, "limit": points_limit, "excess": total - points_limit}))
    count = len(models)
    if count < rules.size_min:
        errors.append(Problem("commando_size_below_min", None, {"count": count, "min": rules.size_min}))
    elif count > rules.size_max:
        errors.append(Problem("commando_size_above_max", None, {"count": count, "max": rules.size_max}))
    commanders = [entry.label for entry in priced if entry.commander]
    if not commanders:
        errors.append(Problem("commander_missing"))
    elif len(commanders) > 1:
        errors.append(Problem("commander_multiple", None, {"count": len(commanders)}))
    errors += model_problems
    errors += [Problem("label_duplicate", None, {"label": label, "count": n})
               for label, n in Counter(m.label for m in models if m.label is not None).items() if n > 1]
    if rules.max_copies is not None:
        errors += [Problem("profile_copies_above_max", None, {"profile": card, "count": n, "max": rules.max_copies})
                   for card, n in Counter(m.profile for m in models).items() if n > rules.max_copies]
    return CommandoReport(
        valid=not errors, total_points=total, models=count,
        follow_up_actions=sum(entry.fu for entry in priced),
        commander=commanders[0] if len(commanders) == 1 else None,
        entries=tuple(priced), errors=tuple(errors), warnings=tuple(warnings),
    )
