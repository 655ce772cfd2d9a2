"""The campaign cockpit's buttons (systems/epic-campaign.md §1.1 and §1.7): each ``action``
posted to the campaign's change page and the handler that calls the service the API calls,
with the signed-in organiser as the actor (checked, locked, audited). A handler answers the
page's success message; a refusal is a ``ServiceError`` the page shows as an error."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.admin import air as campaign_air
from campaigns.admin.cockpit_context import placeable
from campaigns.admin.forms import (
    ArmyForm,
    CloseForm,
    ForceOrderForm,
    InfiltrationsForm,
    InitiativeForm,
    MajorsForm,
    PlacementForm,
    PlanetForm,
    RefuseOrderForm,
    ScoreEntryForm,
    SideForm,
)
from campaigns.forms import with_stored_details
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignDetachment
from campaigns.services import battles as campaign_battles
from campaigns.services import declarations as campaign_declarations
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import overrides as campaign_overrides
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.services import turns as campaign_turns
from campaigns.words import PLANETS, SIDES, phase_name, word
from events.audit import Actor
from events.errors import Invalid

Handler = Callable[[Actor, Campaign, Any], str]


def _valid(form: forms.Form) -> dict[str, Any]:
    """The form's data, or its errors as one service refusal (shown as the page's message)."""
    if form.is_valid():
        return form.cleaned_data
    words = "; ".join(f"{form.fields[k].label if k in form.fields else ''}: {' '.join(v)}".lstrip(": ")
                      for k, v in form.errors.items())
    raise Invalid(words, "form_invalid")


# Set-up -------------------------------------------------------------------------------------------

def _add_side(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(SideForm(data))
    row = campaign_setup.add_side(actor, c, side=got["side"], name=got["name"],
                                  army_name=got["army_name"], faction=got["faction"],
                                  strategic_value=got["strategic_value"],
                                  username=got["username"] or None)
    return _("%(side)s: %(army)s added.") % {"side": word(SIDES, row.side), "army": row.army_name}


def _set_army(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(ArmyForm(data))
    stored = dict(CampaignDetachment.objects.filter(side__campaign=c, side__side=got["side"])
                  .values_list("name", "units"))
    specs = [with_stored_details(spec, stored.get(spec.name, ())) for spec in got["detachments"]]
    report, saved = campaign_setup.set_army(actor, c, got["side"], specs)
    if not saved:
        raise Invalid("; ".join(campaign_message(p.code, p.params) for p in report.errors),
                      "army_invalid")
    notes = " ".join(campaign_message(p.code, p.params) for p in report.warnings)
    return (_("Army saved: %(n)s detachments, %(points)s points.")
            % {"n": len(got["detachments"]), "points": report.total_points} + (" " + notes if notes else ""))


def _set_majors(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(MajorsForm(data))
    row = campaign_setup.set_majors(actor, c, got["side"], [got["first"], got["second"]])
    return _("Majors of %(side)s: %(codes)s.") % {"side": word(SIDES, row.side),
                                                   "codes": ", ".join(row.majors)}


def _planet(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(PlanetForm(data))
    answer = campaign_setup.set_planet(actor, c, planet=got["planet"] or None,
                                       dice=None if got["planet"] else got["dice"])
    if answer.planet is None:
        return _("An 8: choose between %(a)s (G3).") % {
            "a": " / ".join(word(PLANETS, p) for p in answer.candidates)}
    return _("Planet: %(planet)s.") % {"planet": word(PLANETS, answer.planet)}


def _place(actor: Actor, c: Campaign, data: Any) -> str:
    form = PlacementForm(data, detachments=placeable(c))
    got = _valid(form)
    side, name = got["detachment"].split("|", 1)
    following = campaign_placement.place(actor, c, detachment=name, territory=got["territory"],
                                         side=side, dice=got["dice"])
    return _("%(name)s placed in %(code)s. Next: %(next)s.") % {
        "name": name, "code": got["territory"],
        "next": word(SIDES, following) if following else _("nobody, placement is complete")}


def _start(actor: Actor, c: Campaign, data: Any) -> str:
    campaign_placement.start(actor, c)
    return _("The campaign has started: turn 1 is open.")


# Turn ---------------------------------------------------------------------------------------------

def _initiative(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(InitiativeForm(data))
    answer = campaign_turns.roll_initiative(actor, c, c.current_turn, got["phase"], got["dice"],
                                            got.get("deadline"))
    rolls = "; ".join(f"{word(SIDES, r['side'])} {r['die']}+{r['modifier']}={r['score']}"
                      for r in answer["rolls"])
    return _("%(phase)s open: %(rolls)s; %(side)s chooses who acts first.") % {
        "phase": phase_name(answer["phase"]).capitalize(), "rolls": rolls,
        "side": word(SIDES, answer["winner"])}


def _infiltrations(actor: Actor, c: Campaign, data: Any) -> str:
    """R25: the same service as ``POST …/turns/{n}/infiltrations/``; the outcomes are listed
    on the page afterwards."""
    got = _valid(InfiltrationsForm(data))
    answer = campaign_infiltrations.resolve_infiltrations(actor, c, c.current_turn, got["dice"])
    count = len(answer["infiltrations"])
    if not count:
        return _("No infiltration left to resolve.")
    return ngettext("%(n)s infiltration resolved: its outcome is listed under the phases.",
                    "%(n)s infiltrations resolved: their outcomes are listed under the phases.",
                    count) % {"n": count}


def _battles(actor: Actor, c: Campaign, data: Any) -> str:
    created = campaign_battles.generate_battles(actor, c, c.current_turn)
    return ngettext("%(n)s battle generated.", "%(n)s battles generated.",
                    len(created)) % {"n": len(created)}


def _close(actor: Actor, c: Campaign, data: Any) -> str:
    form = CloseForm(data)
    _valid(form)
    answer = campaign_turns.close_turn(actor, c, c.current_turn, form.faces())
    scores = ", ".join(f"{word(SIDES, s)} {v}" for s, v in answer["scores"].items())
    if answer["victory"]:
        return _("Turn %(n)s closed: %(side)s wins. Scores: %(scores)s.") % {
            "n": answer["turn"], "side": word(SIDES, answer["victory"]["side"]), "scores": scores}
    return _("Turn %(n)s closed. Scores: %(scores)s. Turn %(next)s is open.") % {
        "n": answer["turn"], "scores": scores, "next": answer["next_turn"]}


def _refuse(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(RefuseOrderForm(data))
    order = campaign_overrides.refuse_order(actor, c, got["order"], got["reason"])
    return _("Order %(id)s refused.") % {"id": order.pk}


def _force(actor: Actor, c: Campaign, data: Any) -> str:
    form = ForceOrderForm(data)
    got = _valid(form)
    request = campaign_turns.OrderInput(
        kind=got["kind"], detachments=form.names(), from_=got["from_code"] or None,
        to=got["to_code"] or None, for_attack=got["for_attack"], side=got["side"],
        mission=got["mission"] or None, route=got["route"], return_route=got["return_route"],
        escort_of=got["escort_of"])
    forced = campaign_overrides.force_order(actor, c, c.current_turn, request, got["reason"])
    if forced.refusal is None:
        return _("Order %(id)s accepted: the rules allow it.") % {"id": forced.order.pk}
    return _("Order %(id)s forced through despite: %(reason)s") % {
        "id": forced.order.pk,
        "reason": campaign_message(forced.refusal.code, forced.refusal.params)}


def _score(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(ScoreEntryForm(data))
    entry = campaign_overrides.add_score_entry(actor, c, side=got["side"], points=got["points"],
                                               reason=got["reason"])
    return _("%(points)+d for %(side)s written in the ledger.") % {
        "points": entry.points, "side": word(SIDES, entry.side)}


def _reveal(actor: Actor, c: Campaign, data: Any) -> str:
    campaign_declarations.reveal_attacks(actor, c, c.current_turn)
    return _("The attacks are revealed: the players may now declare their reactions.")


ACTIONS: dict[str, Handler] = {
    "add_side": _add_side, "set_army": _set_army, "set_majors": _set_majors, "planet": _planet,
    "place": _place, "start": _start, "initiative": _initiative, "battles": _battles,
    "infiltrations": _infiltrations,
    "close": _close, "refuse_order": _refuse, "force_order": _force, "score": _score,
    "reveal_attacks": _reveal, "air": campaign_air.resolve,
}
