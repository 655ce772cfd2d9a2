"""The cockpit's air missions and landings (R13, R14, R19–R24): the list with names, and the
button that rolls the air gates due (the same service as ``POST …/turns/{n}/air/``)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.admin.forms import DiceField
from campaigns.engine.state import CampaignState
from campaigns.models import Campaign, CampaignTurn
from campaigns.pages.air import air_lines
from campaigns.services import air as campaign_air
from events.audit import Actor
from events.errors import Invalid


class AirForm(forms.Form):
    dice = DiceField(label=gettext_lazy("Air dice"),
                     help_text=gettext_lazy(
                         "Leave empty to let Muster roll; or type the dice thrown at the table: "
                         "each mission's Flak dice in the order listed, then one die per unit of "
                         "each intercepting detachment."))


def resolve(actor: Actor, c: Campaign, data: Any) -> str:
    form = AirForm(data)
    if not form.is_valid():
        raise Invalid("; ".join(" ".join(v) for v in form.errors.values()), "form_invalid")
    answer = campaign_air.resolve_air(actor, c, c.current_turn, form.cleaned_data["dice"])
    if not answer["flak"] and not answer["landings"] and not answer["dice_log"]:
        return _("No air gate left to roll.")
    return _("Air gates rolled: %(flak)s Flak dice, %(landings)s landing interception(s); "
             "listed under the phases.") % {"flak": len(answer["flak"]),
                                            "landings": len(answer["landings"])}


def cockpit(c: Campaign, turn: CampaignTurn, state: CampaignState) -> dict[str, Any]:
    """Staff see every mission with its detachment (no side's view applies)."""
    lines = air_lines(c, turn, None)
    due = bool(turn.phase) and campaign_air.anything_pending(c, turn, state)
    return {"air": lines, "air_form": AirForm(auto_id="id_air_%s") if due else None}
