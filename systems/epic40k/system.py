"""The epic40k package's `GameSystem`: what the registry (systems/registry.py) gives the core.

Epic 40,000 is played as map campaigns (campaigns/), never as Swiss events: its armies are
stored under ``campaign_chart``, which has no slots."""
from systems.registry import GameSystem

SYSTEM = GameSystem(
    slug="epic40k",
    campaign_chart="epic40k-campaign",
    api_urls="systems.epic40k.urls",
)
