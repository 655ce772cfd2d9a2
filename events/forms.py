"""Forms of the player site; they only shape input, the league services decide."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from armylists.roster import FORMATS
from armylists.serializers import MAX_ROSTER_CHARS, MAX_UNITS
from armylists.systems_serializers import MAX_OPTIONS, MAX_TAGS
from config.i18n import current_language
from systems.urban_war import commando as urban_war
from systems.whfb import army as whfb

MAX_ROSTER_FILE = 2 * 1024 * 1024  # as the API: a 2 MiB file (3 MiB once base64-encoded)
ROSTER_EXTENSIONS = (".ros", ".rosz", ".json", ".txt")
EXTRA_ROWS = 3


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


# Warhammer Battle units (systems/whfb/army.py) ----------------------------------------------------

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


# Urban War commandos (systems/urban_war/commando.py) -------------------------------------------------

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
