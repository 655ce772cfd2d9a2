"""An event's factions: what registration accepts, how a stored faction reads in the reader's
language, and the event page's faction table.

``Player.faction`` stays text: a faction of the system is stored as its English name
(``name_en``), so the text reads the same everywhere and maps back to the row for display."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from armylists.models import Faction
from events.errors import Invalid
from events.models import Player, Tournament

EXAMPLES = 5  # valid factions named in a refusal


def of_system(tournament: Tournament) -> list[Faction]:
    """The system's factions by English name (one query; none without a system)."""
    if tournament.game_system_id is None:
        return []
    return list(Faction.objects.filter(game_system_id=tournament.game_system_id).order_by("name_en"))


def restricted(tournament: Tournament, factions: Sequence[Faction]) -> bool:
    """Registration must pick one of ``factions``: the system has some and free text is off."""
    return bool(factions) and not tournament.free_faction


def keys(factions: Iterable[Faction]) -> dict[str, Faction]:
    """Each faction under its slug and both names, case-insensitive."""
    found: dict[str, Faction] = {}
    for faction in factions:
        for key in (faction.slug, faction.name_en, faction.name_fr):
            if key:
                found.setdefault(key.casefold(), faction)
    return found


def resolve(tournament: Tournament, text: str, factions: Sequence[Faction] | None = None) -> str:
    """The faction to store: blank stays blank; with a restricted list, a slug or a name (either
    language) becomes the faction's English name and anything else is refused."""
    text = (text or "").strip()
    if not text:
        return ""
    factions = of_system(tournament) if factions is None else factions
    if not restricted(tournament, factions):
        return text
    faction = keys(factions).get(text.casefold())
    if faction is None:
        examples = ", ".join(f.name for f in factions[:EXAMPLES])
        raise Invalid(_("Unknown faction “%(faction)s” for this game; choose one of its factions, "
                        "e.g. %(examples)s.") % {"faction": text, "examples": examples},
                      "faction_unknown")
    return faction.name_en


def label(text: str, by_key: dict[str, Faction]) -> str:
    """A stored faction in the reader's language when it names a faction of the system."""
    faction = by_key.get(text.casefold()) if text else None
    return faction.name if faction is not None else text


def table(ranked: Iterable[tuple[Any, Player]], by_key: dict[str, Faction],
          bye_points: str) -> list[dict[str, Any]]:
    """One row per faction played: players, win rate ((wins + draws / 2) / games, byes left
    out: they are no game) and average tournament points, from the standings rows."""
    groups: dict[str, dict[str, Any]] = {}
    for row, player in ranked:
        if not player.faction:
            continue
        faction = by_key.get(player.faction.casefold())
        key = f"#{faction.pk}" if faction is not None else player.faction.casefold()
        group = groups.setdefault(key, {"name": label(player.faction, by_key), "players": 0,
                                        "wins": 0, "draws": 0, "games": 0, "points": 0})
        wins = row.wins - (row.byes if bye_points == "win" else 0)
        draws = row.draws - (row.byes if bye_points == "draw" else 0)
        group["players"] += 1
        group["wins"] += wins
        group["draws"] += draws
        group["games"] += wins + draws + row.losses
        group["points"] += row.points
    rows = [
        {"name": g["name"], "players": g["players"], "games": g["games"],
         "win_rate": (100 * (g["wins"] + g["draws"] / 2) / g["games"]) if g["games"] else None,
         "average_points": g["points"] / g["players"]}
        for g in groups.values()
    ]
    return sorted(rows, key=lambda r: (-r["players"], r["name"].casefold()))
