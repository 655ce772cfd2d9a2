"""Growable lists of rows (units, detachments, models) typed without JavaScript, and the
choices a row keeps when they no longer offer what it holds."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

EXTRA_ROWS = 3

BLANK = (None, "", [])


class RowForm(forms.Form):
    """One row of a growable list (units, detachments): a row left entirely blank is ignored
    (so spare rows cost nothing); a typed row needs its name and points."""

    typed_keys: tuple[str, ...] = ()
    name_missing = points_missing = ""

    @property
    def is_blank(self) -> bool:
        return not any(self.cleaned_data.get(key) not in BLANK for key in self.typed_keys)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.is_blank:
            return data
        if not data.get("name"):
            self.add_error("name", self.name_missing)
        if data.get("points") is None:
            self.add_error("points", self.points_missing)
        return data


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
            row = {key: form[key].value() for key in self.row_keys if key in form.fields}
            if any(row.get(key) not in BLANK for key in self.typed_keys):
                rows.append({**row, **self.row_extra(form)})
        return rows

    def row_extra(self, form: forms.Form) -> dict[str, Any]:
        """What a row keeps beyond its own fields (a choice made across the rows)."""
        return {}

    def grown(self, **kwargs: Any) -> GrowableFormSet:
        """The same formset unbound: the typed rows, then the usual blank ones and one for
        each row left blank or removed."""
        rows = self.rows()
        grown = type(self)(prefix=self.prefix, initial=rows, **kwargs)
        grown.extra = type(self).extra + max(0, len(self.forms) - len(rows))
        return grown


def kept_choices(choices: list[tuple[Any, Any]], current: Any,
                 label: Any) -> list[tuple[Any, Any]]:
    """``choices`` plus the values already chosen that they lack, labelled with ``label``: a
    saved list shows what it holds (the check then says why it no longer fits) instead of
    dropping it silently."""
    values = current if isinstance(current, list | tuple) else [current]
    known = {str(value) for value, _label in flat_choices(choices)}
    missing = [str(v) for v in values if v not in BLANK and str(v) not in known]
    return [*choices, *((value, label % {"value": value}) for value in dict.fromkeys(missing))]


def flat_choices(choices: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    flat: list[tuple[Any, Any]] = []
    for value, label in choices:
        flat += flat_choices(label) if isinstance(label, list | tuple) else [(value, label)]
    return flat
