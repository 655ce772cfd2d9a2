"""A player's game: opponent, table, mission, pre-game rolls, stratagem declarations, table
rolls (events/views/game_rolls), the victory-points helper; report, confirm or dispute. Every action is a form posting
``action`` to this page, then a redirect (or the page again with the errors).

Games without a Cities of Death mission leave out the mission, declarations and pre-game rolls;
a game system with report facts of its own has its own report form (systems/reports.py),
and a W40K Dynamics game its panel (events/views/system_games)."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.models import CampaignBattle
from events.audit import Actor
from events.errors import Forbidden, NotFound
from events.game_forms import DeclarationForm, DisputeForm, ReportForm
from events.models import Game, Player, Report, Round, Tournament
from events.services import declarations, results
from events.system_game_forms import MoraleForm
from events.systems import NOT_FOR_EVENTS
from events.views import game_rolls, game_vp, system_games
from events.views.common import attempt
from printing.services.mission_pack import Catalogue, game_length_text, roll_lines
from systems.reports import SystemReportForm, report_form_class, result_lines
from venue.clock_words import clock_text
from venue.services import clock

OPEN = (Report.Status.REPORTED, Report.Status.DISPUTED)
SIDES = ("a", "b")


def game(request, pk: int):
    if not request.user.is_authenticated:  # a link followed before logging in: log in, come back
        return redirect_to_login(request.get_full_path())
    actor = Actor.of(request)
    found = _visible_game(actor, pk)
    battle = _campaign_battle(found)
    if battle is not None:
        # A campaign battle is reported with its campaign facts (swept, destroyed) and followed
        # by the winner's and loser's choices: all on the campaign page, where a notice's link lands.
        return redirect(reverse("campaign", args=[battle.turn.campaign.slug]) + f"#battle-{battle.pk}")
    me = results.side_of(actor, found)
    bound: dict[str, Any] = {}
    if request.method == "POST":
        response = _act(request, actor, found, bound)
        if response is not None:
            return response
        found = _visible_game(actor, pk)  # re-read: the refused action changed nothing
    return render(request, "league/game.html", game_context(request, found, me, bound))


def _campaign_battle(found: Game) -> CampaignBattle | None:
    if found.round.tournament.game_system.kind not in NOT_FOR_EVENTS:
        return None  # no query for an event's game
    return CampaignBattle.objects.filter(game=found).select_related("turn__campaign").first()


def _visible_game(actor: Actor, pk: int) -> Game:
    """404 for a draft round's (or event's) game, 403 for a stranger; staff see all."""
    found = (Game.objects.select_related("round__tournament__level", "round__tournament__chart",
                                         "round__tournament__game_system", "round__clock",
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


def _act(request, actor: Actor, found: Game, bound: dict[str, Any]):
    """Run the posted action; a redirect when it went through, None to show the page again."""
    action = request.POST.get("action")
    handler = {"report": _report, "preview": _preview, "roll": game_rolls.roll, "declare": _declare, "vp": game_vp.vp,
               "morale": _morale, "confirm": _confirm, "dispute": _dispute}.get(action or "")
    if handler is None:
        return redirect("game", pk=found.pk)
    return handler(request, actor, found, bound)


def _posted_report(request, found: Game, bound: dict[str, Any]) -> ReportForm | SystemReportForm:
    lists = system_games.main_lists(found) if report_form_class(found) else {}
    form = report_form(found, request.POST, lists, _catalogue(found))
    bound["report_form"] = form
    return form


def report_form(found: Game, data: Any, lists: dict[int, tuple[int, list[dict[str, Any]]]],
                catalogue: Catalogue | None,
                initial: dict[str, Any] | None = None) -> ReportForm | SystemReportForm:
    """The game system's report form, or the Cities of Death one (stratagems only with a mission)."""
    system_form = report_form_class(found)
    if system_form is not None:
        return system_form(data, game=found, lists=system_games.entries_of(lists), initial=initial)
    stratagems = stratagem_choices(catalogue) if catalogue is not None else []
    return ReportForm(data, game=found, stratagems=stratagems, initial=initial)


def _catalogue(found: Game) -> Catalogue | None:
    """The stratagem and rule names, read only for a game with a Cities of Death mission."""
    return Catalogue(found.round.tournament.level) if found.mission is not None else None


def _report(request, actor: Actor, found: Game, bound: dict[str, Any]):
    form = _posted_report(request, found, bound)
    if not form.is_valid():
        return None
    done = attempt(request, lambda: results.report(
        actor, found.pk, results.ResultInput(**form.content())))
    if done is None:
        return None
    messages.success(request, _status_message(done.status))
    return redirect("game", pk=found.pk)


def _preview(request, actor: Actor, found: Game, bound: dict[str, Any]):
    """Show what the posted report would record (the page's preview line); nothing is sent."""
    _posted_report(request, found, bound).is_valid()
    return None


def _confirm(request, actor: Actor, found: Game, bound: dict[str, Any]):
    if attempt(request, lambda: results.confirm(actor, found.pk)) is None:
        return None
    messages.success(request, _("Result confirmed."))
    return redirect("game", pk=found.pk)


def _dispute(request, actor: Actor, found: Game, bound: dict[str, Any]):
    form = DisputeForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    if attempt(request, lambda: results.dispute(actor, found.pk, reason)) is None:
        return None
    messages.success(request, _("Result disputed: an organiser will settle it."))
    return redirect("game", pk=found.pk)


def _declare(request, actor: Actor, found: Game, bound: dict[str, Any]):
    catalogue = Catalogue(found.round.tournament.level)
    try:
        player_id = int(request.POST.get("player", ""))
    except ValueError:
        player_id = 0
    form = DeclarationForm(request.POST, choices=_declarable(found, catalogue, player_id))
    bound[f"declare_{player_id}"] = form
    if not form.is_valid():
        return None
    slugs = form.cleaned_data["stratagems"]
    if attempt(request, lambda: declarations.declare(actor, found.pk, player_id, slugs)) is None:
        return None
    messages.success(request, _("Stratagems declared."))
    return redirect("game", pk=found.pk)


def _morale(request, actor: Actor, found: Game, bound: dict[str, Any]):
    """W40K Dynamics' morale helper: a stateless check, shown on the page again."""
    form = MoraleForm(request.POST, auto_id="id_morale_%s")
    bound["morale_form"] = form
    if form.is_valid() and system_games.dynamics_panel_applies(found):
        data = form.cleaned_data
        check = form.check(system_games.morale_rule(found))
        bound["morale_result"] = system_games.morale_words(
            check, data["models_at_start"], data["pending"])
    return None


def _status_message(status: str) -> str:
    if status == Game.Status.CONFIRMED:
        return _("Result recorded and confirmed.")
    if status == Game.Status.DISPUTED:
        return _("Your report differs from your opponent's: an organiser will settle it.")
    return _("Result reported: your opponent must now confirm it.")


def stratagem_choices(catalogue: Catalogue) -> list[tuple[str, str]]:
    return [(slug, label) for slug, label, _category in catalogue.stratagem_rows]


def _declarable(found: Game, catalogue: Catalogue, player_id: int) -> list[tuple[str, str]]:
    """The stratagems this player's mission and role allow (forbidden categories left out)."""
    if found.mission is None:
        return []
    granted = catalogue.granted(found.mission, found.roles.get(str(player_id)))
    return [(slug, label) for slug, label, category in catalogue.stratagem_rows
            if category not in granted.forbidden_categories]


def game_context(request, found: Game, me: Player | None,
                 bound: dict[str, Any] | None = None) -> dict[str, Any]:
    bound = bound or {}
    event = found.round.tournament
    context: dict[str, Any] = {"game": found, "tournament": event, "me": me,
                               "opponent": _opponent(found, me), "round_clock": round_clock(found)}
    if found.is_bye:
        return context
    catalogue = _catalogue(found)
    names = {str(p.pk): p.name for p in (found.player_a, found.player_b)}
    ids = (str(found.player_a_id), str(found.player_b_id))
    reports = list(found.reports.select_related("winner").order_by("-created_at", "-pk"))
    latest = next((r for r in reports if r.status in OPEN), None)
    live = found.round.status != Round.Status.DRAFT
    lists = system_games.main_lists(found) if _reads_lists(found) else {}
    entries = system_games.entries_of(lists)
    context.update(
        sides=_sides(found, catalogue),
        rules=_rules(found, catalogue),
        game_length=game_length_text(found.mission) if found.mission else "",
        rolls=roll_lines(found, ids, names) if found.mission else (),
        latest=latest,
        latest_summary=_summary(found, latest, catalogue, entries) if latest else None,
        confirmed=_confirmed(found, entries),
        may_confirm=_may_answer(found, me, latest),
        report_due=live and not latest and found.status == Game.Status.PENDING,
        may_report=live and (found.status != Game.Status.CONFIRMED
                             or (me is None and Actor.of(request).is_staff)),
        declared=_declared(found, catalogue) if catalogue else [],
        declare_forms=_declare_forms(request, found, me, catalogue, bound, open_=live and not reports
                                     and found.status != Game.Status.CONFIRMED) if catalogue else [],
        dynamics=_dynamics_context(found, lists, bound),
        **game_rolls.dice_context(found, live, bound),
    )
    if context["may_report"]:
        initial: dict[str, Any] = {}
        if game_vp.has_vp_helper(found):
            vp_result = bound.get("vp_result")
            context.update(game_vp.vp_context(found, bound, vp_result))
            initial = {f"vp_{s}": side.victory_points
                       for s, side in zip(SIDES, vp_result.sides, strict=True)} if vp_result else {}
        context["report_form"] = form = bound.get("report_form") or report_form(
            found, None, lists, catalogue, initial=initial)
        context["system_report"] = isinstance(form, SystemReportForm)
        context["preview"] = form.current_preview()
        context["dispute_form"] = DisputeForm()
    return context


def round_clock(found: Game) -> dict[str, Any] | None:
    """The time left in the game's round, as the projector shows it (None until staff start
    the clock, and for a bye)."""
    if found.is_bye or found.round.status == Round.Status.DRAFT:
        return None
    reading = clock.read(found.round)
    if not reading.shown:
        return None
    notes = {clock.PAUSED: _("paused"), clock.ENDED: _("round over")}
    note = _("time is up") if reading.expired else notes.get(reading.state, "")
    return {"state": reading.state, "seconds": reading.remaining_seconds, "note": note,
            "text": clock_text(reading.remaining_seconds), "expired": reading.expired}


def _reads_lists(found: Game) -> bool:
    """Whether the page shows something of the players' current lists (one query for both)."""
    return report_form_class(found) is not None or system_games.dynamics_panel_applies(found)


def _dynamics_context(found: Game, lists: dict[int, tuple[int, list[dict[str, Any]]]],
                      bound: dict[str, Any]) -> dict[str, Any] | None:
    panel = system_games.dynamics_panel(found, lists)
    if panel is None:
        return None
    form = bound.get("morale_form") or MoraleForm(auto_id="id_morale_%s")
    return {**panel, "morale_form": form, "morale_result": bound.get("morale_result")}


def _confirmed(found: Game, entries: dict[int, Any]) -> dict[str, Any] | None:
    """A confirmed game's result beyond its winner: the system's facts, else the points."""
    if found.status != Game.Status.CONFIRMED:
        return None
    names = {str(p.pk): p.name for p in (found.player_a, found.player_b)}
    return {"lines": result_lines(found, found.outcome, found.victory_points, entries),
            "victory_points": [(names.get(k, k), v) for k, v in (found.victory_points or {}).items()]}


# --- stratagem declarations ------------------------------------------------------------------

def _declared(found: Game, catalogue: Catalogue) -> list[dict[str, Any]]:
    """Each side's declaration, shown to both players at once (§3.2 declares openly)."""
    lines = []
    for player in (found.player_a, found.player_b):
        slugs = found.declarations.get(str(player.pk))
        lines.append({"player": player, "declared": slugs is not None,
                      "names": [catalogue.stratagems.get(s, s) for s in slugs or ()]})
    return lines


def _declare_forms(request, found: Game, me: Player | None, catalogue: Catalogue, bound: dict[str, Any],
                   open_: bool) -> list[dict[str, Any]]:
    """A form for the actor's own side, or for both sides for an organiser."""
    if not open_:
        return []
    players = [me] if me is not None else (
        [found.player_a, found.player_b] if Actor.of(request).is_staff else [])
    forms = []
    for player in players:
        form = bound.get(f"declare_{player.pk}") or DeclarationForm(
            choices=_declarable(found, catalogue, player.pk), auto_id=f"id_declare_{player.pk}_%s",
            initial={"player": player.pk, "stratagems": found.declarations.get(str(player.pk), [])})
        forms.append({"player": player, "form": form})
    return forms


# --- what the page already showed ----------------------------------------------------------------

def _opponent(found: Game, me: Player | None) -> Player | None:
    if me is None or found.is_bye:
        return None
    return found.player_b if me.pk == found.player_a_id else found.player_a


def _sides(found: Game, catalogue: Catalogue | None) -> list[dict[str, Any]]:
    sides = []
    for player in (found.player_a, found.player_b):
        role = found.roles.get(str(player.pk))
        allowance = (catalogue.allowance(found.mission, role)
                     if found.mission and catalogue is not None else None)
        sides.append({"player": player, "role": role,
                      "allowance": allowance.lines if allowance else ()})
    return sides


def _rules(found: Game, catalogue: Catalogue | None) -> list[dict[str, str]]:
    if found.mission is None or catalogue is None:
        return []
    rules = []
    for slug in found.mission.special_rules_by_level.get(catalogue.level.slug, ()):
        rule = catalogue.rules.get(slug)
        rules.append({"name": rule.name if rule else slug, "text": rule.summary if rule else ""})
    return rules


def _summary(found: Game, report: Report, catalogue: Catalogue | None,
             entries: dict[int, Any]) -> dict[str, Any]:
    names = {str(p.pk): p.name for p in (found.player_a, found.player_b)}
    stratagems = catalogue.stratagems if catalogue is not None else {}
    return {
        "winner": report.winner.name if report.winner else None,
        "by": names.get(str(report.by_player_id), _("an organiser")),
        "victory_points": [(names.get(k, k), v) for k, v in report.victory_points.items()],
        "stratagems": [(names.get(k, k), ", ".join(stratagems.get(s, s) for s in v))
                       for k, v in report.stratagems.items() if v],
        # The system's facts (baggage bonus, destroyed models…) in place of the bare points.
        "lines": result_lines(found, report.outcome, report.victory_points, entries),
    }


def _may_answer(found: Game, me: Player | None, latest: Report | None) -> bool:
    """The opponent of the reporter may confirm or dispute an open, undisputed report."""
    return (me is not None and latest is not None and found.status == Game.Status.REPORTED
            and latest.by_player_id != me.pk)
