"""Forms of the campaign cockpit (campaigns/admin/cockpit.py). They only shape input: every rule
is the services' (campaigns/services/setup.py, services/placement.py, services/turns.py,
services/overrides.py)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armylists.models import Faction
from campaigns.engine import map as grid
from campaigns.engine.army import KINDS, DetachmentSpec
from campaigns.engine.declaration import ALTERNATING, SEALED
from campaigns.engine.scoring import VICTORY_SCORE
from campaigns.engine.state import MISSIONS, ORDER_KINDS
from campaigns.engine.tools import PHASES, PLANETS, STRATEGIC_VALUE_MAX, STRATEGIC_VALUE_MIN
from campaigns.forms import parse_units, units_text
from campaigns.messages import PHASE_NAMES
from campaigns.services.overrides import MANUAL_POINTS_MAX
from campaigns.words import MISSIONS as MISSION_WORDS
from campaigns.words import ORDER_KINDS as ORDER_WORDS
from campaigns.words import PLANETS as PLANET_WORDS
from campaigns.words import SIDES
from missions.services import new_seed
from systems.registry import campaign_system

SIDE_CHOICES = [(side, SIDES[side]) for side in grid.SIDES]
MAX_DICE = 20


def dice_list(text: str, *, low: int = 1, high: int = 6) -> list[int] | None:
    """Faces typed at the table ("3 5", "3,5"), or None for the server's dice. A face outside
    the die is left to the services (``dice_invalid``), which name its position."""
    text = (text or "").replace(",", " ").strip()
    if not text:
        return None
    try:
        faces = [int(part) for part in text.split()]
    except ValueError:
        raise forms.ValidationError(_("Type the dice as whole numbers, e.g. “3 5”.")) from None
    if len(faces) > MAX_DICE:
        raise forms.ValidationError(_("At most %(n)s dice.") % {"n": MAX_DICE})
    return faces


class DiceField(forms.CharField):
    def __init__(self, **kwargs: Any):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", _("Leave empty to let Muster roll; or type the dice thrown at the table."))
        super().__init__(max_length=100, **kwargs)

    def clean(self, value: Any) -> list[int] | None:
        return dice_list(super().clean(value))


class CampaignCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    army_points = forms.IntegerField(label=_("Army points"), min_value=1, max_value=1_000_000,
                                     initial=5000, help_text=_("R1: 5000 points is the seed's default."))
    victory_score = forms.IntegerField(label=_("Victory score"), min_value=1, max_value=1000,
                                       initial=VICTORY_SCORE)
    seed = forms.IntegerField(label=_("Dice seed"), min_value=0, max_value=2**31 - 1, required=False,
                              help_text=_("Leave empty for a new random seed."))
    declaration_mode = forms.ChoiceField(
        label=_("Orders"), initial=SEALED, required=False,
        choices=[(SEALED, _("sealed: each side sends a phase's orders unseen (play over weeks)")),
                 (ALTERNATING, _("alternating: one order each in turn (club night)"))])

    def clean_seed(self) -> int:
        seed = self.cleaned_data.get("seed")
        return new_seed() if seed is None else seed

    def clean_declaration_mode(self) -> str:
        return self.cleaned_data.get("declaration_mode") or SEALED  # G11's default


def faction_choices() -> list[tuple[str, str]]:
    rows = Faction.objects.filter(game_system__slug=campaign_system().slug).order_by("slug")
    return [(f.slug, str(f)) for f in rows]


class SideForm(forms.Form):
    side = forms.ChoiceField(label=_("Side"), choices=SIDE_CHOICES)
    username = forms.CharField(label=_("Player's account"), max_length=150, required=False,
                               help_text=_("The username of the player's account (they act on the site)."))
    name = forms.CharField(label=_("Player's name"), max_length=120)
    army_name = forms.CharField(label=_("Army name"), max_length=120,
                                help_text=_("Public: the only word on this side's counters (R12)."))
    faction = forms.ChoiceField(label=_("Faction"))
    strategic_value = forms.IntegerField(label=_("Strategic value"), min_value=STRATEGIC_VALUE_MIN,
                                         max_value=STRATEGIC_VALUE_MAX)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = faction_choices()


class ArmyForm(forms.Form):
    """One detachment per line: ``name; points; kind; SC; units`` (kind ground by default)."""

    side = forms.ChoiceField(choices=SIDE_CHOICES, widget=forms.HiddenInput)
    detachments = forms.CharField(
        label=_("Detachments"), widget=forms.Textarea(attrs={"rows": 8, "cols": 80}),
        help_text=_("One per line: name; points; kind (ground, air or airborne); “SC” for the "
                    "Supreme Commander; then its units with their tags in brackets. Example: "
                    "Captain Varro; 800; ground; SC; Command (infiltrator), Hydra (flak)"))

    def clean_detachments(self) -> list[DetachmentSpec]:
        return parse_army(self.cleaned_data["detachments"].splitlines())


def army_text(detachments: Sequence[Any]) -> str:
    """A stored army as the textarea shows it, so that saving it again keeps every unit."""
    lines = []
    for d in detachments:
        parts = [d.name, str(d.points), d.kind, "SC" if d.supreme_commander else ""]
        units = ", ".join(units_text(d.units or ()).splitlines())
        if units:
            parts.append(units)
        lines.append("; ".join(parts).rstrip("; "))
    return "\n".join(lines)


def parse_army(lines: Sequence[str]) -> list[DetachmentSpec]:
    specs = []
    for number, line in enumerate(lines, start=1):
        parts = [p.strip() for p in line.split(";", 4)]  # the units may hold a ";" of their own
        if not parts[0]:
            continue
        try:
            points = int(parts[1])
        except (IndexError, ValueError):
            raise forms.ValidationError(_("Line %(n)s: give the points after the name and a “;”.")
                                        % {"n": number}) from None
        kind = (parts[2] if len(parts) > 2 and parts[2] else "ground").lower()
        if kind not in KINDS or points < 1:
            raise forms.ValidationError(_("Line %(n)s: the kind is ground, air or airborne and "
                                          "the points a positive number.") % {"n": number})
        commander = len(parts) > 3 and parts[3].upper() == "SC"
        try:
            units = parse_units(parts[4]) if len(parts) > 4 else ()
        except forms.ValidationError as problem:
            raise forms.ValidationError(_("Line %(n)s: %(problem)s") % {
                "n": number, "problem": " ".join(problem.messages)}) from None
        specs.append(DetachmentSpec(parts[0][:200], points, kind, commander, units))
    if not specs:
        raise forms.ValidationError(_("Give at least one detachment."))
    return specs


class MajorsForm(forms.Form):
    side = forms.ChoiceField(choices=SIDE_CHOICES, widget=forms.HiddenInput)
    first = forms.ChoiceField(label=_("First major"), choices=[(c, c) for c in grid.CODES])
    second = forms.ChoiceField(label=_("Second major"), choices=[(c, c) for c in grid.CODES])


class PlanetForm(forms.Form):
    planet = forms.ChoiceField(label=_("Choose"), required=False,
                               choices=[("", _("— roll 2D6 instead —"))]
                               + [(p, PLANET_WORDS[p]) for p in PLANETS])
    dice = DiceField(label=_("2D6 thrown at the table"))


class PlacementForm(forms.Form):
    detachment = forms.ChoiceField(label=_("Detachment"))
    territory = forms.ChoiceField(label=_("Territory"), choices=[(c, c) for c in grid.CODES])
    dice = DiceField(label=_("Roll-off dice (equal strategic values only)"))

    def __init__(self, *args: Any, detachments: Sequence[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["detachment"].choices = list(detachments)


class InitiativeForm(forms.Form):
    phase = forms.ChoiceField(label=_("Phase"), choices=[(p, PHASE_NAMES[p]) for p in PHASES])
    dice = DiceField(label=_("Dice (west, east, again on a tie)"))
    deadline = forms.DateTimeField(
        label=_("Orders due by"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Optional: told to the players on their page and in the e-mail."))


class InfiltrationsForm(forms.Form):
    dice = DiceField(label=_("Infiltration dice"),
                     help_text=_("Leave empty to let Muster roll; or type the dice thrown at the "
                                 "table: one per enemy detachment in each target, the orders in "
                                 "the order listed."))


class CloseForm(forms.Form):
    west = forms.IntegerField(label=_("West's other-sectors die"), required=False, min_value=1,
                              max_value=6)
    east = forms.IntegerField(label=_("East's other-sectors die"), required=False, min_value=1,
                              max_value=6)

    def faces(self) -> dict[str, int] | None:
        faces = {side: self.cleaned_data[side] for side in grid.SIDES
                 if self.cleaned_data.get(side) is not None}
        return faces or None


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500,
                             help_text=_("Kept in the audit log."))


class RefuseOrderForm(ReasonForm):
    order = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class ForceOrderForm(ReasonForm):
    field_order = ["side", "kind", "detachments", "from_code", "to_code", "for_attack", "mission",
                   "route", "return_route", "escort_of", "reason"]
    side = forms.ChoiceField(label=_("Side"), choices=SIDE_CHOICES)
    kind = forms.ChoiceField(label=_("Order"), choices=[(k, ORDER_WORDS[k]) for k in ORDER_KINDS])
    detachments = forms.CharField(label=_("Detachments"), max_length=2000, required=False,
                                  help_text=_("Names, separated by commas."))
    from_code = forms.ChoiceField(label=_("From"), required=False,
                                  choices=[("", "—"), *((c, c) for c in grid.CODES)])
    to_code = forms.ChoiceField(label=_("To"), required=False,
                                choices=[("", "—"), *((c, c) for c in grid.CODES)])
    for_attack = forms.IntegerField(label=_("Reaction to order number"), required=False, min_value=1)
    # An air mission (R19–R24): its kind, the territories flown over (target last) and back,
    # the own mission an escort goes with.
    mission = forms.ChoiceField(label=_("Air mission"), required=False,
                                choices=[("", "—"), *((m, MISSION_WORDS[m]) for m in MISSIONS)])
    route = forms.CharField(label=_("Route"), max_length=200, required=False,
                            help_text=_("Territory codes flown over from the base, target last, "
                                        "separated by commas."))
    return_route = forms.CharField(label=_("Return route"), max_length=200, required=False,
                                   help_text=_("Territory codes from the target back to the base, "
                                               "separated by commas."))
    escort_of = forms.IntegerField(label=_("Escort of order number"), required=False, min_value=1)

    def names(self) -> tuple[str, ...]:
        return tuple(n.strip() for n in self.cleaned_data["detachments"].split(",") if n.strip())

    def _codes(self, field: str) -> tuple[str, ...]:
        codes = tuple(c.strip().upper() for c in self.cleaned_data.get(field, "").split(",")
                      if c.strip())
        unknown = [c for c in codes if c not in grid.TERRITORIES]
        if unknown:
            raise forms.ValidationError(_("Unknown territory code(s): %(codes)s.")
                                        % {"codes": ", ".join(unknown)})
        return codes

    def clean_route(self) -> tuple[str, ...]:
        return self._codes("route")

    def clean_return_route(self) -> tuple[str, ...]:
        return self._codes("return_route")


class ScoreEntryForm(ReasonForm):
    field_order = ["side", "points", "reason"]
    side = forms.ChoiceField(label=_("Side"), choices=SIDE_CHOICES)
    points = forms.IntegerField(label=_("Points"), min_value=-MANUAL_POINTS_MAX,
                                max_value=MANUAL_POINTS_MAX,
                                help_text=_("Negative to take points away."))
