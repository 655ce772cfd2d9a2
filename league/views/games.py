"""A player's game: opponent, table, mission, pre-game rolls; report, confirm or dispute."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.audit import Actor
from league.errors import Forbidden, NotFound
from league.forms import DisputeForm, ReportForm
from league.models import Game, Player, Report, Round, Tournament
from league.services import results
from league.services.packs import Catalogue, game_length_text, roll_lines
from league.views.common import attempt
from missions.models import Stratagem

OPEN = (Report.Status.REPORTED, Report.Status.DISPUTED)


def game(request, pk: int):
    actor = Actor.of(request)
    found = _visible_game(actor, pk)
    me = _side(actor, found)
    if request.method == "POST":
        response = _act(request, actor, found, me)
        if response is not None:
            return response
        found = _visible_game(actor, pk)  # re-read: the refused action changed nothing
    return render(request, "league/game.html", game_context(request, found, me))


def _visible_game(actor: Actor, pk: int) -> Game:
    """404 for a draft round's (or event's) game, 403 for a stranger; staff see all."""
    found = (Game.objects.select_related("round__tournament__level", "round__tournament__chart",
                                         "mission", "player_a", "player_b").filter(pk=pk).first())
    if found is None or (found.round.tournament.status == Tournament.Status.DRAFT
                         and not actor.is_staff):
        raise Http404(_("No such game."))
    try:
        results.visible_game(actor, found)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    except Forbidden as exc:
        raise PermissionDenied(str(exc)) from None
    return found


def _side(actor: Actor, found: Game) -> Player | None:
    return results.side_of(actor, found)


def _act(request, actor: Actor, found: Game, me: Player | None):
    """Run the posted action; a redirect when it went through, None to show the page again."""
    action = request.POST.get("action")
    if action == "report":
        form = ReportForm(request.POST, game=found, stratagems=stratagem_choices())
        if not form.is_valid():
            request.report_form = form
            return None
        done = attempt(request, lambda: results.report(
            actor, found.pk, results.ResultInput(**form.content())))
        if done is None:
            request.report_form = form
            return None
        messages.success(request, _status_message(done.status))
    elif action == "confirm":
        if attempt(request, lambda: results.confirm(actor, found.pk)) is None:
            return None
        messages.success(request, _("Result confirmed."))
    elif action == "dispute":
        form = DisputeForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        if attempt(request, lambda: results.dispute(actor, found.pk, reason)) is None:
            return None
        messages.success(request, _("Result disputed: an organiser will settle it."))
    return redirect("game", pk=found.pk)


def _status_message(status: str) -> str:
    if status == Game.Status.CONFIRMED:
        return _("Result recorded and confirmed.")
    if status == Game.Status.DISPUTED:
        return _("Your report differs from your opponent's: an organiser will settle it.")
    return _("Result reported: your opponent must now confirm it.")


def stratagem_choices() -> list[tuple[str, str]]:
    return [(s.slug, f"{s.name} ({s.category.name})")
            for s in Stratagem.objects.select_related("category").order_by("category__order", "order")]


def game_context(request, found: Game, me: Player | None) -> dict[str, Any]:
    event = found.round.tournament
    context: dict[str, Any] = {"game": found, "tournament": event, "me": me,
                               "opponent": _opponent(found, me)}
    if found.is_bye:
        return context
    catalogue = Catalogue(event.level)
    names = {str(p.pk): p.name for p in (found.player_a, found.player_b)}
    ids = (str(found.player_a_id), str(found.player_b_id))
    latest = found.reports.filter(status__in=OPEN).select_related("winner").order_by(
        "-created_at", "-pk").first()
    context.update(
        sides=_sides(found, catalogue),
        rules=_rules(found, catalogue),
        game_length=game_length_text(found.mission) if found.mission else "",
        rolls=roll_lines(found, ids, names),
        latest=latest, latest_summary=_summary(found, latest, catalogue) if latest else None,
        may_confirm=_may_answer(found, me, latest),
        may_report=found.round.status != Round.Status.DRAFT and (
            found.status != Game.Status.CONFIRMED or (me is None and Actor.of(request).is_staff)),
    )
    if context["may_report"]:
        context["report_form"] = getattr(request, "report_form", None) or ReportForm(
            game=found, stratagems=stratagem_choices())
        context["dispute_form"] = DisputeForm()
    return context


def _opponent(found: Game, me: Player | None) -> Player | None:
    if me is None or found.is_bye:
        return None
    return found.player_b if me.pk == found.player_a_id else found.player_a


def _sides(found: Game, catalogue: Catalogue) -> list[dict[str, Any]]:
    sides = []
    for player in (found.player_a, found.player_b):
        role = found.roles.get(str(player.pk))
        allowance = catalogue.allowance(found.mission, role) if found.mission else None
        sides.append({"player": player, "role": role,
                      "allowance": allowance.lines if allowance else ()})
    return sides


def _rules(found: Game, catalogue: Catalogue) -> list[dict[str, str]]:
    if found.mission is None:
        return []
    rules = []
    for slug in found.mission.special_rules_by_level.get(catalogue.level.slug, ()):
        rule = catalogue.rules.get(slug)
        rules.append({"name": rule.name if rule else slug, "text": rule.summary if rule else ""})
    return rules


def _summary(found: Game, report: Report, catalogue: Catalogue) -> dict[str, Any]:
    names = {str(p.pk): p.name for p in (found.player_a, found.player_b)}
    return {
        "winner": report.winner.name if report.winner else None,
        "by": names.get(str(report.by_player_id), _("an organiser")),
        "victory_points": [(names.get(k, k), v) for k, v in report.victory_points.items()],
        "stratagems": [(names.get(k, k), ", ".join(catalogue.stratagems.get(s, s) for s in v))
                       for k, v in report.stratagems.items() if v],
    }


def _may_answer(found: Game, me: Player | None, latest: Report | None) -> bool:
    """The opponent of the reporter may confirm or dispute an open, undisputed report."""
    return (me is not None and latest is not None and found.status == Game.Status.REPORTED
            and latest.by_player_id != me.pk)
