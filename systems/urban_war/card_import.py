"""Import profile cards from a CSV file (armylists/profile_cards.parse_csv): all or nothing."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from armylists.models import Faction, GameSystem, ProfileCard
from systems.urban_war.profile_cards import CardProblem, RowError, parse_csv

MAX_CSV_BYTES = 256 * 1024
ROW_KEYS = ("name_en", "name_fr", "stats", "cal_options", "options", "options_cost_modifier",
            "equipment_en", "equipment_fr")


@dataclass(frozen=True)
class CardImport:
    """What an import did: the cards written (new or changed), or the rows' errors (then none)."""

    created: tuple[ProfileCard, ...] = ()
    updated: tuple[ProfileCard, ...] = ()
    errors: tuple[RowError, ...] = ()


def import_cards(game_system: GameSystem, data: bytes) -> CardImport:
    """Create or update the file's cards of ``game_system``; any row error writes nothing."""
    parsed = parse_csv(data)
    factions = {f.slug: f for f in Faction.objects.filter(game_system=game_system)}
    errors = list(parsed.errors)
    errors += [RowError(row["line"], CardProblem("faction_unknown", {"faction": row["faction"]}))
               for row in parsed.rows if row["faction"] not in factions]
    if errors or not parsed.rows:
        return CardImport(errors=tuple(sorted(errors, key=lambda e: e.line)))
    created: list[ProfileCard] = []
    updated: list[ProfileCard] = []
    with transaction.atomic():
        existing = {c.card: c for c in ProfileCard.objects.select_for_update().filter(
            game_system=game_system, card__in=[row["card"] for row in parsed.rows])}
        for row in parsed.rows:
            card = existing.get(row["card"]) or ProfileCard(game_system=game_system, card=row["card"])
            (updated if card.pk else created).append(card)
            for key in ROW_KEYS:
                setattr(card, key, row[key])
            card.faction = factions[row["faction"]]
            card.save()
    return CardImport(tuple(created), tuple(updated))
