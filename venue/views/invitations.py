"""The invitation link a walk-in receives: sign in (or up), then confirm to link the
registration to the account. Opening the link changes nothing: mail scanners follow links."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from events.audit import Actor
from events.errors import ServiceError
from events.views.common import attempt
from venue.services import invitations


def invitation(request, token: str):
    try:
        player = invitations.invited_player(token)
    except ServiceError as exc:
        return render(request, "league/invitation.html", {"problem": exc.message},
                      status=exc.status)
    if request.method == "POST" and request.user.is_authenticated:
        linked = attempt(request, lambda: invitations.accept(Actor.of(request), token))
        if linked is not None:
            messages.success(request, _("Your registration as %(name)s is now linked to your "
                                        "account.") % {"name": linked.name})
            return redirect("tournament", slug=linked.tournament.slug)
    return render(request, "league/invitation.html", {
        "player": player, "tournament": player.tournament, "used": player.user_id is not None,
        "mine": player.user_id is not None and player.user_id == request.user.pk,
    })
