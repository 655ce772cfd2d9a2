"""Forms of the account pages (profile); they only shape input, league.services.profiles saves."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


def language_choices() -> list[tuple[str, str]]:
    return [("", _("Follow my browser")), *settings.LANGUAGES]


class ProfileForm(forms.Form):
    email = forms.EmailField(label=_("Email"), max_length=254,
                             help_text=_("Password-reset links are sent to this address."))
    language = forms.ChoiceField(label=_("Preferred language"), choices=language_choices,
                                 required=False)
