"""Applying a turn's orders again from the turn's start: after an organiser takes an order back
(campaigns/services/overrides.py), and when a phase's sealed orders are revealed in their
interleaved order (G11, campaigns/services/declarations.py). Orders an organiser forced
through are applied without a check."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from campaigns.engine.orders import Refusal, apply_order, check_order
from campaigns.engine.state import MOVE, ORDER_PHASE, VEHICLES, AcceptedOrder, CampaignState


def turn_start(state: CampaignState) -> CampaignState:
    """The detachments where they stood when the turn opened."""
    state = state.moves_undone(state.orders)
    # R13: vehicles brought down this turn were still in orbit when it opened.
    down = {(a.order.side, a.order.detachments[0]) for a in state.accepted(kinds=(VEHICLES,))}
    if down:
        state = replace(state, detachments=tuple(
            replace(d, vehicles_in_orbit=True) if (d.side, d.name) in down else d
            for d in state.detachments))
    return replace(state, orders=())


def _step(state: CampaignState, old: AcceptedOrder, forced: frozenset[int]
          ) -> tuple[CampaignState, AcceptedOrder | Refusal]:
    phased = replace(state, phase=ORDER_PHASE[old.order.kind])
    if old.id in forced:
        state = replace(phased, orders=(*phased.orders, old))
        if old.order.kind == MOVE:
            state = state.moved_all(old.order.side, old.order.detachments, old.order.to)
        return state, old
    verdict = check_order(phased, old.order)
    if verdict.refusal is not None:
        return state, verdict.refusal
    return apply_order(phased, old.order, old.id)


def replay(state: CampaignState, kept: Iterable[AcceptedOrder], forced: frozenset[int]
           ) -> tuple[CampaignState, dict[int, AcceptedOrder], tuple[AcceptedOrder, Refusal] | None]:
    """Apply ``kept`` again from the turn's start, each in its own phase: the state, the orders
    as the engine accepts them now (their Supreme Commander bonus may change) and the first one
    it refuses (the replay stops there)."""
    state = turn_start(state)
    now: dict[int, AcceptedOrder] = {}
    for old in kept:
        state, got = _step(state, old, forced)
        if isinstance(got, Refusal):
            return state, now, (old, got)
        now[old.id] = got
    return state, now, None


def replay_all(state: CampaignState, kept: Iterable[AcceptedOrder], forced: frozenset[int]
               ) -> tuple[CampaignState, dict[int, AcceptedOrder], dict[int, Refusal]]:
    """As ``replay``, but an order that is refused now is left out and the others go on: the
    sealed orders' reveal, where an order that became illegal is refused with its code."""
    state = turn_start(state)
    now: dict[int, AcceptedOrder] = {}
    refused: dict[int, Refusal] = {}
    for old in kept:
        state, got = _step(state, old, forced)
        if isinstance(got, Refusal):
            refused[old.id] = got
        else:
            now[old.id] = got
    return state, now, refused
