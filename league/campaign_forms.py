"""The set-up forms of an Epic 40,000 campaign's player page (league/views/campaigns.py): the
army's detachment rows, the two majors, one placement. They only shape input; the campaign
services decide (league/services/campaigns.py ``set_army``, ``set_majors``, ``place``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from league.campaign.army import GROUND, KINDS, DetachmentSpec
from league.campaign_serializers import POINTS
from league.campaign_words import KINDS as KIND_WORDS
from league.forms import BLANK, GrowableFormSet

ARMY_PREFIX = "army"
MAX_DETACHMENTS = 500  # as the API's army body (league/campaign_state_serializers.py)
EXTRA_ROWS = 3


class DetachmentForm(forms.Form):
    """One detachment row; a row with neither name nor points is ignored (spare rows)."""

    typed_keys: tuple[str, ...] = ("name", "points")

    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    points = forms.IntegerField(label=_("Points"), required=False, **POINTS)
    kind = forms.ChoiceField(label=_("Kind"), required=False,
                             choices=[(k, KIND_WORDS[k]) for k in KINDS])
    supreme_commander = forms.BooleanField(label=_("Supreme Commander"), required=False)

    @property
    def is_blank(self) -> bool:
        return not any(self.cleaned_data.get(key) not in BLANK for key in self.typed_keys)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.is_blank:
            return data
        if not data.get("name"):
            self.add_error("name", _("Give the detachment a name."))
        if data.get("points") is None:
            self.add_error("points", _("Give the detachment's points."))
        return data

    def spec(self) -> DetachmentSpec:
        data = self.cleaned_data
        return DetachmentSpec(data["name"], data["points"], data.get("kind") or GROUND,
                              bool(data.get("supreme_commander")))


class BaseDetachmentFormSet(GrowableFormSet):
    row_keys = ("name", "points", "kind", "supreme_commander")
    typed_keys = DetachmentForm.typed_keys

    def add_fields(self, form, index) -> None:
        super().add_fields(form, index)
        form.fields["DELETE"].label = _("Remove this detachment")

    def specs(self) -> list[DetachmentSpec]:
        return [form.spec() for form in self.kept() if form.cleaned_data and not form.is_blank]

    def clean(self) -> None:
        if any(self.errors):
            return
        if not self.specs():
            raise ValidationError(_("Enter at least one detachment."))

    def mark_duplicates(self, names: Sequence[str]) -> None:
        """Show the engine's duplicate-name problem on the rows concerned too."""
        for form in self.kept():
            if form.is_bound and form.is_valid() and not form.is_blank \
                    and form.cleaned_data["name"] in names:
                form.problems = [_("Another detachment has this name.")]


DetachmentFormSet = forms.formset_factory(
    DetachmentForm, formset=BaseDetachmentFormSet, extra=EXTRA_ROWS, max_num=MAX_DETACHMENTS,
    validate_max=True, absolute_max=MAX_DETACHMENTS, can_delete=True)


def army_formset(data: Any = None, initial: Sequence[dict[str, Any]] = ()) -> BaseDetachmentFormSet:
    if data is not None:
        return DetachmentFormSet(data, prefix=ARMY_PREFIX)
    return DetachmentFormSet(prefix=ARMY_PREFIX, initial=list(initial))


class MajorsForm(forms.Form):
    """R7, G30: two territories of the player's own sector (the service checks there are two)."""

    majors = forms.MultipleChoiceField(label=_("Your two major territories"),
                                       widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, codes: Sequence[tuple[str, str]] = (), **kwargs: Any):
        kwargs.setdefault("auto_id", "majors-%s")
        super().__init__(*args, **kwargs)
        self.fields["majors"].choices = list(codes)


class PlacementForm(forms.Form):
    """R11: one of the player's detachments still to place, into a territory of their sector."""

    detachment = forms.ChoiceField(label=_("Detachment"))
    territory = forms.ChoiceField(label=_("Territory"))

    def __init__(self, *args: Any, detachments: Sequence[tuple[str, str]] = (),
                 territories: Sequence[tuple[str, str]] = (), **kwargs: Any):
        kwargs.setdefault("auto_id", "place-%s")
        super().__init__(*args, **kwargs)
        self.fields["detachment"].choices = list(detachments)
        self.fields["territory"].choices = list(territories)
