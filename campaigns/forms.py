"""The set-up forms of an Epic 40,000 campaign's player page (campaigns/views.py): the
army's detachment rows, the two majors, one placement. They only shape input; the campaign
services decide (campaigns/services/setup.py ``set_army``, ``set_majors``; services/placement.py
``place``)."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from campaigns.engine.army import GROUND, KINDS, UNIT_TAGS, WAR_ENGINE, DetachmentSpec, Unit
from campaigns.serializers import MAX_UNITS, POINTS
from campaigns.words import KINDS as KIND_WORDS
from events.forms.rows import GrowableFormSet, RowForm

ARMY_PREFIX = "army"
MAX_DETACHMENTS = 500  # as the API's army body (campaigns/state_serializers.py)
EXTRA_ROWS = 3
UNIT_NAME_MAX = 200  # as the API's unit name
UNIT = re.compile(r"(?P<name>[^()\[\]]+?)\s*(?:[(\[](?P<tags>[^()\[\]]*)[)\]])?")
# R14: a unit's interception value among its tags, e.g. ``Fighta (interception 4)``.
INTERCEPTION = re.compile(r"\binterception\s*[=:]?\s*(?P<value>\d+)", re.IGNORECASE)


# Units as typed: ``Scouts (infiltrator), Hydra (flak)`` or one a line ---------------------------

def unit_parts(text: str) -> list[str]:
    """The typed units, split on new lines and on the commas outside brackets (a unit's tags
    may be separated by commas too)."""
    parts, depth, current = [], 0, []
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "\n" or (char == "," and depth <= 0):
            parts.append("".join(current))
            current, depth = [], 0
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def unit_tags(typed: str) -> frozenset[str]:
    tags = []
    for chunk in re.split(r"[,;/]", typed.lower()):
        tags += re.sub(r"war[\s_-]*engine", WAR_ENGINE, chunk).replace("-", "_").split()
    unknown = [tag for tag in tags if tag not in UNIT_TAGS]
    if unknown:
        raise ValidationError(_("“%(tag)s” is not a unit tag: use infiltrator, flak, war_engine "
                                "or vehicle.") % {"tag": unknown[0]})
    return frozenset(tags)


def parse_units(text: str) -> tuple[Unit, ...]:
    """``name (tags)`` per unit, e.g. ``Titan (war_engine)``; a unit without tags is allowed."""
    units = []
    for part in unit_parts(text or ""):
        found = UNIT.fullmatch(part)
        if found is None:
            raise ValidationError(_("“%(unit)s”: write each unit as its name, then its tags in "
                                    "brackets, e.g. “Scouts (infiltrator)”.") % {"unit": part})
        name = found["name"].strip()
        if len(name) > UNIT_NAME_MAX:
            raise ValidationError(_("A unit's name has at most %(n)s characters.")
                                  % {"n": UNIT_NAME_MAX})
        typed = found["tags"] or ""
        value = INTERCEPTION.search(typed)
        units.append(Unit(name, tags=unit_tags(INTERCEPTION.sub("", typed)),
                          interception_value=int(value["value"]) if value else None))
    if len(units) > MAX_UNITS:
        raise ValidationError(_("At most %(n)s units a detachment.") % {"n": MAX_UNITS})
    return tuple(units)


def units_text(units: Sequence[Mapping[str, Any]]) -> str:
    """Stored units as the field shows them again, one a line."""
    lines = []
    for unit in units:
        tags = ", ".join([*(unit.get("tags") or ()), *(
            [f"interception {unit['interception_value']}"]
            if unit.get("interception_value") is not None else [])])
        lines.append(f"{unit['name']} ({tags})" if tags else str(unit["name"]))
    return "\n".join(lines)


def with_stored_details(spec: DetachmentSpec, stored: Sequence[Mapping[str, Any]]) -> DetachmentSpec:
    """The form gives names and tags only: a unit kept under the same name keeps the type and
    points the API gave it (a war engine's type is what a 5 shows, R25)."""
    known = {str(u["name"]): u for u in stored}
    units = []
    for unit in spec.units:
        before = known.get(unit.name)
        if before is not None and unit.type == "" and unit.points is None:
            unit = Unit(unit.name, str(before.get("type") or ""), before.get("points"), unit.tags,
                        unit.interception_value)  # R14: as typed (the text shows it)
        units.append(unit)
    return DetachmentSpec(spec.name, spec.points, spec.kind, spec.supreme_commander, tuple(units))


class DetachmentForm(RowForm):
    """One detachment row; a row with neither name nor points is ignored (spare rows)."""

    typed_keys: tuple[str, ...] = ("name", "points", "units")
    name_missing = _("Give the detachment a name.")
    points_missing = _("Give the detachment's points.")

    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    points = forms.IntegerField(label=_("Points"), required=False, **POINTS)
    kind = forms.ChoiceField(label=_("Kind"), required=False,
                             choices=[(k, KIND_WORDS[k]) for k in KINDS])
    supreme_commander = forms.BooleanField(label=_("Supreme Commander"), required=False)
    units = forms.CharField(
        label=_("Units"), required=False, max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 40}),
        help_text=_("Optional: one unit a line or separated by commas, each with its tags in "
                    "brackets (infiltrator, flak, war_engine, vehicle), e.g. “Scouts "
                    "(infiltrator), Hydra (flak), Titan (war_engine)”."))

    def clean_units(self) -> str:
        """Checked here, kept as typed: the page shows the text again when a row is refused."""
        typed = self.cleaned_data.get("units") or ""
        parse_units(typed)
        return typed

    def spec(self) -> DetachmentSpec:
        data = self.cleaned_data
        return DetachmentSpec(data["name"], data["points"], data.get("kind") or GROUND,
                              bool(data.get("supreme_commander")),
                              parse_units(data.get("units") or ""))


class BaseDetachmentFormSet(GrowableFormSet):
    row_keys = ("name", "points", "kind", "supreme_commander", "units")
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
