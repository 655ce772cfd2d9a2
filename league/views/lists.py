"""A player's army list: units form, pasted export or uploaded file; the report at once."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from armylists import services as list_services
from armylists.api import ReadList
from armylists.messages import render_roster_error
from armylists.roster import RosterUnreadable
from league.audit import Actor
from league.errors import NotFound
from league.forms import EXTRA_ROWS, PasteForm, UnitFormSet, UploadForm
from league.models import Player, Tournament
from league.services import lists, tournaments
from league.views.common import attempt, visible_tournament

PREFIX = "units"


def player_list(request, slug: str, pk: int):
    """GET: the list and its report (player, staff, or anyone once lists are published).
    POST: submit a new version (player or staff) while lists are open."""
    event = visible_tournament(request, slug)
    player = attempt_player(event, pk)
    actor = Actor.of(request)
    if not lists.may_read(actor, player, event):
        raise PermissionDenied(_("Lists are not published yet."))
    editable = lists.may_edit(actor, player)
    locked = lists.lists_locked(event) and not player.list_unlocked
    army_list = lists.current_list(player)
    forms: dict[str, Any] = {}
    if request.method == "POST":
        if not editable:
            raise PermissionDenied(_("Only this player or an organiser can change this list."))
        done, forms = _submit(request, actor, event, player)
        if done:
            return redirect("player_list", slug=slug, pk=pk)
    context = {"tournament": event, "player": player, "army_list": army_list,
               "editable": editable and not locked, "locked": locked,
               **_report_context(army_list)}
    if context["editable"]:
        context.update(_blank_forms(event, army_list, forms))
    return render(request, "league/list.html", context)


def attempt_player(event: Tournament, pk: int) -> Player:
    try:
        return tournaments.get_player(event, pk)
    except NotFound as exc:
        raise Http404(str(exc)) from None


def slot_choices(event: Tournament) -> list[tuple[str, str]]:
    names = list_services.slot_names(event.chart.game_system)
    return list(names.items())


def _submit(request, actor: Actor, event: Tournament, player: Player) -> tuple[bool, dict]:
    """Read the posted list; True once the service stored it, else the forms with errors."""
    source = request.POST.get("source")
    slots = slot_choices(event)
    if source == "units":
        formset = UnitFormSet(request.POST, prefix=PREFIX, slots=slots)
        if "add_rows" in request.POST:
            return False, {"formset": _grown(formset, slots)}
        if not formset.is_valid():
            return False, {"formset": formset}
        attrs: dict[str, Any] = {"units": formset.units()}
        form: Any = formset
    elif source == "file":
        form = UploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return False, {"upload_form": form}
        attrs = {"roster_file": form.cleaned_data["roster_file"],
                 "roster_format": form.cleaned_data["roster_format"]}
    else:
        form = PasteForm(request.POST)
        if not form.is_valid():
            return False, {"paste_form": form}
        attrs = {"roster": form.cleaned_data["roster"],
                 "roster_format": form.cleaned_data["roster_format"]}
    key = {"units": "formset", "file": "upload_form"}.get(source or "", "paste_form")
    read = ReadList({**attrs, "chart": event.chart})
    try:
        entries = read.entries()
    except RosterUnreadable as exc:
        form.add_error(None, render_roster_error(exc.reason, exc.params))
        return False, {key: form}
    stored = attempt(request, lambda: lists.submit_list(
        actor, player, role="", entries=entries, source_format=read.source_format, raw=read.raw,
        raw_filename=read.filename, import_warnings=read.warnings))
    if stored is None:
        return False, {key: form}
    if stored.army_list.valid:
        messages.success(request, _("List saved: it is legal."))
    else:
        messages.warning(request, _("List saved, but it is not legal yet: see the problems below."))
    return True, {}


def _grown(formset, slots) -> Any:
    """The rows typed so far plus more blank ones ("add rows" works without JavaScript)."""
    rows = formset.rows()
    grown = UnitFormSet(prefix=PREFIX, slots=slots, initial=rows)
    grown.extra = EXTRA_ROWS + max(0, len(formset.forms) - len(rows))
    return grown


def _blank_forms(event: Tournament, army_list, forms: dict) -> dict[str, Any]:
    initial = []
    if army_list is not None:  # the current entries, whatever their source, to edit further
        initial = [{"name": e["name"], "slot": e.get("slot") or "", "points": e["points"],
                    "models": e.get("models", 1)} for e in army_list.entries]
    return {
        "formset": forms.get("formset") or UnitFormSet(prefix=PREFIX, slots=slot_choices(event),
                                                       initial=initial),
        "paste_form": forms.get("paste_form") or PasteForm(),
        "upload_form": forms.get("upload_form") or UploadForm(),
        "open_form": next(iter(forms), "formset"),
    }


def _report_context(army_list) -> dict[str, Any]:
    if army_list is None:
        return {"report": None}
    names = list_services.slot_names(army_list.chart.game_system)
    report = list_services.render_report(army_list.report, names)
    errors_by_slot: dict[str, list[str]] = {}
    for problem in report["errors"]:
        if problem.get("slot"):
            errors_by_slot.setdefault(problem["slot"], []).append(problem["message"])
    slots = [{"code": code, "name": names.get(code, code), **counts,
              "errors": errors_by_slot.get(code, [])}
             for code, counts in report.get("slots", {}).items()]
    entries = [{**e, "slot_name": names.get(e.get("slot") or "", e.get("slot") or "")}
               for e in army_list.entries]
    return {"report": report, "slots": slots, "entries": entries,
            "error_slots": sorted(errors_by_slot)}
