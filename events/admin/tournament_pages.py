"""The tournament page's own pages and downloads: the buttons' target, pairing a round again,
importing players, the check-in, walk-in and finish pages (venue), and the exports."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events.admin.common import admin_url, safe_next
from events.admin.event_import import import_event_view
from events.admin.forms import ImportForm, RepairForm
from events.admin.tournament_actions import TOURNAMENT_ACTIONS, paired_message, round_summary
from events.audit import Actor
from events.errors import ServiceError
from events.models import Round, Tournament
from events.services import exports, imports, rounds
from venue.admin.checkin import check_in_view, window_view
from venue.admin.walkins import finish_view, invite_view


class TournamentPagesMixin:
    """For the ``TournamentAdmin``: its extra URLs and their views."""

    def get_urls(self):
        def view(fn):
            return self.admin_site.admin_view(fn)

        return [
            path("<int:pk>/do/<slug:action>/", view(self.action_view), name="league_tournament_action"),
            path("<int:pk>/repair-round/", view(self.repair_view), name="league_tournament_repair"),
            path("<int:pk>/import-players/", view(self.import_view), name="league_tournament_import"),
            path("<int:pk>/finish/", view(lambda request, pk: finish_view(self, request, pk)),
                 name="league_tournament_finish"),
            path("<int:pk>/invite/", view(lambda request, pk: invite_view(self, request, pk)),
                 name="league_tournament_invite"),
            path("<int:pk>/check-in/", view(lambda request, pk: check_in_view(self, request, pk)),
                 name="league_tournament_check_in"),
            path("<int:pk>/check-in/window/",
                 view(lambda request, pk: window_view(self, request, pk)),
                 name="league_tournament_check_in_window"),
            path("import-event/", view(lambda request: import_event_view(self, request)),
                 name="league_tournament_import_event"),
            path("<int:pk>/export.json", view(self.export_json), name="league_tournament_export_json"),
            path("<int:pk>/standings.csv", view(self.export_standings), name="league_tournament_standings_csv"),
            path("<int:pk>/pairings.csv", view(self.export_pairings), name="league_tournament_pairings_csv"),
            *super().get_urls(),
        ]

    def _tournament(self, request, pk: int, *, change: bool = True) -> Tournament:
        tournament = get_object_or_404(
            Tournament.objects.select_related(
                "game_system", "level", "chart", "dice", "created_by"), pk=pk)
        allowed = self.has_change_permission(request, tournament) if change else \
            self.has_view_permission(request, tournament)
        if not allowed:
            raise PermissionDenied
        return tournament

    def _page(self, request, tournament: Tournament, title: str, template: str, **extra: Any):
        context = {**self.admin_site.each_context(request), "opts": self.opts, "original": tournament,
                   "title": title, "subtitle": tournament.name, **extra}
        return TemplateResponse(request, template, context)

    @staticmethod
    def _run(request, fn: Callable[[], str]) -> bool:
        try:
            messages.success(request, fn())
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        return True

    def action_view(self, request, pk: int, action: str):
        if request.method != "POST":
            return HttpResponse(status=405, headers={"Allow": "POST"})
        tournament = self._tournament(request, pk)
        handler = TOURNAMENT_ACTIONS.get(action)
        if handler is None:
            raise Http404
        self._run(request, lambda: handler(Actor.of(request), tournament, request.POST))
        return HttpResponseRedirect(safe_next(request, admin_url(tournament)))

    def repair_view(self, request, pk: int):
        """Pair a published round again: the organiser types its number to confirm."""
        tournament = self._tournament(request, pk)
        latest = tournament.round_set.order_by("-number").first()
        if latest is None:
            messages.error(request, _("No round has been paired yet."))
            return HttpResponseRedirect(admin_url(tournament))
        form = RepairForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            def repair() -> str:
                round_ = rounds.repair_published_round(
                    Actor.of(request), tournament, latest.number, form.cleaned_data["confirmation"])
                if round_.status == Round.Status.DRAFT:
                    return paired_message(round_, _("Round %(number)s paired again (draft): %(details)s."))
                return paired_message(round_, _("Round %(number)s paired again and published: %(details)s."))

            if self._run(request, repair):
                return HttpResponseRedirect(admin_url(tournament))
        return self._page(request, tournament, _("Pair round %(number)s again") % {"number": latest.number},
                          "admin/league/tournament/repair_round.html", form=form,
                          field=form["confirmation"], round=latest,
                          summary=round_summary(latest))

    def import_view(self, request, pk: int):
        tournament = self._tournament(request, pk)
        form = ImportForm(request.POST or None, request.FILES or None)
        outcome = None
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"].read(imports.MAX_BYTES + 1)
            outcome = imports.import_players_csv(Actor.of(request), tournament, data)
            if not outcome.errors:
                messages.success(request, ngettext(
                    "%(n)s player registered.", "%(n)s players registered.", len(outcome.players))
                    % {"n": len(outcome.players)})
                if outcome.ignored_columns:
                    messages.warning(request, _("Columns ignored: %(columns)s.") % {
                        "columns": ", ".join(outcome.ignored_columns)})
                return HttpResponseRedirect(admin_url(tournament))
        return self._page(request, tournament, _("Import players"),
                          "admin/league/tournament/import_players.html", form=form,
                          field=form["file"], multipart=True, outcome=outcome)

    @staticmethod
    def _download(content: str, content_type: str, filename: str) -> HttpResponse:
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    @staticmethod
    def _delimiter(request) -> str:
        return ";" if request.GET.get("sep") in (";", "semicolon") else ","

    def export_json(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        response = JsonResponse(exports.event_data(tournament),
                                json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response

    def export_standings(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        # The byte-order mark lets spreadsheet programs read the accents right.
        text = "\ufeff" + exports.standings_csv(tournament, self._delimiter(request))
        return self._download(text, "text/csv; charset=utf-8", f"{tournament.slug}-standings.csv")

    def export_pairings(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        number = request.GET.get("round")
        number = int(number) if number and number.isdigit() else None
        text = "\ufeff" + exports.pairings_csv(tournament, number, self._delimiter(request))
        suffix = f"-round-{number}" if number else ""
        return self._download(text, "text/csv; charset=utf-8", f"{tournament.slug}-pairings{suffix}.csv")
