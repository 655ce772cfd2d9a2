"""A list's units typed row by row, and the roster pasted or uploaded instead."""
from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armylists.roster import FORMATS
from armylists.serializers import MAX_ROSTER_CHARS, MAX_UNITS
from events.forms.rows import EXTRA_ROWS, GrowableFormSet, RowForm

MAX_ROSTER_FILE = 2 * 1024 * 1024  # as the API: a 2 MiB file (3 MiB once base64-encoded)
ROSTER_EXTENSIONS = (".ros", ".rosz", ".json", ".txt")


class UnitForm(RowForm):
    """One unit row of a list."""

    typed_keys: tuple[str, ...] = ("name", "slot", "points", "models")
    name_missing, points_missing = _("Give the unit a name."), _("Give the unit's points.")

    name = forms.CharField(label=_("Unit"), max_length=200, required=False)
    slot = forms.ChoiceField(label=_("Slot"), required=False)
    points = forms.IntegerField(label=_("Points"), min_value=0, max_value=100_000, required=False)
    models = forms.IntegerField(label=_("Models"), min_value=1, max_value=10_000, required=False)

    def __init__(self, *args: Any, slots: list[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = [("", _("— none —")), *slots]

    def unit(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"name": data["name"], "slot": data["slot"] or None, "points": data["points"],
                "models": data.get("models") or 1}


class BaseUnitFormSet(GrowableFormSet):
    row_keys = typed_keys = ("name", "slot", "points", "models")

    def __init__(self, *args: Any, slots: list[tuple[str, str]] = (), **kwargs: Any):
        self.slots = slots
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "slots": self.slots}

    @property
    def empty_form(self):  # the template never uses it; it would need the slots too
        return self.form(auto_id=self.auto_id, prefix=self.add_prefix("__prefix__"),
                         empty_permitted=True, use_required_attribute=False, slots=self.slots)

    def add_fields(self, form, index) -> None:
        super().add_fields(form, index)
        form.fields["DELETE"].label = _("Remove this unit")

    def units(self) -> list[dict[str, Any]]:
        return [form.unit() for form in self.kept() if form.cleaned_data and not form.is_blank]

    def clean(self) -> None:
        if any(self.errors):
            return
        if not self.units():
            raise ValidationError(_("Enter at least one unit."))


UnitFormSet = forms.formset_factory(UnitForm, formset=BaseUnitFormSet, extra=EXTRA_ROWS,
                                    max_num=MAX_UNITS, validate_max=True, absolute_max=MAX_UNITS,
                                    can_delete=True)


class PasteForm(forms.Form):
    roster = forms.CharField(label=_("BattleScribe or NewRecruit export"), widget=forms.Textarea(
        attrs={"rows": 10}), max_length=MAX_ROSTER_CHARS, strip=False)
    roster_format = forms.ChoiceField(label=_("Format"), initial="auto")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["roster_format"].choices = format_choices()


class UploadForm(forms.Form):
    roster_file = forms.FileField(label=_("Roster file (.ros, .rosz, .json)"))
    roster_format = forms.ChoiceField(label=_("Format"), initial="auto")

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["roster_format"].choices = format_choices()
        self.fields["roster_file"].widget.attrs["accept"] = ",".join(ROSTER_EXTENSIONS)

    def clean_roster_file(self):
        upload = self.cleaned_data["roster_file"]
        if upload.size > MAX_ROSTER_FILE:
            raise ValidationError(_("The file is too large (at most %(size)s MiB).")
                                  % {"size": MAX_ROSTER_FILE // (1024 * 1024)})
        return upload


def format_choices() -> list[tuple[str, Any]]:
    labels = {"battlescribe_text": _("BattleScribe text"), "ros": ".ros", "rosz": ".rosz",
              "newrecruit_json": _("NewRecruit JSON")}
    return [("auto", _("Detect")), *((fmt, labels.get(fmt, fmt)) for fmt in FORMATS)]
