"""The game page's W40K Dynamics morale helper form. The report forms of the game systems with
facts of their own live with their system (systems/<pkg>/report.py, systems/reports.py)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from systems.w40k4 import dynamics

MAX_MODELS = 1000


class MoraleForm(forms.Form):
    """W40K Dynamics' morale helper (D-R11): does a unit's pending shooting casualties reach a
    quarter of the models it had at the start of the pass?"""

    models_at_start = forms.IntegerField(label=_("Models in the unit at the start of the pass"),
                                         min_value=1, max_value=MAX_MODELS)
    pending = forms.IntegerField(label=_("Pending casualties from shooting"), min_value=0,
                                 max_value=MAX_MODELS)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, pending = data.get("models_at_start"), data.get("pending")
        if start is not None and pending is not None and pending > start:
            self.add_error("pending", _("At most the models the unit had at the start of the "
                                        "pass."))
        return data

    def check(self, rule: str) -> dynamics.MoraleCheck:
        data = self.cleaned_data
        return dynamics.morale_check(data["models_at_start"], data["pending"], rule)
