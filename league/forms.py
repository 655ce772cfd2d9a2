"""Forms of the player site; they only shape input, the league services decide."""
from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armylists.roster import FORMATS
from armylists.serializers import MAX_ROSTER_CHARS, MAX_UNITS

MAX_ROSTER_FILE = 2 * 1024 * 1024  # as the API: a 2 MiB file (3 MiB once base64-encoded)
ROSTER_EXTENSIONS = (".ros", ".rosz", ".json", ".txt")
EXTRA_ROWS = 3


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    faction = forms.CharField(label=_("Faction"), max_length=120, required=False)


class UnitForm(forms.Form):
    """One unit row; a row left entirely blank is ignored (so spare rows cost nothing)."""

    name = forms.CharField(label=_("Unit"), max_length=200, required=False)
    slot = forms.ChoiceField(label=_("Slot"), required=False)
    points = forms.IntegerField(label=_("Points"), min_value=0, max_value=100_000, required=False)
    models = forms.IntegerField(label=_("Models"), min_value=1, max_value=10_000, required=False)

    def __init__(self, *args: Any, slots: list[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = [("", _("— none —")), *slots]

    @property
    def is_blank(self) -> bool:
        return not any(self.cleaned_data.get(key) not in (None, "") for key in
                       ("name", "slot", "points", "models"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.is_blank:
            return data
        if not data.get("name"):
            self.add_error("name", _("Give the unit a name."))
        if data.get("points") is None:
            self.add_error("points", _("Give the unit's points."))
        return data

    def unit(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"name": data["name"], "slot": data["slot"] or None, "points": data["points"],
                "models": data.get("models") or 1}


class GrowableFormSet(forms.BaseFormSet):
    """A formset whose "add rows" button (no JavaScript) shows the typed rows plus blank ones.

    ``row_keys``: the fields a row keeps; ``typed_keys``: those that make a row count as typed
    (fields with a default value, such as a select, do not)."""

    row_keys: tuple[str, ...] = ()
    typed_keys: tuple[str, ...] = ()

    def kept(self) -> list[forms.Form]:
        """The rows not ticked for removal."""
        if not self.can_delete:
            return list(self.forms)
        return [form for form in self.forms if not form["DELETE"].value()]

    def rows(self) -> list[dict[str, Any]]:
        """The rows as typed (even invalid), to show again with more blank rows."""
        rows = []
        for form in self.kept():
            row = {key: form[key].value() for key in self.row_keys}
            if any(row[key] not in (None, "") for key in self.typed_keys):
                rows.append(row)
        return rows

    def grown(self, **kwargs: Any) -> GrowableFormSet:
        """The same formset unbound: the typed rows, then the usual blank ones and one for
        each row left blank or removed."""
        rows = self.rows()
        grown = type(self)(prefix=self.prefix, initial=rows, **kwargs)
        grown.extra = type(self).extra + max(0, len(self.forms) - len(rows))
        return grown


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
