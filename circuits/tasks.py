"""The circuit recompute, run by the worker for large inputs (queued by name)."""
from celery import shared_task

from circuits.services import compute


@shared_task(name="circuits.recompute")
def recompute(circuit_id: int) -> None:
    compute.recompute(circuit_id)
