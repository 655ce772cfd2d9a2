"""Forms of the account pages (sign-up, profile); they only shape input, the services save."""
from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.services import UsernameTaken, create_account, username_taken_message


def language_choices() -> list[tuple[str, str]]:
    return [("", _("Follow my browser")), *settings.LANGUAGES]


class SignupForm(UserCreationForm):
    """Django's form refuses a username taken in any case; ``save`` also survives the race."""

    email = forms.EmailField(label=_("Email"))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def save(self, commit: bool = True) -> Any:
        """The new account, or None with an error on the username when a sign-up sent at the
        same moment took the name first (the form then shows again, as for any error)."""
        data = self.cleaned_data
        try:
            return create_account(data["username"], data["email"], data["password1"])
        except UsernameTaken:
            self.add_error("username", username_taken_message())
            return None


class ProfileForm(forms.Form):
    email = forms.EmailField(label=_("Email"), max_length=254,
                             help_text=_("Password-reset links are sent to this address."))
    language = forms.ChoiceField(label=_("Preferred language"), choices=language_choices,
                                 required=False)
    notices = forms.BooleanField(
        label=_("E-mail notices"), required=False,
        help_text=_("An e-mail when a round is published, when your opponent reports, when a "
                    "dispute is settled and when the lists lock."))
