"""Each phase's declaring as a turn keeps it (G11): the campaign's declaration mode and, per
phase, ``{"first", "ready", "revealed", "deadline"}`` in ``CampaignTurn.declarations``."""
from __future__ import annotations

from dataclasses import replace

from campaigns.engine import map as grid
from campaigns.engine.declaration import (
    PhaseDeclarations,
)
from campaigns.models import Campaign, CampaignTurn
from campaigns.services.campaign import (
    settings_of,
)


def mode_of(campaign: Campaign) -> str:
    return settings_of(campaign).declaration_mode


def phase_declarations(turn: CampaignTurn, phase: str | None = None) -> PhaseDeclarations:
    """The phase's declaring (the open phase by default); ``first`` defaults to the winner of
    the phase's initiative (R15: « le plus haut choisit qui commence »)."""
    phase = phase or turn.phase
    found = PhaseDeclarations.from_data((turn.declarations or {}).get(phase))
    if found.first is None:
        winner = (turn.initiative or {}).get(phase, {}).get("winner")
        if winner in grid.SIDES:
            found = replace(found, first=winner)
    return found


def save_phase(turn: CampaignTurn, phase: str, found: PhaseDeclarations) -> None:
    turn.declarations = {**(turn.declarations or {}), phase: found.data()}
    turn.save(update_fields=["declarations"])
