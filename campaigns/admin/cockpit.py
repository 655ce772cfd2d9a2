"""The organiser's cockpit of an Epic 40,000 campaign (systems/epic-campaign.md §1.1 and §1.7):
the set-up checklist, the phase stepper, the whole map, this turn's orders (refused or forced
with a reason), the battles and their report status, the score ledger with manual lines.

The campaign's change page is the cockpit. Every button posts ``action`` to it and calls the
service the API calls, with the signed-in organiser as the actor (checked, locked, audited);
a refusal comes back as an error message, a success as a message, then the page again."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from campaigns.admin import air as campaign_air
from campaigns.admin.forms import (
    ArmyForm,
    CampaignCreateForm,
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
    army_text,
)
from campaigns.drawing import drawing, territory_rows
from campaigns.engine import map as grid
from campaigns.engine.declaration import SEALED
from campaigns.engine.state import ATTACKS_PHASE, INFILTRATION_PHASE
from campaigns.engine.tools import PHASES
from campaigns.forms import with_stored_details
from campaigns.messages import campaign_message
from campaigns.models import Campaign, CampaignBattle, CampaignDetachment
from campaigns.rows import Reader, infiltration_lines
from campaigns.services import battles as campaign_battles
from campaigns.services import campaign as campaigns
from campaigns.services import declarations as campaign_declarations
from campaigns.services import infiltrations as campaign_infiltrations
from campaigns.services import overrides as campaign_overrides
from campaigns.services import pack as campaign_pack
from campaigns.services import reads as campaign_reads
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import SETTING_UP
from campaigns.state_serializers import SettingsSerializer
from campaigns.words import ORDER_KINDS, PLANETS, SCORE_KINDS, SIDES, phase_name, word
from events.audit import Actor
from events.errors import Invalid, ServiceError
from events.services import exports
from events.systems import normalised

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
    row = campaigns.add_side(actor, c, side=got["side"], name=got["name"],
                             army_name=got["army_name"], faction=got["faction"],
                             strategic_value=got["strategic_value"],
                             username=got["username"] or None)
    return _("%(side)s: %(army)s added.") % {"side": word(SIDES, row.side), "army": row.army_name}


def _set_army(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(ArmyForm(data))
    stored = dict(CampaignDetachment.objects.filter(side__campaign=c, side__side=got["side"])
                  .values_list("name", "units"))
    specs = [with_stored_details(spec, stored.get(spec.name, ())) for spec in got["detachments"]]
    report, saved = campaigns.set_army(actor, c, got["side"], specs)
    if not saved:
        raise Invalid("; ".join(campaign_message(p.code, p.params) for p in report.errors),
                      "army_invalid")
    notes = " ".join(campaign_message(p.code, p.params) for p in report.warnings)
    return (_("Army saved: %(n)s detachments, %(points)s points.")
            % {"n": len(got["detachments"]), "points": report.total_points} + (" " + notes if notes else ""))


def _set_majors(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(MajorsForm(data))
    row = campaigns.set_majors(actor, c, got["side"], [got["first"], got["second"]])
    return _("Majors of %(side)s: %(codes)s.") % {"side": word(SIDES, row.side),
                                                   "codes": ", ".join(row.majors)}


def _planet(actor: Actor, c: Campaign, data: Any) -> str:
    got = _valid(PlanetForm(data))
    answer = campaigns.set_planet(actor, c, planet=got["planet"] or None,
                                  dice=None if got["planet"] else got["dice"])
    if answer.planet is None:
        return _("An 8: choose between %(a)s (G3).") % {
            "a": " / ".join(word(PLANETS, p) for p in answer.candidates)}
    return _("Planet: %(planet)s.") % {"planet": word(PLANETS, answer.planet)}


def _place(actor: Actor, c: Campaign, data: Any) -> str:
    form = PlacementForm(data, detachments=placeable(c))
    got = _valid(form)
    side, name = got["detachment"].split("|", 1)
    following = campaigns.place(actor, c, detachment=name, territory=got["territory"], side=side,
                                dice=got["dice"])
    return _("%(name)s placed in %(code)s. Next: %(next)s.") % {
        "name": name, "code": got["territory"],
        "next": word(SIDES, following) if following else _("nobody, placement is complete")}


def _start(actor: Actor, c: Campaign, data: Any) -> str:
    campaigns.start(actor, c)
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


# What the cockpit shows ----------------------------------------------------------------------------

def placeable(c: Campaign) -> list[tuple[str, str]]:
    """Detachments still to place (R13: airborne ones start off the map), as ``side|name``."""
    rows = CampaignDetachment.objects.filter(side__campaign=c, location="", destroyed=False).exclude(
        kind="airborne").select_related("side").order_by("-side__side", "position")
    return [(f"{r.side.side}|{r.name}", f"{word(SIDES, r.side.side)}: {r.name} ({r.points})")
            for r in rows]


def checklist(public: dict[str, Any], sides: dict[str, Any], c: Campaign) -> list[dict[str, Any]]:
    """The set-up steps in the seed's order (R1–R11, G2, G30) and whether each is done."""
    armies = all(side in sides and sides[side].detachments.exists() for side in grid.SIDES)
    majors = all(side in sides and len(sides[side].majors) == 2 for side in grid.SIDES)
    started = c.status not in SETTING_UP
    unplaced = bool(placeable(c)) if not started else False
    return [
        {"label": _("Two sides with a player, an army name and a strategic value"),
         "done": len(sides) == 2},
        {"label": _("Both armies (R1–R3)"), "done": armies},
        {"label": _("Planet (R5)"), "done": bool(c.planet)},
        {"label": _("Two majors per side (R7, G30)"), "done": majors},
        {"label": _("Every detachment placed (R11)"), "done": started or (armies and not unplaced)},
        {"label": _("Started"), "done": started},
    ]


def battle_rows(c: Campaign) -> list[dict[str, Any]]:
    turn = campaigns.current_turn(c)
    number = turn.number if turn else 0
    rows = CampaignBattle.objects.filter(turn__campaign=c, turn__number__gte=number - 1).select_related(
        "game", "turn").order_by("-turn__number", "pk")
    out = []
    for b in rows:
        winner = campaign_battles.winner_side(b) if campaign_battles.confirmed(b) else None
        out.append({"battle": b, "winner": word(SIDES, winner) if winner else "",
                    "game_url": reverse("admin:league_game_change", args=[b.game_id]) if b.game_id else "",
                    "status": b.game.get_status_display() if b.game else _("captured, no battle")})
    return out


def declaring_line(c: Campaign, turn: Any) -> dict[str, Any]:
    """G11: the open phase's declaring, and whether the sealed attacks may be revealed now."""
    view = campaign_declarations.declarations_view(c, turn)
    sealed = view["mode"] == SEALED
    return {
        "text": (_("Sealed orders.") if sealed else _("Orders in turn, one each.")),
        "first": word(SIDES, view["first"]) if view["first"] else "",
        "ready": [word(SIDES, s) for s in view["ready"]],
        "next": word(SIDES, view["next"]) if view["next"] else "",
        "deadline": campaign_declarations.deadline_of(turn),
        "may_reveal": sealed and turn.phase == ATTACKS_PHASE and not view["revealed"],
    }


def cockpit_context(request: HttpRequest, c: Campaign) -> dict[str, Any]:
    actor = Actor.of(request)
    public = campaign_reads.campaign_view(c)
    sides = campaigns.sides_of(c)
    turn = campaigns.current_turn(c) if c.status == Campaign.Status.RUNNING else None
    context: dict[str, Any] = {
        "campaign": c, "public": public, "sides": sides, "checklist": checklist(public, sides, c),
        "setting_up": c.status in SETTING_UP, "turn": turn,
        "planet": word(PLANETS, c.planet) if c.planet else "",
        "side_form": SideForm(auto_id="id_newside_%s"),
        "planet_form": PlanetForm(auto_id="id_planet_%s"),
        "army_forms": {s: ArmyForm(initial={"side": s, "detachments": army_text(
            sides[s].detachments.all() if s in sides else ())}, auto_id=f"id_{s}_%s")
            for s in grid.SIDES},
        "majors_forms": {s: MajorsForm(initial={"side": s}, auto_id=f"id_{s}_%s")
                         for s in grid.SIDES},
        "placement_form": (PlacementForm(detachments=placeable(c), auto_id="id_place_%s")
                           if c.status in SETTING_UP else None),
        "ledger": [{"entry": e, "kind": word(SCORE_KINDS, e.kind)}
                   for e in c.score_entries.order_by("-turn", "-pk")],
        "totals": campaigns.scores_of(c), "score_form": ScoreEntryForm(auto_id="id_score_%s"),
        "battles": battle_rows(c),
        "turn_packs": [{"pack": pack, "url": reverse("admin:printing_missionpack_change",
                                                     args=[pack.pk])}
                       for pack in campaign_pack.turn_packs(c)],
    }
    if c.status != Campaign.Status.SETUP:  # from the first placement on
        territories = campaign_reads.map_view(actor, c)
        context.update(drawing=drawing(territories), territory_rows=territory_rows(territories))
    if turn is not None:
        done = campaign_turns.phase_index(turn.phase)
        forced = campaign_overrides.forced_ids(c, turn)
        state = campaigns.state_of(c, turn)
        waiting = turn.phase == INFILTRATION_PHASE and bool(
            campaign_infiltrations.pending(state, turn))
        context.update(
            phase=phase_name(turn.phase),
            next_phases=[(p, phase_name(p)) for p in PHASES[done + 1:]],
            initiative_form=InitiativeForm(auto_id="id_initiative_%s"),
            close_form=CloseForm(auto_id="id_close_%s"),
            orders=[{"order": o, "kind": word(ORDER_KINDS, o.kind), "forced": o.pk in forced,
                     "refusal": (campaign_message(o.refusal_code, o.refusal_params)
                                 if o.refusal_code else "")}
                    for o in turn.orders.order_by("pk")],
            declaring=declaring_line(c, turn),
            force_form=ForceOrderForm(auto_id="id_force_%s"), may_generate=turn.phase == "attacks",
            orders_open=turn.phase != campaign_battles.BATTLES_PHASE,
            infiltrations_form=InfiltrationsForm(auto_id="id_infiltrations_%s") if waiting else None,
            infiltrations=infiltration_lines(turn, Reader(actor, None)),
            **campaign_air.cockpit(c, turn, state))  # R13, R14, R19–R24
    return context


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "status", "current_turn", "planet", "winner", "created_at"]
    list_filter = ["status"]
    search_fields = ["name", "slug"]

    def view_on_site(self, obj: Campaign) -> str:
        return reverse("campaign", args=[obj.slug])

    def get_urls(self):
        view = self.admin_site.admin_view(require_POST(self.turn_pack_view))
        return [path("<int:pk>/turn-pack/", view, name="campaigns_campaign_turn_pack"),
                path("<int:pk>/export.json", self.admin_site.admin_view(self.export_json),
                     name="campaigns_campaign_export_json"),
                *super().get_urls()]

    def export_json(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The whole campaign with its event (campaigns.services.backup), which the admin's
        "Import an event" page and manage.py import_campaign read back."""
        found = get_object_or_404(Campaign.objects.select_related(
            "tournament__chart", "tournament__level", "tournament__dice", "tournament__created_by",
            "tournament__game_system"), pk=pk)
        if not self.has_view_or_change_permission(request, found):
            raise PermissionDenied
        response = JsonResponse(exports.event_data(found.tournament),
                                json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = f'attachment; filename="{found.slug}.json"'
        return response

    def turn_pack_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Print the current turn's pack, then watch it on the mission pack's page (progress,
        then the download link), as the round's "print the mission pack" does."""
        found = get_object_or_404(Campaign.objects.select_related("tournament"), pk=pk)
        if not self.has_change_permission(request, found):
            raise PermissionDenied
        try:
            pack = campaign_pack.request_turn_pack(Actor.of(request), found, found.current_turn)
        except ServiceError as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(reverse("admin:campaigns_campaign_change", args=[found.pk]))
        return HttpResponseRedirect(reverse("admin:printing_missionpack_change", args=[pack.pk]))

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a campaign's rows are its history: nothing deletes them from here

    def add_view(self, request, form_url="", extra_context=None) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = CampaignCreateForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            got = form.cleaned_data
            settings = normalised(SettingsSerializer, {
                "victory_score": got["victory_score"], "declaration_mode": got["declaration_mode"]})
            try:
                created = campaigns.create_campaign(Actor.of(request), name=got["name"],
                                                    settings=settings,
                                                    army_points=got["army_points"],
                                                    seed=got["seed"])
            except ServiceError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Campaign created: now add its two sides."))
                return HttpResponseRedirect(reverse("admin:campaigns_campaign_change",
                                                    args=[created.pk]))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "form": form, "title": _("New campaign")}
        return TemplateResponse(request, "admin/campaigns/campaign/add.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None) -> HttpResponse:
        found = get_object_or_404(Campaign.objects.select_related("tournament"), pk=object_id)
        if not self.has_view_or_change_permission(request, found):
            raise PermissionDenied
        if request.method == "POST":
            if not self.has_change_permission(request, found):
                raise PermissionDenied
            handler = ACTIONS.get(request.POST.get("action", ""))
            if handler is not None:
                try:
                    messages.success(request, handler(Actor.of(request), found, request.POST))
                except ServiceError as exc:
                    messages.error(request, str(exc))
            return HttpResponseRedirect(request.path)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "original": found, "title": found.name,
                   **cockpit_context(request, found)}
        return TemplateResponse(request, "admin/campaigns/campaign/cockpit.html", context)

