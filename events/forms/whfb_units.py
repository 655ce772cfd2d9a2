"""Warhammer Battle units (systems/whfb/army.py): the chart row's fields plus what the
advanced rules read, and the army's faction."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armylists.serializers import MAX_UNITS
from armylists.systems_serializers import MAX_TAGS
from events.forms.lists import BaseUnitFormSet, UnitForm
from events.forms.rows import EXTRA_ROWS, kept_choices
from systems.whfb import army as whfb

UNIT_TYPE_LABELS = {
    "infantry": _("infantry"), "cavalry": _("cavalry"), "monster": _("monster"),
    "war_machine": _("war machine"), "chariot": _("chariot"), "swarm": _("swarm"),
    "character": _("character"), "flyer": _("flyer"),
}
WHFB_OPTION_LABELS = {"mantlets": _("mantlets (+2 points per model)"),
                      "stakes": _("wooden stakes (+2 points per model)")}


def unit_type_choices() -> list[tuple[str, Any]]:
    return [(code, UNIT_TYPE_LABELS.get(code, code)) for code in whfb.UNIT_TYPES]


# The tags the rules read, typed and shown in the reader's language ("tir" is "shooting"): a
# French player is not asked to type English words.
KNOWN_TAGS = {whfb.SHOOTING: _("shooting")}


class TagsField(forms.CharField):
    """A unit's tags typed as words separated by commas; lower case, as the rules look for them."""

    def prepare_value(self, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return value
        return ", ".join(str(KNOWN_TAGS.get(tag, tag)) for tag in value)

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value)
        codes = {str(word).lower(): code for code, word in KNOWN_TAGS.items()}
        tags = list(dict.fromkeys(codes.get(t.strip().lower(), t.strip().lower())
                                  for t in text.replace(";", ",").split(",") if t.strip()))
        if len(tags) > MAX_TAGS:
            raise ValidationError(_("At most %(count)s tags.") % {"count": MAX_TAGS})
        if any(len(tag) > 40 for tag in tags):
            raise ValidationError(_("A tag is at most 40 characters long."))
        return tags


class WhfbUnitForm(UnitForm):
    """A Warhammer Battle unit: the chart row's fields plus what the advanced rules read. Only
    the options the event enables are offered, and the baggage flag only when it uses baggage."""

    typed_keys = ("name", "slot", "points", "models", "tags")

    # Not required: a spare row is blank whatever its select shows (a browser always sends one).
    unit_type = forms.ChoiceField(label=_("Unit type"), initial="infantry", required=False)
    tags = TagsField(label=_("Tags"), required=False, max_length=MAX_TAGS * 41,
                     help_text=_("Separated by commas, e.g. shooting, shields."))
    options = forms.MultipleChoiceField(label=_("Options"), required=False,
                                        widget=forms.CheckboxSelectMultiple)
    baggage = forms.BooleanField(label=_("Part of the army baggage (Core units)"), required=False)

    def __init__(self, *args: Any, slots: list[tuple[str, str]] = (), options: Sequence[str] = (),
                 baggage: bool = False, **kwargs: Any):
        super().__init__(*args, slots=slots, **kwargs)
        self.fields["unit_type"].choices = unit_type_choices()
        offered = [(code, WHFB_OPTION_LABELS.get(code, code)) for code in options]
        choices = kept_choices(offered, self["options"].value(),
                               _("%(value)s (not used in this event)"))
        if choices:
            self.fields["options"].choices = choices
        else:
            del self.fields["options"]
        if not baggage and not self["baggage"].value():
            del self.fields["baggage"]

    def unit(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {**super().unit(), "unit_type": data.get("unit_type") or "infantry",
                "tags": data.get("tags") or [],
                "options": list(data.get("options") or []), "baggage": bool(data.get("baggage"))}


class BaseWhfbUnitFormSet(BaseUnitFormSet):
    row_keys = ("name", "slot", "points", "models", "unit_type", "tags", "options", "baggage")
    typed_keys = ("name", "slot", "points", "models", "tags")

    def __init__(self, *args: Any, options: Sequence[str] = (), baggage: bool = False,
                 **kwargs: Any):
        self.options, self.baggage = tuple(options), baggage
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "options": self.options, "baggage": self.baggage}


WhfbUnitFormSet = forms.formset_factory(
    WhfbUnitForm, formset=BaseWhfbUnitFormSet, extra=EXTRA_ROWS, max_num=MAX_UNITS,
    validate_max=True, absolute_max=MAX_UNITS, can_delete=True)


class FactionForm(forms.Form):
    """The army's faction: its tags decide the baggage (no baggage for Undead or Daemons)."""

    faction = forms.ChoiceField(label=_("Army"), required=False)

    def __init__(self, *args: Any, factions: Sequence[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = [("", _("— not given —")), *factions]
