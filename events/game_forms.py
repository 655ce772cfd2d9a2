"""Forms of the game page: result report (with the objective outcome), dispute, the
victory-points helper and the stratagem declaration. They only shape input. The table-roll
forms are in events/roll_forms.py and with each system's roll kinds (systems/<pkg>/rolls.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armylists.serializers import MAX_UNITS
from config.i18n import current_language
from config.typography import elide
from events.errors import Invalid
from events.forms.rows import GrowableFormSet
from events.models import Game, Player
from events.services import results
from missions import objectives, victory
from missions import services as missions
from missions.messages import vp_message

DRAW = "draw"
OBJECTIVE = "objective"
NOBODY = "none"
EXTRA_VP_ROWS = 3
MAX_COUNT = 1000
# Labels for outcome keys the catalogue's outcome fields do not name (the catalogue's own
# labels, in both languages, come first).
OUTCOME_LABELS = {
    "flags": _("Flags planted at the end of the game"),
    "ruins": _("Ruins occupied at the end of the game"),
    "holder": _("Player occupying the building at the end"),
    "occupies_enemy_ruin": _("Occupies the ruin the opponent defends"),
    "units_exited": _("Attacker units that left through the exit"),
    "units_starting": _("Attacker units at the start of the game"),
    "units_destroyed": _("Attacker units destroyed (optional)"),
    "hq_ruin_destroyed": _("HQ ruin destroyed"),
    "building_captured": _("Objective building captured by the attacker"),
    "all_flags_planted": _("Attacker's flag on every target building"),
    "target_hq_destroyed": _("Target HQ destroyed (or fled off the table)"),
}


def outcome_shapes(game: Game) -> dict[str, str]:
    """The objective outcome this game's mission expects (empty: decided by VP or by hand)."""
    return dict(objectives.OUTCOME_FIELDS.get(game.mission.objective_kind, {})) if game.mission else {}


def outcome_label(game: Game, key: str) -> str:
    lang = current_language()
    for spec in game.mission.outcome_fields if game.mission else ():
        if spec.get("name") == key and spec.get(f"label_{lang}"):
            return spec[f"label_{lang}"]
    return str(OUTCOME_LABELS.get(key, key))


@dataclass(frozen=True)
class ReportPreview:
    """What sending the report form records, said before it is sent.

    ``known`` is False while the form lacks what the result needs; ``problem`` is why it cannot
    be recorded; ``conflict`` says how the victory points disagree with the result, which the
    player must confirm (``refused``: on a mission the VP decide, they cannot)."""

    known: bool = False
    winner: Player | None = None
    by_objective: bool = False
    problem: str = ""
    conflict: str = ""
    refused: bool = False
    # Game systems with facts of their own (systems/reports.py): what the record adds to
    # the winner (victory points, bonus, tournament points), and the line shown until it is known.
    lines: tuple[str, ...] = ()
    hint: str = ""


class ReportForm(forms.Form):
    """A result: the winner, a draw or the objective's verdict; VP; the objective outcome;
    the stratagems used (pre-filled from the declarations). A result the victory points
    contradict needs ``confirm_vp`` ticked."""

    winner = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect)
    vp_a = forms.IntegerField(label=_("Victory points"), min_value=0, max_value=1_000_000,
                              required=False)
    vp_b = forms.IntegerField(label=_("Victory points"), min_value=0, max_value=1_000_000,
                              required=False)
    stratagems_a = forms.MultipleChoiceField(label=_("Stratagems"), required=False,
                                             widget=forms.CheckboxSelectMultiple)
    stratagems_b = forms.MultipleChoiceField(label=_("Stratagems"), required=False,
                                             widget=forms.CheckboxSelectMultiple)
    confirm_vp = forms.BooleanField(
        label=_("I confirm: the objective decided the game, not the victory points"),
        required=False)

    def __init__(self, *args: Any, game: Game, stratagems: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game
        self.stratagems = stratagems
        self.preview = ReportPreview()
        self.shapes = outcome_shapes(game)
        a, b = game.player_a, game.player_b
        choices = [(str(a.pk), _("%(player)s won") % {"player": a.name}),
                   (str(b.pk), _("%(player)s won") % {"player": b.name}), (DRAW, _("Draw"))]
        if self.shapes:
            choices.insert(0, (OBJECTIVE, _("Decided by the objective")))
            self.initial.setdefault("winner", OBJECTIVE)
        self.fields["winner"].choices = choices
        for side, player in (("a", a), ("b", b)):
            self.fields[f"vp_{side}"].label = elide(_("Victory points of %(player)s")
                                                    % {"player": player.name})
            field = self.fields[f"stratagems_{side}"]
            field.label = elide(_("Stratagems of %(player)s") % {"player": player.name})
            field.choices = stratagems
            self.initial.setdefault(f"stratagems_{side}", game.declarations.get(str(player.pk), []))
        for key, shape in self.shapes.items():
            self._add_outcome_fields(key, shape)

    def _add_outcome_fields(self, key: str, shape: str) -> None:
        label = outcome_label(self.game, key)
        players = (("a", self.game.player_a), ("b", self.game.player_b))
        if shape == "count_by_side":
            for side, player in players:
                self.fields[f"out_{key}_{side}"] = forms.IntegerField(
                    label=f"{label}: {player.name}", min_value=0, max_value=MAX_COUNT, required=False)
        elif shape == "bool_by_side":
            for side, player in players:
                self.fields[f"out_{key}_{side}"] = forms.BooleanField(
                    label=f"{label}: {player.name}", required=False)
        elif shape == "side_or_none":
            self.fields[f"out_{key}"] = forms.ChoiceField(
                label=label, required=False, widget=forms.RadioSelect,
                choices=[*((str(p.pk), p.name) for _s, p in players), (NOBODY, _("Nobody"))])
        elif shape == "bool":
            self.fields[f"out_{key}"] = forms.BooleanField(label=label, required=False)
        else:
            self.fields[f"out_{key}"] = forms.IntegerField(
                label=label, min_value=0, max_value=MAX_COUNT, required=False)

    @property
    def outcome_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("out_")]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.outcome: dict[str, Any] | None = None
        winner = data.get("winner")
        if winner is None:
            return data
        touched = any(data.get(name) not in (None, "", False) for name in self.fields
                      if name.startswith("out_"))
        if self.shapes and (winner == OBJECTIVE or touched):
            if winner == DRAW:
                self.add_error("winner", _("With an objective outcome, choose “Decided by the "
                                           "objective”: it gives a draw when the objective does."))
            self.outcome = self._outcome(data)
        if not self.errors:
            self._check_preview(data)
        return data

    def _check_preview(self, data: dict[str, Any]) -> None:
        """Work out what the report records; stop a result the VP contradict unless confirmed."""
        self.preview = preview = self._preview(data)
        if preview.problem:
            self.add_error(None, preview.problem)
        elif preview.refused:
            self.add_error("winner", preview.conflict)
        elif preview.conflict and not data.get("confirm_vp"):
            self.add_error("confirm_vp", preview.conflict)

    def _preview(self, data: dict[str, Any]) -> ReportPreview:
        game, content = self.game, self.content()
        try:
            winner_id = results.recorded_winner(game, results.ResultInput(
                winner=content["winner"], outcome=content["outcome"]))
        except Invalid as exc:
            return ReportPreview(problem=str(exc.message))
        players = {p.pk: p for p in (game.player_a, game.player_b)}
        winner = players.get(winner_id) if winner_id is not None else None
        conflict, refused = self._vp_conflict(data, winner)
        return ReportPreview(known=True, winner=winner, by_objective=self.outcome is not None,
                             conflict=conflict, refused=refused)

    def _vp_conflict(self, data: dict[str, Any], winner: Player | None) -> tuple[str, bool]:
        """How the typed VP disagree with the result; refused on a mission the VP decide."""
        game = self.game
        vp_a, vp_b = data.get("vp_a"), data.get("vp_b")
        if vp_a is None or vp_b is None:
            return "", False
        sides = (str(game.player_a_id), str(game.player_b_id))
        by_vp = missions.vp_result(sides, dict(zip(sides, (vp_a, vp_b), strict=True))).winner
        recorded = None if winner is None else str(winner.pk)
        vp_decide = game.mission is not None and not self.shapes
        if recorded == by_vp or (by_vp is None and not vp_decide):
            return "", False
        names = {str(p.pk): p.name for p in (game.player_a, game.player_b)}
        score = {"score": f"{vp_a}–{vp_b}"}
        says = (_("the victory points (%(score)s) give a draw") % score if by_vp is None else
                _("the victory points (%(score)s) say %(player)s won")
                % {**score, "player": names[by_vp]})
        if vp_decide:
            return _("On this mission the victory points decide, and %(says)s: change the "
                     "result or the victory points.") % {"says": says}, True
        records = (_("a draw") if winner is None
                   else elide(_("a win for %(player)s") % {"player": winner.name}))
        return _("This report records %(records)s, but %(says)s. Tick the box below if the "
                 "objective decided the game.") % {"records": records, "says": says}, False

    def current_preview(self) -> ReportPreview:
        """The preview of the posted data, or of the form as first shown (a twin bound to it)."""
        if self.is_bound:
            return self.preview
        data = {name: value for name, value in self.initial.items() if value is not None}
        twin = ReportForm(data, game=self.game, stratagems=self.stratagems)
        return twin.preview if twin.is_valid() else ReportPreview()

    def _outcome(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """The outcome keyed by player id strings, as the API takes it; None with errors."""
        ids = {"a": str(self.game.player_a_id), "b": str(self.game.player_b_id)}
        outcome: dict[str, Any] = {}
        for key, shape in self.shapes.items():
            if shape.endswith("_by_side"):
                values = {ids[s]: data.get(f"out_{key}_{s}") for s in ids}
                if shape == "count_by_side":
                    for side in ids:
                        self._require(f"out_{key}_{side}", data)
                outcome[key] = values
            elif shape == "side_or_none":
                self._require(f"out_{key}", data)
                value = data.get(f"out_{key}")
                outcome[key] = None if value in (NOBODY, "", None) else value
            elif shape == "count":
                if data.get(f"out_{key}") is None and key in objectives.OPTIONAL_KEYS:
                    continue
                self._require(f"out_{key}", data)
                outcome[key] = data.get(f"out_{key}")
            else:
                outcome[key] = bool(data.get(f"out_{key}"))
        return None if self.errors else outcome

    def _require(self, name: str, data: dict[str, Any]) -> None:
        if data.get(name) in (None, "") and name not in self.errors:
            self.add_error(name, _("Fill this in to let the objective decide."))

    def content(self) -> dict[str, Any]:
        """The service's input: winner (None: a draw or the objective decides), outcome, VP and
        stratagems keyed by player id."""
        data, game = self.cleaned_data, self.game
        sides = (("a", game.player_a_id), ("b", game.player_b_id))
        return {
            "winner": None if data["winner"] in (DRAW, OBJECTIVE) else int(data["winner"]),
            "outcome": self.outcome,
            "victory_points": {pid: data[f"vp_{s}"] for s, pid in sides if data[f"vp_{s}"] is not None},
            "stratagems": {pid: list(data[f"stratagems_{s}"]) for s, pid in sides
                           if data[f"stratagems_{s}"]},
        }


class DisputeForm(forms.Form):
    reason = forms.CharField(label=_("Why do you dispute this result?"), max_length=500,
                             required=False, widget=forms.Textarea(attrs={"rows": 3}))


# --- victory-points helper -----------------------------------------------------------------

UNIT_TYPES = [("infantry", _("infantry")), ("vehicle", _("vehicle")), ("character", _("character"))]
DAMAGE = [("none", _("none")), ("damaged", _("damaged")), ("destroyed", _("destroyed"))]
VP_KEYS = ("name", "points", "type", "starting_models", "remaining_models", "starting_wounds",
           "remaining_wounds", "vehicle_damage", "falling_back", "exited")
# Where a VP input error belongs on the row.
ERROR_FIELDS = {
    "unit_type_unknown": "type", "unit_points_negative": "points",
    "unit_starting_models_invalid": "starting_models",
    "unit_remaining_models_invalid": "remaining_models",
    "unit_wounds_incomplete": "remaining_wounds", "unit_starting_wounds_invalid": "starting_wounds",
    "unit_remaining_wounds_invalid": "remaining_wounds",
    "vehicle_damage_unknown": "vehicle_damage", "vehicle_damage_not_vehicle": "vehicle_damage",
}


class VpUnitForm(forms.Form):
    """One VP element at the end of the game; a row without name and points is ignored."""

    name = forms.CharField(label=_("Unit"), max_length=200, required=False)
    points = forms.IntegerField(label=_("Points"), min_value=0, max_value=100_000, required=False)
    type = forms.ChoiceField(label=_("Type"), choices=UNIT_TYPES, initial="infantry")
    starting_models = forms.IntegerField(label=_("Models at the start"), min_value=0,
                                         max_value=10_000, required=False)
    remaining_models = forms.IntegerField(label=_("Models left"), min_value=0,
                                          max_value=10_000, required=False)
    starting_wounds = forms.IntegerField(label=_("Wounds at the start (characters)"),
                                         min_value=0, max_value=100, required=False)
    remaining_wounds = forms.IntegerField(label=_("Wounds left (characters)"), min_value=0,
                                          max_value=100, required=False)
    vehicle_damage = forms.ChoiceField(label=_("Vehicle damage"), choices=DAMAGE, initial="none")
    falling_back = forms.BooleanField(label=_("Falling back"), required=False)
    exited = forms.BooleanField(label=_("Left the table"), required=False)

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return data.get("name") in (None, "") and data.get("points") is None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.is_blank or self.errors:
            return data
        for key, message in (("name", _("Give the unit a name.")),
                             ("points", _("Give the unit's points.")),
                             ("starting_models", _("How many models did it start with?")),
                             ("remaining_models", _("How many models are left?"))):
            if data.get(key) in (None, ""):
                self.add_error(key, message)
        if not self.errors:
            try:
                victory.validate_unit(self.unit())
            except victory.VpInputError as exc:
                self.add_error(ERROR_FIELDS.get(exc.code), vp_message(exc.code, exc.params))
        return data

    def unit(self) -> victory.UnitState:
        data = self.cleaned_data
        return victory.UnitState(
            name=data["name"], points=data["points"], type=data["type"],
            starting_models=data["starting_models"], remaining_models=data["remaining_models"],
            starting_wounds=data.get("starting_wounds"), remaining_wounds=data.get("remaining_wounds"),
            vehicle_damage=data["vehicle_damage"], falling_back=bool(data.get("falling_back")),
            exited=bool(data.get("exited")))


class BaseVpFormSet(GrowableFormSet):
    row_keys = VP_KEYS
    typed_keys = ("name", "points")  # type and vehicle damage always hold a value

    def units(self) -> tuple[victory.UnitState, ...]:
        return tuple(form.unit() for form in self.forms if form.cleaned_data and not form.is_blank)


VpFormSet = forms.formset_factory(VpUnitForm, formset=BaseVpFormSet, extra=EXTRA_VP_ROWS,
                                  max_num=MAX_UNITS, validate_max=True, absolute_max=MAX_UNITS)


def vp_rows_from_list(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A list's units as VP rows, all models still standing (players fill in what was lost).

    The list does not say which units are vehicles: a single-model HQ is taken for a character,
    everything else for infantry; players change the type where needed."""
    rows = []
    for entry in entries:
        models = int(entry.get("models") or 1)
        single_hq = entry.get("slot") == "hq" and models == 1
        rows.append({"name": entry.get("name", ""), "points": entry.get("points"),
                     "type": "character" if single_hq else "infantry",
                     "starting_models": models, "remaining_models": models,
                     "vehicle_damage": "none"})
    return rows


# --- stratagem declaration -----------------------------------------------------------------

class DeclarationForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    stratagems = forms.MultipleChoiceField(label=_("Stratagems"), required=False,
                                           widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, choices: list[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["stratagems"].choices = list(choices)
