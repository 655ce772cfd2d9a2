"""The Urban War boxes of a table sheet (seed 002): both commandos read once per pack, worded in
the tournament's language (the caller activates it), and the D10 reference card worded from the
pure data of systems/urban_war/table_rules.py (U-R ids of systems/urban-war.md)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from armylists.models import ProfileCard
from config.i18n import current_language
from events.models import Player, PlayerList, Tournament
from systems.sheets import SheetBlock
from systems.urban_war import table_rules as engine
from systems.urban_war.sheet import (
    COMMANDER_MARK,
    FOLLOW_UP_BOXES,
    TICK,
    BandLine,
    CommandosBox,
    CommandoText,
    InitiativeBox,
    ModelLine,
    OutcomeBox,
    ReferenceBox,
    ReferenceLine,
    SetupBox,
)

# Rows printed for a commando written in by hand (a player without a list): the event's largest
# commando, at most this many, so that one page still holds both (U-R1: "6 to 20").
WRITE_IN_ROWS = 20
# The most rows the front holds (smaller rows above CommandosBox.STANDARD_ROWS). A larger
# commando (an event above the seed's 20, or a list refused for its size) prints its first
# models and says how many are left out, rather than failing the round's pack.
MAX_ROWS = 28
DEFAULT_SIZE_MAX = 20
INITIATIVE_TURNS = 10  # the quick-start has no turn limit (UG3): room for a long game
MINUS = "−"


@dataclass(frozen=True)
class StoredCommando:
    """A player's current commando as stored (armylists/systems/urban_war.stored_items)."""

    entries: tuple[Mapping[str, Any], ...]
    valid: bool


@dataclass(frozen=True)
class CardText:
    """A profile card's name and its options' names in the pack's language."""

    name: str
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Commandos:
    """Every commando of a round's players and the cards they use: two queries per pack."""

    by_player: Mapping[int, StoredCommando]
    cards: Mapping[str, CardText]
    rows: int


# --- reading ------------------------------------------------------------------------------------

def read_commandos(tournament: Tournament, player_ids: Iterable[int]) -> Commandos:
    """The players' main lists (one query) and the names of the cards in them (one query)."""
    rows = PlayerList.objects.filter(player_id__in=list(player_ids), role="").values_list(
        "player_id", "army_list__entries", "army_list__valid")
    by_player = {pid: StoredCommando(tuple(e for e in entries or () if isinstance(e, Mapping)),
                                     bool(valid)) for pid, entries, valid in rows}
    numbers = {str(e.get("profile")) for c in by_player.values() for e in c.entries}
    cards = card_texts(ProfileCard.objects.filter(
        game_system_id=tournament.game_system_id, card__in=numbers)) if numbers else {}
    return Commandos(by_player, cards, commando_rows(by_player.values(), tournament))


def card_texts(rows: Iterable[ProfileCard]) -> dict[str, CardText]:
    language = current_language()
    texts = {}
    for row in rows:
        options = {str(o.get("code")): str(o.get(f"name_{language}") or o.get("name_en")
                                           or o.get("name") or o.get("code"))
                   for o in row.options or () if isinstance(o, Mapping)}
        texts[row.card] = CardText(row.name, options)
    return texts


def commando_rows(commandos: Iterable[StoredCommando], tournament: Tournament) -> int:
    """Rows per commando on every sheet of the round: the largest commando, and room for one
    written by hand (the event's largest size, up to ``WRITE_IN_ROWS``)."""
    largest = max((len(c.entries) for c in commandos), default=0)
    size_max = int((tournament.settings or {}).get("size_max", DEFAULT_SIZE_MAX))
    return min(max(largest, min(size_max, WRITE_IN_ROWS), 1), MAX_ROWS)


# --- the commandos box --------------------------------------------------------------------------

def commandos_box(commandos: Commandos, players: Sequence[Player]) -> CommandosBox:
    a, b = (commando_text(p.name, commandos.by_player.get(p.pk), commandos.cards,
                          commandos.rows) for p in players)
    return CommandosBox(commandos.rows, a, b)


def commando_text(player: str, stored: StoredCommando | None, cards: Mapping[str, CardText],
                  rows: int) -> CommandoText:
    """The commando's first ``rows`` models and its total (of every model)."""
    if stored is None:
        return CommandoText(player, (), gettext("No commando submitted: write it in."))
    count = len(stored.entries)
    points = sum(_number(entry.get("points")) for entry in stored.entries)
    total = ngettext("Total %(points)d points, %(count)d model",
                     "Total %(points)d points, %(count)d models", count) % {
        "points": points, "count": count}
    if not stored.valid:
        total = gettext("%(total)s (the list is not valid)") % {"total": total}
    if count > rows:
        total = ngettext("%(total)s; %(count)d model is not printed",
                         "%(total)s; %(count)d models are not printed", count - rows) % {
            "total": total, "count": count - rows}
    return CommandoText(player, tuple(model_line(entry, cards) for entry in stored.entries[:rows]),
                        total)


def model_line(entry: Mapping[str, Any], cards: Mapping[str, CardText]) -> ModelLine:
    label = str(entry.get("label") or "")
    cal = _number(entry.get("cal"))
    fs = entry.get("fs")
    return ModelLine(
        label=f"{COMMANDER_MARK} {label}" if entry.get("commander") else label,
        card=card_line(entry, cards), cal=str(cal), fs="—" if fs is None else str(fs),
        points=str(_number(entry.get("points"))), follow_ups=follow_up_boxes(cal))


def card_line(entry: Mapping[str, Any], cards: Mapping[str, CardText]) -> str:
    """"43101 Colonial Marine + Flamer": the card, its name and the options taken."""
    number = str(entry.get("profile") or "")
    card = cards.get(number)
    text = f"{number} {card.name}" if card else number
    options = [(card.options.get(str(code)) if card else None) or str(code)
               for code in entry.get("options") or ()]
    return f"{text} + {', '.join(options)}" if options else text


def follow_up_boxes(cal: int) -> str:
    """One box per follow-up action (FU = CAL, U-R4); beyond ``FOLLOW_UP_BOXES`` a count."""
    if cal <= FOLLOW_UP_BOXES:
        return TICK * cal
    return f"{TICK * FOLLOW_UP_BOXES} +{cal - FOLLOW_UP_BOXES}"


def _number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


# --- boxes every table prints alike (and the initiative's names) --------------------------------

def setup_box() -> SetupBox:
    return SetupBox(engine.DEPLOY_WITHIN_INCHES)


def initiative_box(players: Sequence[Player]) -> InitiativeBox:
    return InitiativeBox(tuple(range(1, INITIATIVE_TURNS + 1)), signed(engine.COMMANDER_DOWN),
                         players[0].name, players[1].name)


AT_TIME = {
    engine.DESTROYED_OR_DRAW: _("At time, with both commandos still on the table, the game is a "
                                "draw; the points destroyed count as victory points for the "
                                "tie-breaks."),
    engine.MOST_POINTS_DESTROYED: _("At time, with both commandos still on the table, the player "
                                    "who destroyed more points wins; equal points are a draw."),
}


def outcome_box(tournament: Tournament) -> OutcomeBox:
    mode = (tournament.settings or {}).get("result_mode", engine.DESTROYED_OR_DRAW)
    return OutcomeBox(str(AT_TIME.get(mode, AT_TIME[engine.DESTROYED_OR_DRAW])))


# --- the D10 reference card (U-R10 to U-R14) --------------------------------------------------

ROLLS = {
    "shooting_to_hit": _("Shooting: to hit"),
    "shooting_to_wound": _("Shooting: to wound"),
    "cover_solid": _("Cover save, solid obstacle"),
    "cover_flimsy": _("Cover save, flimsy obstacle"),
    "heavy_armour": _("Heavy armour (+N)"),
    "melee_to_hit": _("Close combat: to hit"),
    "melee_to_wound": _("Close combat: to wound"),
    "command_test": _("Command test"),
}
# A term's words; "%(value)s" takes its signed value where the data gives one.
TERMS = {
    "SH": _("+ SH"),
    "weapon_modifier": _("+ the weapon's modifier at that range"),
    "target_size_4_plus": _("%(value)s if the target's SZ is 4 or more"),
    "moved": _("the band's penalty if the shooter moved"),
    "panicked": _("%(value)s if panicked"),
    "ST": _("+ ST"),
    "minus_T": _("− the target's T"),
    "heavy_armour_n": _("+ N"),
    "AS": _("+ AS"),
    "minus_enemy_AS": _("− the enemy's AS"),
    "charged": _("%(value)s if it charged"),
    "CD": _("+ CD"),
    "CAL": _("+ CAL"),
}
BANDS = {
    "close_combat": _("Close combat"),
    "short": _("Short"),
    "medium": _("Medium"),
    "long": _("Long"),
    "extreme": _("Extreme"),
}
COMMAND_MODIFIERS = {
    "commander_within_9": _("%(value)s within %(inches)d\" of the commander if he is not panicked "
                            "(not the commander himself)"),
    "priority_target_in_cover": _("%(value)s to shoot at another target when the priority target "
                                  "is in cover"),
    "interrupt_shot_per_band_beyond_short": _("%(value)s per range band beyond short for an "
                                              "interrupt shot"),
}


def reference_box() -> ReferenceBox:
    return ReferenceBox(
        rolls=tuple(reference_line(row) for row in engine.REFERENCE_CARD),
        bands=tuple(band_line(band) for band in engine.RANGE_BANDS),
        command_modifiers=tuple(
            str(COMMAND_MODIFIERS[code]) % {"value": signed(value),
                                           "inches": engine.COMMANDER_RADIUS_INCHES}
            for code, value in engine.COMMAND_MODIFIERS.items() if code in COMMAND_MODIFIERS),
        first_strike=gettext("Who strikes first: FS + the weapon's bonus, %(charge)s if the model "
                             "charged; the highest strikes first, equal scores strike together.")
        % {"charge": signed(engine.CHARGE_FIRST_STRIKE)},
        initiative=gettext("1D10 each, %(penalty)s if the commander is panicked or dead; the "
                           "highest wins, re-roll ties; the winner goes first or makes the "
                           "opponent go first.") % {"penalty": signed(engine.COMMANDER_DOWN)},
    )


def reference_line(row: engine.ReferenceRow) -> ReferenceLine:
    adds = ", ".join(term_text(term) for term in row.terms) or "—"
    if row.code == "command_test":
        success = gettext("%(target)d or more; an unmodified %(fail)d or less always fails") % {
            "target": row.target, "fail": engine.AUTOMATIC_FAILURE_MAX}
    else:
        success = f"{row.target}+"
    return ReferenceLine(str(ROLLS.get(row.code, row.code)), row.dice, adds, success, row.naturals)


def term_text(term: engine.Term) -> str:
    words = TERMS.get(term.code)
    if words is None:
        return term.code
    return str(words) % {"value": signed(term.value)} if term.value is not None else str(words)


def band_line(band: engine.RangeBand) -> BandLine:
    if band.high == 0:
        distance = gettext("base contact")
    elif band.low == 0:
        distance = gettext("up to %(high)d\"") % {"high": band.high}
    else:
        distance = f"{band.low}–{band.high}\""
    return BandLine(str(BANDS.get(band.code, band.code)), distance,
                    signed(band.moved) if band.moved else "—")


def signed(value: int) -> str:
    """+1, −2: with a true minus sign, as the seed's tables print them."""
    return f"{MINUS}{-value}" if value < 0 else f"+{value}"


# --- the boxes the system registers (systems/sheets) ---------------------------------------------

def _commandos_box(kit: Any, game: Any, players: Sequence[Player]) -> CommandosBox:
    return commandos_box(kit.gathered["urban_war_commandos"], players)


BOXES = {
    "urban_war_commandos": SheetBlock(_commandos_box, per_table=True, gather=read_commandos),
    "urban_war_initiative": SheetBlock(lambda kit, game, players: initiative_box(players),
                                       per_table=True),
    "urban_war_setup": SheetBlock(lambda kit: setup_box()),
    "urban_war_outcome": SheetBlock(lambda kit: outcome_box(kit.tournament)),
    "urban_war_reference": SheetBlock(lambda kit: reference_box()),
}
