"""The form a player registers for an event with."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    faction = forms.CharField(label=_("Faction"), max_length=120, required=False)

    def __init__(self, *args: Any, factions: Sequence[tuple[str, str]] = (), **kwargs: Any):
        """With ``factions`` (value, label) the faction is picked from them, not typed."""
        super().__init__(*args, **kwargs)
        if factions:
            self.fields["faction"] = forms.ChoiceField(
                label=_("Faction"), required=False, choices=[("", _("— not given —")), *factions])
