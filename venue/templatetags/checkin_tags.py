"""``{% check_in_card player %}``: a player's own check-in code and its QR code (event page,
profile). Reads nothing from the database: the player row carries its code."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from events.models import Player, Tournament
from venue.checkin_codes import shown
from venue.qr import qr_svg
from venue.services import checkin

register = template.Library()
SHOWN_WHILE = (Tournament.Status.REGISTRATION_OPEN, Tournament.Status.LISTS_LOCKED,
               Tournament.Status.RUNNING)


def staff_link(request, player: Player) -> str:
    """The QR code's link (``checkin.desk_path``), absolute for the phone that scans it."""
    return request.build_absolute_uri(checkin.desk_path(player))


@register.inclusion_tag("league/check_in_card.html", takes_context=True)
def check_in_card(context: template.Context, player: Player, status: str) -> dict[str, Any]:
    """The card for ``player`` of an event in ``status`` (passed in: no query for the event)."""
    request = context["request"]
    show = status in SHOWN_WHILE and not player.dropped
    card: dict[str, Any] = {"show": show, "player": player}
    if show and not player.checked_in:
        card.update(code=shown(player.checkin_code), qr=qr_svg(
            staff_link(request, player),
            _("QR code of your check-in code %(code)s") % {"code": shown(player.checkin_code)}))
    return card
