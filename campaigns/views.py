"""A player's Epic 40,000 campaign page: the map as they may see it, their army, allowances,
the orders of the open phase, their battles (sheet, report, confirm, choices after the battle),
the ledger and the turn reports (what it shows: campaigns/pages/campaign.py); during set-up, their
army, majors and placements (campaigns/pages/setup.py, campaigns/forms.py).

Every form posts ``action`` to this page and goes through the services the API calls: orders
through ``campaign_turns.declare_order``, reports through ``results.report``/``confirm``/
``dispute`` (the battle's league game), choices through ``campaign_battles.make_choices``, set-up
through ``campaign_setup.set_army``/``set_majors`` and ``campaign_placement.place``. A refusal
is shown on the page in the engine's words (``attempt``), a refused set-up form as it was typed;
a success redirects."""
from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.choices import order_label, order_of
from campaigns.forms import MajorsForm, PlacementForm, army_formset, with_stored_details
from campaigns.models import Campaign, CampaignBattle, CampaignOrder
from campaigns.pages.campaign import page_context
from campaigns.pages.setup import Typed, major_choices, placement_choices
from campaigns.services import battles as campaign_battles
from campaigns.services import declarations as campaign_declarations
from campaigns.services import placement as campaign_placement
from campaigns.services import setup as campaign_setup
from campaigns.services import surrender as campaign_surrender
from campaigns.services import turns as campaign_turns
from campaigns.services.campaign import settings_of, side_of_actor, state_of
from campaigns.words import ORDER_KINDS, SIDES, word
from config.typography import elide
from events.audit import Actor
from events.errors import NotFound
from events.services import results
from events.views.common import attempt

WINNERS = ("attacker", "defender", "draw")


def campaign(request, slug: str) -> HttpResponse:
    found = Campaign.objects.select_related("tournament").filter(slug=slug).first()
    if found is None:
        raise Http404(_("No such campaign."))
    actor = Actor.of(request)
    typed = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        handler = ACTIONS.get(request.POST.get("action", ""))
        done = handler(request, actor, found) if handler is not None else False
        if done is True:
            return redirect("campaign", slug=found.slug)
        typed = done or None  # a set-up form shown again as it was typed
    return render(request, "league/campaign.html", page_context(actor, found, typed))


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
    order = order_of(request.POST.get("choice", ""), side.side, kind, names,
                     settings_of(found).adjacency)
    if order is None:
        return _fail(request, _("Choose one of the orders offered."))
    request_ = campaign_turns.OrderInput(kind=order.kind, detachments=order.detachments,
                                         from_=order.from_, to=order.to,
                                         for_attack=order.for_attack, mission=order.mission,
                                         route=order.route, return_route=order.return_route,
                                         escort_of=order.escort_of)
    saved = attempt(request, lambda: campaign_turns.declare_order(
        actor, found, found.current_turn, request_))
    if saved is None:
        return False
    text = _("Order accepted: %(order)s.") % {"order": order_label(order)}
    if saved.status == CampaignOrder.SEALED:
        text = _("Order sealed: %(order)s. Your opponent sees it when this phase's orders are "
                 "revealed.") % {"order": order_label(order)}
    if saved.bonus:
        text += " " + elide(_("It used the extra action of %(commander)s.")
                            % {"commander": saved.commander})
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


# Set-up (R1–R3, R7, R11): the side's own army, majors and placements, as the API's
# ``PUT …/army/``, ``PUT …/majors/`` and ``POST …/placements/``. A refused form comes back as
# typed (``Typed``) instead of a redirect.

def _army(request, actor: Actor, found: Campaign) -> bool | Typed:
    side = side_of_actor(actor, found)
    if side is None:
        return _fail(request, _("Only the campaign's players enter their armies."))
    rows = army_formset(request.POST)
    if "add_rows" in request.POST:
        return Typed(army=rows.grown())
    if not rows.is_valid():
        messages.error(request, _("Army not saved: correct the rows marked below."))
        return Typed(army=rows)
    stored = dict(side.detachments.values_list("name", "units"))
    specs = [with_stored_details(spec, stored.get(spec.name, ())) for spec in rows.specs()]
    answer = attempt(request, lambda: campaign_setup.set_army(actor, found, side.side, specs))
    if answer is None:  # frozen: the service's words
        return False
    report, saved = answer
    if not saved:
        rows.mark_duplicates([str(p.params.get("name")) for p in report.errors
                              if p.code == "detachment_name_duplicate"])
        messages.error(request, _("Army not saved: see the problems below."))
        return Typed(army=rows, army_report=report)
    messages.success(request, _("Army saved: %(count)s detachments, %(total)s of %(limit)s points.")
                     % {"count": len(specs), "total": report.total_points,
                        "limit": found.army_points})
    return True


def _majors(request, actor: Actor, found: Campaign) -> bool | Typed:
    side = side_of_actor(actor, found)
    if side is None:
        return _fail(request, _("Only the campaign's players choose majors."))
    form = MajorsForm(request.POST, codes=major_choices(side.side))
    if not form.is_valid():
        return Typed(majors=form)
    chosen = form.cleaned_data["majors"]
    if attempt(request, lambda: campaign_setup.set_majors(actor, found, side.side, chosen)) is None:
        return Typed(majors=form)
    messages.success(request, _("Your majors: %(codes)s.") % {"codes": ", ".join(chosen)})
    return True


def _place(request, actor: Actor, found: Campaign) -> bool | Typed:
    side = side_of_actor(actor, found)
    if side is None:
        return _fail(request, _("Only the campaign's players place their detachments."))
    offered = placement_choices(state_of(found), side.side, side.majors)
    form = PlacementForm(request.POST, detachments=offered.detachments,
                         territories=offered.territories)
    if not form.is_valid():
        return Typed(placement=form)
    name, code = form.cleaned_data["detachment"], form.cleaned_data["territory"]
    placed = attempt(request, lambda: (campaign_placement.place(actor, found, detachment=name,
                                                                territory=code, side=side.side),))
    if placed is None:
        return Typed(placement=form)
    following = placed[0]
    text = _("%(name)s placed in %(code)s.") % {"name": name, "code": code}
    if following is None:
        text += " " + _("Every detachment is placed: the organisers start the campaign.")
    elif following != side.side:
        text += " " + _("%(side)s places next.") % {"side": word(SIDES, following)}
    messages.success(request, text)
    return True


def _ready(request, actor: Actor, found: Campaign) -> bool:
    """G11: the reader's orders of the open phase are all sent."""
    if attempt(request, lambda: campaign_declarations.mark_ready(
            actor, found, found.current_turn)) is None:
        return False
    messages.success(request, _("Noted: your orders for this phase are all sent."))
    return True


def _first(request, actor: Actor, found: Campaign) -> bool:
    """R15: the initiative winner chooses which side declares first."""
    side = request.POST.get("side", "")
    if side not in ("west", "east"):
        return _fail(request, _("Choose west or east."))
    if attempt(request, lambda: campaign_declarations.choose_first(
            actor, found, found.current_turn, side)) is None:
        return False
    messages.success(request, _("Noted: %(side)s declares first.") % {"side": word(SIDES, side)})
    return True


ACTIONS: dict[str, Callable[..., bool | Typed]] = {
    "order": _order, "ready": _ready, "first": _first, "report": _report, "confirm": _confirm, "dispute": _dispute,
    "stay": _stay, "retreat": _retreat, "surrender": _surrender,
    "army": _army, "majors": _majors, "place": _place,
}
