"""A player's army list: units form, pasted export or uploaded file; the report at once.
Systems with list rules of their own (Warhammer Battle, Urban War) have their own rows and
report (events/views/system_lists.py) around the same page."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from armylists import chart_reports
from armylists.api import ReadList
from armylists.messages import render_roster_error
from armylists.models import ArmyList, Chart
from armylists.roster import RosterUnreadable
from events.audit import Actor
from events.errors import Invalid, NotFound
from events.forms.lists import PasteForm, UnitFormSet, UploadForm
from events.models import Player, Tournament
from events.services import lists, tournaments
from events.views import system_lists
from events.views.common import attempt, visible_tournament

PREFIX = "units"
UPLOAD_IDS = "id_upload_%s"  # the paste form has a format field too: ids must differ
FORM_ANCHORS = {"formset": "units-title", "paste_form": "paste-title", "upload_form": "upload-title"}


def player_list(request, slug: str, pk: int):
    """GET: the list and its report (player, staff, or anyone once lists are published);
    ``?role=`` picks a role list, ``?version=`` an earlier version of it.
    POST: submit a new version (player or staff) while lists are open."""
    event = visible_tournament(request, slug)
    player = attempt_player(event, pk)
    actor = Actor.of(request)
    if not lists.may_read(actor, player, event):
        raise PermissionDenied(_("Lists are not published yet."))
    role, chart = _role(request, event)
    page = system_lists.page_for(chart)  # None: the count-based charts below
    ref = page.reference(chart) if page is not None else None
    editable = lists.may_edit(actor, player)
    locked = lists.lists_locked(event) and not player.list_unlocked
    current = lists.current_list(player, role)
    forms: dict[str, Any] = {}
    if request.method == "POST":
        if not editable:
            raise PermissionDenied(_("Only this player or an organiser can change this list."))
        if page is None:
            done, forms = _submit(request, actor, event, player, role, chart)
        else:
            done, forms = system_lists.submit(page, ref, request, actor, event, player, role, chart)
        if done:
            return redirect(list_url(slug, pk, role))
    history = lists.history(current) if current is not None else []
    shown = _version(request, history)
    latest = shown is None or shown is history[0]
    context = {"tournament": event, "player": player, "army_list": shown, "chart": chart,
               "role": role, "roles": _role_links(event, slug, pk),
               "versions": _version_rows(history, shown, list_url(slug, pk, role)),
               "old_version": not latest,
               "editable": editable and not locked and latest, "locked": locked,
               "not_saved": _not_saved(request, forms)}
    if page is not None:
        context.update(system_lists.page_context(page, ref, event, player, chart, shown, forms,
                                                 context["editable"]))
        return render(request, page.template, context)
    names = chart_reports.slot_names(chart.game_system)  # once: the report and the form share it
    context.update(_report_context(shown, names))
    if context["editable"]:
        context.update(_blank_forms(list(names.items()), shown, forms))
        _attach_problems(context["formset"], context.get("report"))
    return render(request, "league/list.html", context)


def _not_saved(request, forms: dict[str, Any]) -> dict[str, Any] | None:
    """A submission that was refused, told first: what went wrong and where the sent form is
    (it keeps what was typed or pasted); the report below stays the saved version's."""
    if request.method != "POST" or not forms or "add_rows" in request.POST:
        return None  # nothing sent, or rows asked for
    key, form = next(iter(forms.items()))
    if key == "formset":
        errors = [*form.non_form_errors(), *(e for f in form.forms for e in f.non_field_errors())]
    else:
        errors = [error for field_errors in form.errors.values() for error in field_errors]
    # Why a system's own body or rules turned the list down (events/views/system_lists.py).
    errors += forms.get("refused", [])
    return {"errors": errors, "anchor": FORM_ANCHORS[key]}


def list_url(slug: str, pk: int, role: str = "") -> str:
    url = reverse("player_list", kwargs={"slug": slug, "pk": pk})
    return f"{url}?role={role}" if role else url


def _role(request, event: Tournament) -> tuple[str, Chart]:
    """The role list asked for and its chart; 404 for a role this event does not use."""
    role = request.GET.get("role", "")
    try:
        return role, lists.chart_for(event, role)
    except Invalid as exc:
        raise Http404(str(exc.message)) from None


def _role_links(event: Tournament, slug: str, pk: int) -> list[dict[str, str]]:
    """The main list and each role list, when a mission of this event can call for them."""
    roles = lists.role_charts(event)
    if not roles:
        return []
    names = {"": _("Main list"), "attacker": _("Attacker list"), "defender": _("Defender list")}
    return [{"role": role, "name": names.get(role, role), "url": list_url(slug, pk, role)}
            for role in ("", *sorted(roles))]


def _version(request, history: list[ArmyList]) -> ArmyList | None:
    """The current version, or the earlier one ``?version=`` names (404 if not in the chain)."""
    wanted = request.GET.get("version")
    if not wanted or not history:
        return history[0] if history else None
    found = next((v for v in history if str(v.pk) == wanted), None)
    if found is None:
        raise Http404(_("No such version of this list."))
    return found


def _version_rows(history: list[ArmyList], shown: ArmyList | None, url: str) -> list[dict]:
    """One row per version, newest first, numbered from the first submission."""
    if len(history) < 2:
        return []
    joiner = "&" if "?" in url else "?"
    return [{"number": len(history) - index, "list": version, "current": index == 0,
             "shown": version is shown,
             "url": url if index == 0 else f"{url}{joiner}version={version.pk}"}
            for index, version in enumerate(history)]


def attempt_player(event: Tournament, pk: int) -> Player:
    try:
        return tournaments.get_player(event, pk)
    except NotFound as exc:
        raise Http404(str(exc)) from None


def slot_choices(chart: Chart) -> list[tuple[str, str]]:
    names = chart_reports.slot_names(chart.game_system)
    return list(names.items())


def _submit(request, actor: Actor, event: Tournament, player: Player, role: str,
            chart: Chart) -> tuple[bool, dict]:
    """Read the posted list; True once the service stored it, else the forms with errors."""
    source = request.POST.get("source")
    slots = slot_choices(chart)
    if source == "units":
        formset = UnitFormSet(request.POST, prefix=PREFIX, slots=slots)
        if "add_rows" in request.POST:
            return False, {"formset": formset.grown(slots=slots)}
        if not formset.is_valid():
            return False, {"formset": formset}
        attrs: dict[str, Any] = {"units": formset.units()}
        form: Any = formset
    elif source == "file":
        form = UploadForm(request.POST, request.FILES, auto_id=UPLOAD_IDS)
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
    read = ReadList({**attrs, "chart": chart})
    try:
        entries = read.entries()
    except RosterUnreadable as exc:
        form.add_error(None, render_roster_error(exc.reason, exc.params))
        return False, {key: form}
    stored = attempt(request, lambda: lists.submit_list(
        actor, player, role=role, entries=entries, source_format=read.source_format, raw=read.raw,
        raw_filename=read.filename, import_warnings=read.warnings))
    if stored is None:
        return False, {key: form}
    if stored.army_list.valid:
        messages.success(request, _("List saved: it is legal."))
    else:
        messages.warning(request, _("List saved, but it is not legal yet: see the problems below."))
    return True, {}


def _blank_forms(slots: list[tuple[str, str]], army_list, forms: dict) -> dict[str, Any]:
    initial = []
    if army_list is not None:  # the current entries, whatever their source, to edit further
        initial = [{"name": e["name"], "slot": e.get("slot") or "", "points": e["points"],
                    "models": e.get("models", 1)} for e in army_list.entries]
    return {
        "formset": forms.get("formset") or UnitFormSet(prefix=PREFIX, slots=slots,
                                                       initial=initial),
        "paste_form": forms.get("paste_form") or PasteForm(),
        "upload_form": forms.get("upload_form") or UploadForm(auto_id=UPLOAD_IDS),
        "open_form": next(iter(forms), "formset"),
    }


def _attach_problems(formset, report: dict | None) -> None:
    """Put each problem next to the rows it concerns: its slot's rows, or the unit it names."""
    if not report:
        return
    problems = (*report["errors"], *report["warnings"])
    by_name = _messages_by(problems, _named)
    by_slot = _messages_by(problems, lambda p: None if _named(p) else p.get("slot"))
    for form in formset.forms:
        form.problems = [*by_slot.get(form["slot"].value() or "", ()),
                         *by_name.get(form["name"].value() or "", ())]


def _named(problem: dict) -> str | None:
    name = problem.get("params", {}).get("name")
    return str(name) if name else None


def _messages_by(problems, key: Callable[[dict], str | None]) -> dict[str, list[str]]:
    """The problems' messages grouped by ``key`` (problems it gives None are left out)."""
    grouped: dict[str, list[str]] = {}
    for problem in problems:
        group = key(problem)
        if group:
            grouped.setdefault(group, []).append(problem["message"])
    return grouped


def _report_context(army_list, names: dict[str, str]) -> dict[str, Any]:
    if army_list is None:
        return {"report": None}
    report = chart_reports.render_report(army_list.report, names)
    errors_by_slot = _messages_by(report["errors"], lambda p: p.get("slot"))
    slots = [{"code": code, "name": names.get(code, code), **counts,
              "errors": errors_by_slot.get(code, [])}
             for code, counts in report.get("slots", {}).items()]
    entries = [{**e, "slot_name": names.get(e.get("slot") or "", e.get("slot") or "")}
               for e in army_list.entries]
    return {"report": report, "slots": slots, "entries": entries}
