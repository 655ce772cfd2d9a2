"""Urban War commandos (systems/urban_war/commando.py): one model a row, its card, calibre and
options, the commander chosen across the rows."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armylists.serializers import MAX_UNITS
from armylists.systems_serializers import MAX_OPTIONS
from config.i18n import current_language
from events.forms.rows import BLANK, EXTRA_ROWS, GrowableFormSet, kept_choices
from systems.urban_war import commando as urban_war

COMMANDER = "commander"  # one radio across the rows: its value is the chosen row's prefix
Cards = Mapping[str, urban_war.ProfileCard]


def card_label(card: urban_war.ProfileCard) -> str:
    return f"{card.card} · {card.name(current_language())}"


def cal_label(option: urban_war.CalOption) -> str:
    return _("CAL %(cal)s · FS %(fs)s · %(cost)s points") % {
        "cal": option.cal, "fs": option.fs, "cost": option.cost}


def cal_choices(card: urban_war.ProfileCard | None, cards: Cards) -> list[tuple[Any, Any]]:
    """The card's calibres with their costs (« N/A » left out); before a card is chosen, every
    card's calibres, grouped by card."""
    def available(one: urban_war.ProfileCard) -> list[tuple[Any, Any]]:
        return [(o.cal, cal_label(o)) for o in one.cal_options if o.available]

    if card is not None:
        return [("", "—"), *available(card)]
    return [("", "—"), *((card_label(one), available(one)) for one in cards.values())]


def option_choices(card: urban_war.ProfileCard | None, cards: Cards) -> list[tuple[Any, Any]]:
    """The card's options with their costs; before a card is chosen, every card's (naming the
    card it is printed on)."""
    found: dict[str, Any] = {}
    for one in [card] if card is not None else cards.values():
        for option in one.options:
            if option.cost is None or option.code in found:
                continue
            values = {"name": option.name_fr if current_language() == "fr" else option.name_en,
                      "cost": option.cost, "card": one.card}
            found[option.code] = (_("%(name)s (+%(cost)s points)") if card is not None else
                                  _("%(name)s (+%(cost)s points, card %(card)s)")) % values
    return list(found.items())


class CommandoModelForm(forms.Form):
    """One model: a card, a calibre among the card's, its options, a label. The commander is
    chosen across the rows (``COMMANDER``)."""

    profile = forms.ChoiceField(label=_("Card"), required=False)
    cal = forms.TypedChoiceField(label=_("Calibre"), required=False, coerce=int, empty_value=None)
    options = forms.MultipleChoiceField(label=_("Options"), required=False,
                                        widget=forms.CheckboxSelectMultiple)
    label = forms.CharField(label=_("Label"), max_length=100, required=False,
                            help_text=_("How this model is called at the table; blank: the card "
                                        "number and a count."))

    def __init__(self, *args: Any, cards: Cards | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        cards = cards or {}
        chosen = str(self["profile"].value() or "")
        card = cards.get(chosen)
        self.fields["profile"].choices = kept_choices(
            [("", _("— choose a card —")),
             *((one.card, card_label(one)) for one in cards.values())],
            chosen, _("%(value)s (no such card)"))
        self.fields["cal"].choices = kept_choices(
            cal_choices(card, cards), self._typed_cal(), _("CAL %(value)s (not on this card)"))
        options = kept_choices(option_choices(card, cards), self["options"].value(),
                               _("%(value)s (not on this card)"))
        if options:
            self.fields["options"].choices = options
        else:
            del self.fields["options"]

    def _typed_cal(self) -> str | None:
        """The calibre typed, when it is one the rules could read (0 to 20)."""
        value = str(self["cal"].value() if self["cal"].value() is not None else "")
        return value if value.isdigit() and int(value) <= 20 else None

    @property
    def is_blank(self) -> bool:
        return not any(self.cleaned_data.get(key) not in BLANK
                       for key in ("profile", "cal", "label"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.is_blank:
            return data
        if not data.get("profile"):
            self.add_error("profile", _("Choose the model's card."))
        if data.get("cal") is None:
            self.add_error("cal", _("Choose the model's calibre."))
        if len(data.get("options") or ()) > MAX_OPTIONS:
            self.add_error("options", _("At most %(count)s options.") % {"count": MAX_OPTIONS})
        return data

    def model(self, commander: bool) -> dict[str, Any]:
        data = self.cleaned_data
        return {"profile": data["profile"], "cal": data["cal"],
                "options": list(data.get("options") or []), "commander": commander,
                "label": data.get("label") or None}


class BaseCommandoFormSet(GrowableFormSet):
    row_keys = ("profile", "cal", "options", "label")
    typed_keys = ("profile", "cal", "label")

    def __init__(self, *args: Any, cards: Cards | None = None, **kwargs: Any):
        self.cards = cards or {}
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "cards": self.cards}

    def _construct_form(self, i: int, **kwargs: Any) -> forms.Form:
        form = super()._construct_form(i, **kwargs)
        form.is_commander = self.is_commander(form)
        return form

    @property
    def empty_form(self):  # the template never uses it; it would need the cards too
        return self.form(auto_id=self.auto_id, prefix=self.add_prefix("__prefix__"),
                         empty_permitted=True, use_required_attribute=False, cards=self.cards)

    def is_commander(self, form: forms.Form) -> bool:
        if self.is_bound:
            return self.data.get(COMMANDER) == form.prefix
        return bool(form.initial.get("commander"))

    def row_extra(self, form: forms.Form) -> dict[str, Any]:
        return {"commander": self.is_commander(form)}

    def add_fields(self, form, index) -> None:
        super().add_fields(form, index)
        form.fields["DELETE"].label = _("Remove this model")

    def models(self) -> list[dict[str, Any]]:
        return [form.model(self.is_commander(form)) for form in self.kept()
                if form.cleaned_data and not form.is_blank]

    def clean(self) -> None:
        if any(self.errors):
            return
        if not self.models():
            raise ValidationError(_("Enter at least one model."))


CommandoFormSet = forms.formset_factory(
    CommandoModelForm, formset=BaseCommandoFormSet, extra=EXTRA_ROWS, max_num=MAX_UNITS,
    validate_max=True, absolute_max=MAX_UNITS, can_delete=True)
