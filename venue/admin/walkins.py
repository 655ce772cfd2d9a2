"""Walk-ins and mistakes in the cockpit: invite a player registered without an account, and
finish an event only once its name has been typed (as re-pairing asks for the round number).

The typed name is the admin's safeguard; the API's status endpoint finishes without it."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from events.admin.common import Status, admin_url
from events.audit import Actor
from events.errors import Invalid
from events.models import AuditEntry, Tournament
from events.services import tournaments
from venue.services import invitations


def name_matches(tournament: Tournament, typed: Any) -> bool:
    """The typed text is the event's name, whatever the case and the spaces around or between
    the words (typed on a venue laptop: the point is to type it, not to spell it perfectly)."""
    def plain(text: str) -> str:
        return " ".join(str(text).split()).casefold()

    return bool(plain(typed)) and plain(typed) == plain(tournament.name)


def require_typed_name(tournament: Tournament, data) -> None:
    """Refuse an admin finish whose typed name is missing or wrong."""
    if not name_matches(tournament, data.get("confirmation", "")):
        raise Invalid(_("Type the event's name (%(name)s) to finish it.") % {"name": tournament.name},
                      "confirmation_mismatch")


class FinishForm(forms.Form):
    confirmation = forms.CharField(
        label=_("Type the event's name to confirm"), max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 40, "autofocus": True}))

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_confirmation(self) -> str:
        typed = self.cleaned_data["confirmation"]
        if not name_matches(self.tournament, typed):
            raise forms.ValidationError(
                _("Type the event's name (%(name)s) to confirm.") % {"name": self.tournament.name})
        return typed


def finish_view(model_admin, request, pk: int):
    """Finish the event: the organiser types its name; the service still refuses an event with
    a round to complete."""
    tournament = model_admin._tournament(request, pk)
    form = FinishForm(tournament, request.POST or None)
    if request.method == "POST" and form.is_valid():
        def finish() -> str:
            tournaments.transition(Actor.of(request), tournament, Status.FINISHED)
            return _("“%(name)s” is now finished.") % {"name": tournament.name}

        if model_admin._run(request, finish):
            return HttpResponseRedirect(admin_url(tournament))
    return model_admin._page(request, tournament, _("Finish the tournament"),
                             "admin/league/tournament/finish.html", form=form,
                             field=form["confirmation"])


class InviteForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    email = forms.EmailField(label=_("E-mail address"), max_length=254)


def invite_view(model_admin, request, pk: int):
    """Players registered without an account, each with a field to e-mail them an invitation."""
    tournament = model_admin._tournament(request, pk)
    if request.method == "POST":
        form = InviteForm(request.POST)
        if form.is_valid():
            player = tournament.players.filter(pk=form.cleaned_data["player"]).first()
            if player is None:
                messages.error(request, _("No such player in this tournament."))
            else:
                model_admin._run(request, lambda: _invite(request, player, form.cleaned_data["email"]))
        else:
            messages.error(request, _("Enter a valid e-mail address."))
        return HttpResponseRedirect(request.path)
    walk_ins = list(tournament.players.filter(user__isnull=True).order_by("name", "pk"))
    invited = _last_invited(tournament)
    rows = [{"player": p, "invited": invited.get(p.pk)} for p in walk_ins]
    context = {**model_admin.admin_site.each_context(request), "opts": model_admin.opts,
               "original": tournament, "title": _("Invite players without an account"),
               "subtitle": tournament.name, "rows": rows}
    return TemplateResponse(request, "admin/league/tournament/invite_players.html", context)


def _invite(request, player, email: str) -> str:
    invitations.invite(Actor.of(request), player, email)
    return _("Invitation sent to %(name)s.") % {"name": player.name}


def _last_invited(tournament: Tournament) -> dict[int, Any]:
    """Player id -> when staff last invited them (the audit log keeps no address)."""
    rows = AuditEntry.objects.filter(tournament=tournament, action="player_invited").order_by(
        "created_at").values_list("data", "created_at")
    return {data.get("player"): when for data, when in rows if isinstance(data, dict)}
