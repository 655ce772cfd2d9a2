"""The air missions and landings of the turn as the player's page and the cockpit say them (R13,
R14, R19–R24), from what ``GET …/turns/{n}/air/`` shows the reader (R12: the enemy's missions
by kind and route, never the detachment)."""
from __future__ import annotations

from campaigns.air_rows import flak_line, interception_line, landing_line, mission_line, return_line
from campaigns.engine.state import CampaignState
from campaigns.models import Campaign, CampaignTurn
from campaigns.services import air as campaign_air


def air_lines(campaign: Campaign, turn: CampaignTurn, viewer: str | None,
              state: CampaignState | None = None) -> dict[str, list[str]]:
    """``state``, when the caller has it, spares the reads of a turn without air missions."""
    if state is not None and not turn.air and not state.missions():
        return {"missions": [], "flak": [], "interceptions": [], "landings": []}
    seen = campaign_air.air_view(campaign, turn, viewer)
    return {"missions": [mission_line(m) for m in seen["missions"]],
            "flak": [flak_line(r) for r in seen["flak"]],
            "interceptions": [interception_line(i) for i in seen["interceptions"]]
            + [return_line(b) for b in seen["returns"]],
            "landings": [landing_line(e) for e in seen["landings"]]}
