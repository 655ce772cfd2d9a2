"""The tournament page's buttons and changelist actions: lifecycle, lists, pairing and
publishing, each through the services; and the sentence that tells what a pairing made."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events.admin.common import Status
from events.audit import Actor
from events.errors import Invalid, ServiceError
from events.models import Round, Tournament
from events.services import rounds, tournaments
from venue.admin.walkins import require_typed_name


def round_summary(round_: Round) -> dict[str, int]:
    rows = list(round_.games.values_list("player_b_id", "deviations"))
    return {"tables": sum(1 for b, _d in rows if b is not None),
            "byes": sum(1 for b, _d in rows if b is None),
            "deviations": sum(len(d or []) for _b, d in rows)}


def round_mission_text(round_: Round, rolls_missions: bool) -> str:
    """What a round is played with: its rolled mission, or the organisers' scenario."""
    if round_.mission is not None:
        return round_.mission.name
    if rolls_missions:
        return _("per table")
    return Truncator(round_.scenario).chars(60) or _("no scenario written yet")


def paired_message(round_: Round, sentence: str) -> str:
    """``sentence`` has %(number)s and %(details)s: whole sentences translate better."""
    counts = round_summary(round_)
    parts = [
        ngettext("%(n)s table", "%(n)s tables", counts["tables"]) % {"n": counts["tables"]},
        ngettext("%(n)s bye", "%(n)s byes", counts["byes"]) % {"n": counts["byes"]},
        ngettext("%(n)s pairing deviation", "%(n)s pairing deviations",
                 counts["deviations"]) % {"n": counts["deviations"]},
    ]
    return sentence % {"number": round_.number, "details": ", ".join(parts)}


def _round_number(data) -> int:
    try:
        return int(data.get("number", ""))
    except (TypeError, ValueError):
        raise Invalid(_("Say which round."), "round_number_missing") from None


def _do_transition(actor: Actor, t: Tournament, data) -> str:
    target = data.get("target", "")
    if target == Status.FINISHED and target in tournaments.TRANSITIONS.get(t.status, ()):
        require_typed_name(t, data)  # the finish page sends it (admin/league/walkins.py)
    updated = tournaments.transition(actor, t, target)
    return _("“%(name)s” is now “%(status)s”.") % {
        "name": updated.name, "status": Status(updated.status).label}


def _do_publish_lists(actor: Actor, t: Tournament, data) -> str:
    tournaments.publish_lists(actor, t, True)
    return _("Lists are now visible to every player.")


def _do_hide_lists(actor: Actor, t: Tournament, data) -> str:
    tournaments.publish_lists(actor, t, False)
    return _("Lists are hidden again: each player sees only their own.")


def _do_pair_draft(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.pair_next_round(actor, t, draft=True)
    return paired_message(round_, _("Round %(number)s paired as a draft (players do not see it yet): %(details)s."))


def _do_pair_publish(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.pair_next_round(actor, t, draft=False)
    return paired_message(round_, _("Round %(number)s paired and published: %(details)s."))


def _do_publish_round(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.publish_round(actor, t, _round_number(data))
    return paired_message(round_, _("Round %(number)s published: %(details)s."))


TOURNAMENT_ACTIONS: dict[str, Callable[[Actor, Tournament, Any], str]] = {
    "status": _do_transition,
    "publish_lists": _do_publish_lists,
    "hide_lists": _do_hide_lists,
    "pair_draft": _do_pair_draft,
    "pair_publish": _do_pair_publish,
    "publish_round": _do_publish_round,
}


def bulk_transition(target: str, label: str):
    """A changelist action moving every selected tournament to ``target``."""

    def action(modeladmin, request, queryset):
        actor = Actor.of(request)
        for t in queryset:
            try:
                modeladmin.message_user(request, _do_transition(actor, t, {"target": target}))
            except ServiceError as exc:
                modeladmin.message_user(request, f"{t.name}: {exc}", messages.ERROR)

    action.__name__ = f"make_{target}"
    return admin.action(description=label, permissions=["change"])(action)
