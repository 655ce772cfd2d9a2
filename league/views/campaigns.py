"""A player's Epic 40,000 campaign page: the map as they may see it, their army, allowances,
the orders of the open phase, their battles (sheet, report, confirm, choices after the battle),
the ledger and the turn reports (what it shows: league/campaign_page.py).

Every form posts ``action`` to this page and goes through the services the API calls: orders
through ``campaign_turns.declare_order``, reports through ``results.report``/``confirm``/
``dispute`` (the battle's league game), choices through ``campaign_battles.make_choices``. A
refusal is shown on the page in the engine's words (``attempt``); a success redirects."""
from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from league.audit import Actor
from league.campaign_choices import order_label, order_of
from league.campaign_models import Campaign, CampaignBattle
from league.campaign_page import page_context
from league.campaign_words import ORDER_KINDS
from league.errors import NotFound
from league.services import campaign_battles, campaign_surrender, campaign_turns, results
from league.services.campaigns import side_of_actor
from league.views.common import attempt

WINNERS = ("attacker", "defender", "draw")


def campaign(request, slug: str) -> HttpResponse:
    found = Campaign.objects.select_related("tournament").filter(slug=slug).first()
    if found is None:
        raise Http404(_("No such campaign."))
    actor = Actor.of(request)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        handler = ACTIONS.get(request.POST.get("action", ""))
        if handler is not None and handler(request, actor, found):
            return redirect("campaign", slug=found.slug)
    return render(request, "league/campaign.html", page_context(actor, found))


def _fail(request, message: str) -> bool:
    messages.error(request, message)
    return False


def _order(request, actor: Actor, found: Campaign) -> bool:
    """One order of the open phase, chosen among the offered ones; the service checks it again."""
    kind = request.POST.get("kind", "")
    side = side_of_actor(actor, found)
    if side is None or kind not in ORDER_KINDS:
        return _fail(request, _("Only the campaign's players declare orders."))
    names = dict(side.detachments.values_list("pk", "name"))
    order = order_of(request.POST.get("choice", ""), side.side, kind, names)
    if order is None:
        return _fail(request, _("Choose one of the orders offered."))
    request_ = campaign_turns.OrderInput(kind=order.kind, detachments=order.detachments,
                                         from_=order.from_, to=order.to,
                                         for_attack=order.for_attack)
    saved = attempt(request, lambda: campaign_turns.declare_order(
        actor, found, found.current_turn, request_))
    if saved is None:
        return False
    text = _("Order accepted: %(order)s.") % {"order": order_label(order)}
    if saved.bonus:
        text += " " + _("It used the extra action of %(commander)s.") % {"commander": saved.commander}
    messages.success(request, text)
    return True


def _battle(request, found: Campaign) -> CampaignBattle | None:
    try:
        return campaign_battles.get_battle(found, int(request.POST.get("battle", "")))
    except (ValueError, NotFound):  # not a number, or a battle of another campaign
        return None


def _report(request, actor: Actor, found: Campaign) -> bool:
    """The battle's result with the campaign facts (swept, destroyed: R38, R39), as the API's
    ``games/{id}/report/`` body ``"campaign": {"swept", "destroyed"}``."""
    battle = _battle(request, found)
    winner = request.POST.get("winner", "")
    if battle is None or battle.game is None:
        return _fail(request, _("This battle has no game to report."))
    if winner not in WINNERS:
        return _fail(request, _("Say who won the battle, or that it was a draw."))
    game = battle.game
    winner_id = {"attacker": game.player_a_id, "defender": game.player_b_id}.get(winner)
    facts = {"swept": request.POST.getlist("swept"), "destroyed": request.POST.getlist("destroyed")}
    content = results.ResultInput(winner=winner_id, campaign=facts)
    done = attempt(request, lambda: results.report(actor, game.pk, content))
    if done is None:
        return False
    messages.success(request, _("Result confirmed: both reports agree.") if done.status == "confirmed"
                     else _("Result sent: your opponent confirms it on their page.")
                     if done.status == "reported"
                     else _("The two reports differ: the result is disputed, an organiser will settle it."))
    return True


def _confirm(request, actor: Actor, found: Campaign) -> bool:
    battle = _battle(request, found)
    if battle is None or battle.game is None:
        return _fail(request, _("This battle has no game to confirm."))
    if attempt(request, lambda: results.confirm(actor, battle.game.pk)) is None:
        return False
    messages.success(request, _("Result confirmed."))
    return True


def _dispute(request, actor: Actor, found: Campaign) -> bool:
    battle = _battle(request, found)
    if battle is None or battle.game is None:
        return _fail(request, _("This battle has no game to dispute."))
    reason = request.POST.get("reason", "")[:500]
    if attempt(request, lambda: results.dispute(actor, battle.game.pk, reason)) is None:
        return False
    messages.success(request, _("Result disputed: an organiser will settle it."))
    return True


def _stay(request, actor: Actor, found: Campaign) -> bool:
    """R32: the winner's detachments that stay in the territory (the others go back)."""
    battle = _battle(request, found)
    if battle is None:
        return _fail(request, _("No such battle."))
    stay = request.POST.getlist("stay")
    if attempt(request, lambda: campaign_battles.make_choices(actor, found, battle.pk,
                                                              stay=stay)) is None:
        return False
    messages.success(request, _("Saved: who stays in %(territory)s.") % {"territory": battle.territory})
    return True


def _retreat(request, actor: Actor, found: Campaign) -> bool:
    """R32/G14: each beaten detachment to one of its nearest friendly territories."""
    battle = _battle(request, found)
    if battle is None:
        return _fail(request, _("No such battle."))
    chosen = {}
    for key, name in request.POST.items():
        if key.startswith("retreat_name_"):
            code = request.POST.get("retreat_to_" + key.removeprefix("retreat_name_"), "")
            if code:
                chosen[name] = code
    if attempt(request, lambda: campaign_battles.make_choices(actor, found, battle.pk,
                                                              retreat_to=chosen)) is None:
        return False
    messages.success(request, _("Saved: where your detachments retreat from %(territory)s.")
                     % {"territory": battle.territory})
    return True


def _surrender(request, actor: Actor, found: Campaign) -> bool:
    """R35: the player's own side gives up, confirmed by typing the army's name."""
    side = side_of_actor(actor, found)
    if side is None:
        return _fail(request, _("Only the campaign's players can surrender."))
    typed = request.POST.get("confirm", "")[:200]
    if attempt(request, lambda: campaign_surrender.surrender(actor, found, side.side, typed)) is None:
        return False
    messages.success(request, _("You have surrendered: the campaign is over."))
    return True


ACTIONS: dict[str, Callable[..., bool]] = {
    "order": _order, "report": _report, "confirm": _confirm, "dispute": _dispute,
    "stay": _stay, "retreat": _retreat, "surrender": _surrender,
}
