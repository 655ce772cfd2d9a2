"""Background work for the league: printing mission packs."""
from celery import shared_task

from league.services import packs


@shared_task(name="league.build_mission_pack")
def build_mission_pack(pack_id: int, chunk_tables: int | None = None) -> str:
    """Render and store a round's mission pack; safe to run twice (see packs.build_pack)."""
    return packs.build_pack(pack_id, chunk_tables)
