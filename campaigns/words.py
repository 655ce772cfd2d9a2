"""Words of an Epic 40,000 campaign's pages (the player's page and the organiser's cockpit): the
engine's and the ledger's keys as the reader's language says them. Sentences for refusal codes
stay in campaigns/messages.py."""
from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from campaigns.messages import PHASE_NAMES

# R5: the seed's planet types, by the contract's slugs.
PLANETS: Mapping[str, str] = {
    "monde-demoniaque": _("Daemon World"),
    "monde-mort": _("Dead World"),
    "monde-primitif": _("Primitive World"),
    "monde-glace": _("Ice World"),
    "agri-monde": _("Agri-World"),
    "monde-ruche": _("Hive World"),
    "monde-desertique": _("Desert World"),
}

SIDES: Mapping[str, str] = {"west": _("West"), "east": _("East")}

# The ledger's kinds (R36–R40) and the organisers' own lines.
SCORE_KINDS: Mapping[str, str] = {
    "battle_won": _("battle won"),
    "swept": _("detachment swept away"),
    "isolated_lost": _("isolated detachment lost"),
    "territory_held": _("enemy territory held"),
    "territory_lost": _("own territory lost"),
    "other_sectors": _("other sectors"),
    "manual": _("organisers' correction"),
}

ORDER_KINDS: Mapping[str, str] = {
    "air_mission": _("air mission"),
    "infiltration": _("infiltration"),
    "move": _("move"),
    "fortify": _("fortification"),
    "attack": _("attack"),
    "reaction": _("reaction"),
    "vehicles": _("vehicles brought down from orbit"),
}

# R20–R24: the air missions.
MISSIONS: Mapping[str, str] = {
    "infiltration": _("infiltration"),
    "interception": _("interception"),
    "transport": _("transport / ground attack"),
    "escort": _("escort"),
}

RELOCATIONS: Mapping[str, str] = {
    "stay": _("stays in the captured territory"),
    "retreat": _("retreats"),
    "destroyed": _("destroyed"),
}

VICTORY_REASONS: Mapping[str, str] = {
    "score": _("the victory score was reached"),
    "all_territories": _("every territory is held"),
    "surrender": _("the enemy surrendered"),
}

REVEAL_SOURCES: Mapping[str, str] = {
    "battle": _("in battle"),
    "infiltration": _("by infiltration"),
    "capture": _("captured infiltrators"),
}

# R25: what one infiltration die did (campaigns/engine/air.py outcomes).
INFILTRATION_OUTCOMES: Mapping[str, str] = {
    "full_sheet": _("full sheet seen"),
    "war_engines": _("war engines seen"),
    "none": _("nothing seen"),
    "captured": _("infiltrators captured"),
}

KINDS: Mapping[str, str] = {"ground": _("ground"), "air": _("air"), "airborne": _("airborne")}


def word(table: Mapping[str, str], key: str | None) -> str:
    """The word for ``key``, or the key itself when the table does not know it."""
    if key is None:
        return ""
    return str(table.get(key, key))


def phase_name(phase: str | None) -> str:
    return str(PHASE_NAMES.get(phase or "", phase or ""))
