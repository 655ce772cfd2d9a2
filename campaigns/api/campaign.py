"""API helpers of the campaigns: a campaign refusal as a 400 and army problems as rows, shared
by the campaign endpoints (campaigns/api/) and the stateless tools (systems/epic40k/api.py)."""
from rest_framework import exceptions

from campaigns.engine import army
from campaigns.messages import campaign_message


def refuse_campaign(code: str, /, **params: object) -> None:
    """``missions.api.refuse`` for the campaign's own codes (campaigns/messages.py)."""
    raise exceptions.ValidationError({"detail": campaign_message(code, params), "code": code})


def problems(found: tuple[army.Problem, ...]) -> list[dict]:
    return [{"code": p.code, "message": campaign_message(p.code, p.params), "params": dict(p.params)}
            for p in found]
