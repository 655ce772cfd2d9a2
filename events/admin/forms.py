"""Admin forms: tournament settings, re-pair confirmation, CSV import, settling a result, unlocking a list."""
from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import QuerySet
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armylists.models import Chart, GameSystem
from config.typography import elide
from events import scoring
from events.models import TIEBREAK_CHOICES, Game, Tournament
from events.serializers import MAX_SEED
from events.services import imports, results
from events.standings import TIEBREAKS
from events.systems import NOT_FOR_EVENTS, event_rules
from systems.registry import EventForm, game_system


class TiebreaksField(forms.CharField):
    """The tiebreak order typed as codes separated by commas."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(value)
        if isinstance(value, str) and value.startswith("["):
            try:
                return ", ".join(json.loads(value))
            except (ValueError, TypeError):
                return value
        return value

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value)
        codes = [c.strip() for c in text.replace(";", ",").split(",") if c.strip()]
        unknown = [c for c in codes if c not in TIEBREAKS]
        if unknown:
            raise forms.ValidationError(_("Unknown tiebreaker: %(code)s.") % {"code": unknown[0]})
        if len(set(codes)) != len(codes):
            raise forms.ValidationError(_("A tiebreaker is listed twice."))
        return codes


def tiebreaks_help() -> str:
    return _("In order, separated by commas: %(choices)s.") % {
        "choices": "; ".join(f"{code} = {label}" for code, label in TIEBREAK_CHOICES)}


GROUPS = ("advanced_rules", "settings")  # JSON columns each system reads with its own serializer
# Columns Tournament.clean may set from the others (events/systems/config.py): a change saves
# them when their value moved, whatever form field carried them.
SYSTEM_COLUMNS = ("game_system", "level", "turn_system", "advanced_rules", "settings", "scoring")
MODEL_FIELDS = frozenset(f.name for f in Tournament._meta.concrete_fields)
WDL_CHOICE, TABLE_CHOICE, PRESET_PREFIX = "wdl", "table", "preset:"
NO_UPPER_BOUND = frozenset({"-", "–", "null", "none", "∞"})


def default_system() -> GameSystem:
    """The system of a form sent without one, as in the API (MUSTER_DEFAULT_GAME_SYSTEM)."""
    return GameSystem.objects.get(slug=settings.MUSTER_DEFAULT_GAME_SYSTEM)


def wording(system_slug: str) -> EventForm:
    """How the system's settings read in the form (``GameSystem.event_form``)."""
    system = game_system(system_slug)
    return system.event_form if system is not None else EventForm()


def suggested_points(system_slug: str) -> int | None:
    """The points limit the add form starts with for this system, if it has a usual one."""
    return wording(system_slug).suggested_points


def event_systems() -> QuerySet[GameSystem]:
    """Game systems an event can be played in (campaign systems are run as campaigns)."""
    return GameSystem.objects.exclude(kind__in=NOT_FOR_EVENTS)


def setting_fields(system_slug: str) -> dict[str, tuple[str, str, forms.Field]]:
    """Form fields for the advanced rules and settings the system reads, made from the system's
    own serializers (events/systems), so a new setting shows up without a form of its own:
    ``"<group>_<key>" -> (group, key, field)``."""
    rules, words = event_rules(system_slug), wording(system_slug)
    found: dict[str, tuple[str, str, forms.Field]] = {}
    for group in GROUPS:
        serializer = getattr(rules, group)
        if serializer is None:
            continue
        for key, field in serializer().fields.items():
            name = f"{group}_{key}"
            found[name] = (group, key, _form_field(name, key, field, words))
    return found


def setting_title(system_slug: str, group: str) -> str:
    generic = _("Advanced rules") if group == "advanced_rules" else _("Game system settings")
    return wording(system_slug).titles.get(group, generic)


def _form_field(name: str, key: str, field: serializers.Field, words: EventForm) -> forms.Field:
    """Every setting is optional in the form: one left out keeps its saved (or default) value."""
    default = None if field.default is serializers.empty else field.default
    common: dict[str, Any] = {"label": capfirst(words.labels.get(name, key.replace("_", " "))),
                              "help_text": words.help.get(name, ""), "required": False,
                              "initial": default}
    if isinstance(field, serializers.BooleanField):
        return forms.BooleanField(**common)
    if isinstance(field, serializers.ChoiceField):
        choices = [(value, words.choices.get((name, value), value)) for value in field.choices]
        return forms.ChoiceField(choices=choices, **common)
    if isinstance(field, serializers.IntegerField):
        return forms.IntegerField(min_value=field.min_value, max_value=field.max_value, **common)
    return forms.CharField(**common)


def scoring_choices() -> list[tuple[str, Any]]:
    presets = [(f"{PRESET_PREFIX}{name}", _("victory-point table: the %(name)s preset")
                % {"name": name}) for name in scoring.PRESETS]
    return [(WDL_CHOICE, _("win, draw or loss: the points below")), *presets,
            (TABLE_CHOICE, _("victory-point table typed below"))]


def table_text(rows: list[list[int | None]]) -> str:
    return "\n".join(" ".join("-" if cell is None else str(cell) for cell in row) for row in rows)


def parse_table_text(text: str) -> list[list[int | None]]:
    """Rows typed one band per line: four numbers, the second "-" for no upper bound. Only the
    shape is read here; the model checks the bands (scoring.scoring_config)."""
    rows: list[list[int | None]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = [cell for cell in re.split(r"[\s,;]+", line.strip()) if cell]
        if not cells:
            continue
        try:
            if len(cells) != 4:
                raise ValueError
            high = None if cells[1].lower() in NO_UPPER_BOUND else int(cells[1])
            rows.append([int(cells[0]), high, int(cells[2]), int(cells[3])])
        except ValueError:
            raise ValidationError(
                _("Line %(line)s: write four whole numbers: the smallest difference, the largest "
                  "(- for no upper bound), the winner's points and the loser's points.")
                % {"line": number}) from None
    return rows


def column_values(tournament: Tournament) -> dict[str, Any]:
    return {"game_system": tournament.game_system_id, "level": tournament.level_id,
            "turn_system": tournament.turn_system, "advanced_rules": tournament.advanced_rules,
            "settings": tournament.settings, "scoring": tournament.scoring}


class TournamentForm(forms.ModelForm):
    """The event's settings. It shows the fields of one game system: ``system``, set by the admin
    from the submitted or requested system (or the saved one). The system's switches and
    settings become plain fields, stored in the JSON columns the model checks in ``clean``."""

    system: ClassVar[GameSystem | None] = None

    slug = forms.SlugField(
        label=_("slug"), required=False, max_length=80,
        help_text=_("The event's name in web addresses. Leave blank to derive it from the name."))
    seed = forms.IntegerField(
        label=_("seed"), required=False, min_value=0, max_value=MAX_SEED,
        help_text=_("Every die of the event comes from this number: the same seed replays the "
                    "same missions and pairings. Leave blank for a random one."))
    tiebreaks = TiebreaksField(label=_("tiebreak order"), required=False)
    game_system = forms.ModelChoiceField(
        label=_("Game system"), queryset=GameSystem.objects.none(), to_field_name="slug",
        required=False,
        help_text=_("Saving with another system shows that system's charts and settings to fill "
                    "in. It cannot change once lists or rounds exist."))
    scoring_mode = forms.ChoiceField(label=_("Tournament points"), required=False)
    scoring_table = forms.CharField(
        label=_("Victory-point table"), required=False,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 30}),
        help_text=_("One band per line: the smallest victory-point difference, the largest (- for "
                    "no upper bound), the winner's points, the loser's points; e.g. “0 200 10 10” "
                    "then “201 - 20 0”. The first band is a draw. Read only with “typed below”."))

    class Meta:
        model = Tournament
        fields = [
            "name", "slug", "starts_on", "language", "game_system", "chart", "points_limit",
            "level", "rounds", "on_six", "missions", "turn_system", "list_deadline",
            "free_faction", "require_check_in", "club_weight", "faction_weight", "bye_priority", "win_points",
            "draw_points", "loss_points", "bye_points", "tiebreaks", "seed",
        ]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._before = column_values(self.instance) if self.instance.pk else {}
        if "tiebreaks" in self.fields:
            self.fields["tiebreaks"].help_text = tiebreaks_help()
        self.fields["game_system"].queryset = event_systems()
        self.fields["scoring_mode"].choices = scoring_choices()
        mode, rows = self._scoring_initial()
        self.initial.setdefault("scoring_mode", mode)
        self.initial.setdefault("scoring_table", rows)
        if "turn_system" in self.fields:
            self.fields["turn_system"].required = False  # left out: kept as saved
        self.settings_fields: dict[str, tuple[str, str]] = {}
        saved = self.instance.game_system if self.instance.game_system_id else None
        system = self.system or saved
        if system is not None:
            self._fit_to(system)

    def _fit_to(self, system: GameSystem) -> None:
        self.initial["game_system"] = system.slug
        if "chart" in self.fields:
            self.fields["chart"].queryset = Chart.objects.filter(game_system=system)
        points = suggested_points(system.slug)
        if points is not None and "points_limit" in self.fields:
            self.fields["points_limit"].help_text = _(
                "%(points)s points is the usual size for this game.") % {"points": points}
        same_system = self.instance.game_system_id == system.pk
        for name, (group, key, field) in setting_fields(system.slug).items():
            self.fields[name] = field
            self.settings_fields[name] = (group, key)
            stored = getattr(self.instance, group) or {}
            if same_system and key in stored:
                self.initial[name] = stored[key]

    def _scoring_initial(self) -> tuple[str, str]:
        config = self.instance.scoring or {}
        if config.get("mode") != scoring.VP_TABLE:
            return WDL_CHOICE, ""
        if config.get("preset"):
            return f"{PRESET_PREFIX}{config['preset']}", ""
        return TABLE_CHOICE, table_text(config.get("table") or [])

    def clean_game_system(self) -> GameSystem:
        chosen = self.cleaned_data.get("game_system")
        if chosen is not None:
            return chosen
        if self.system is not None:
            return self.system
        if self.instance.game_system_id:
            return self.instance.game_system
        return default_system()

    def clean_turn_system(self) -> str:
        return self.cleaned_data.get("turn_system") or self.instance.turn_system or "standard"

    def clean_scoring_table(self) -> list[list[int | None]]:
        return parse_table_text(self.cleaned_data.get("scoring_table") or "")

    def clean(self) -> dict[str, Any]:
        """Gather the settings into their JSON columns; the model's clean checks them all."""
        data = super().clean()
        for group in GROUPS:
            setattr(self.instance, group, self._group_value(group))
        mode = data.get("scoring_mode") or ""
        typed = data.get("scoring_table") or "scoring_table" in self.errors
        if mode == TABLE_CHOICE and not typed:
            self.add_error("scoring_table", _("Type the table's bands, one per line."))
        self.instance.scoring = self._scoring(mode, data.get("scoring_table") or [])
        return data

    def _group_value(self, group: str) -> dict[str, Any]:
        stored = getattr(self.instance, group) or {}
        value: dict[str, Any] = {}
        for name, (field_group, key) in self.settings_fields.items():
            if field_group != group:
                continue
            sent = self.cleaned_data.get(name)
            if isinstance(self.fields[name], forms.BooleanField):
                value[key] = bool(sent)
            elif sent not in (None, ""):
                value[key] = sent
            elif key in stored:
                value[key] = stored[key]
        return value

    def _scoring(self, mode: str, rows: list[list[int | None]]) -> dict[str, Any]:
        if not mode:  # not sent: kept as saved
            return dict(self.instance.scoring or {"mode": scoring.WDL})
        if mode == WDL_CHOICE:
            return {"mode": scoring.WDL}
        if mode.startswith(PRESET_PREFIX):
            return {"mode": scoring.VP_TABLE, "preset": mode.removeprefix(PRESET_PREFIX)}
        return {"mode": scoring.VP_TABLE, "table": rows}

    def _update_errors(self, errors: ValidationError) -> None:
        """The model names its columns (scoring, settings…); show each message on the form
        field that carries it, or above the form, never as a missing-field crash."""
        if hasattr(errors, "error_dict"):
            moved: dict[str, list] = {}
            for field, messages in errors.error_dict.items():
                moved.setdefault(self._error_field(field), []).extend(messages)
            errors = ValidationError(moved)
        super()._update_errors(errors)

    def _error_field(self, column: str) -> str:
        if column == NON_FIELD_ERRORS or column in self.fields:
            return column
        if column == "scoring":
            typed = self.cleaned_data.get("scoring_mode") == TABLE_CHOICE
            return "scoring_table" if typed else "scoring_mode"
        group_fields = [name for name, (group, _key) in self.settings_fields.items()
                        if group == column]
        if group_fields:
            return group_fields[0]
        if column == "chart" and "game_system" in self.fields:
            return "game_system"
        return NON_FIELD_ERRORS

    def saved_fields(self) -> list[str]:
        """The columns a change writes: the plain fields edited, and the system columns whose
        value moved (the model may have set them from the others)."""
        plain = {f for f in self.changed_data if f in MODEL_FIELDS and f not in SYSTEM_COLUMNS}
        now = column_values(self.instance)
        moved = {column for column in SYSTEM_COLUMNS if now[column] != self._before.get(column)}
        return sorted(plain | moved)

    def service_fields(self) -> dict[str, Any]:
        """What ``create_tournament`` takes: the model's fields, system columns as checked."""
        fields = {k: v for k, v in self.cleaned_data.items() if k in MODEL_FIELDS}
        fields.update({column: getattr(self.instance, column) for column in SYSTEM_COLUMNS})
        return fields


class RepairForm(forms.Form):
    confirmation = forms.CharField(
        label=_("Type the round number to confirm"), max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 4, "autofocus": True}))


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Formatted per request, in the organiser's language.
        self.fields["file"].help_text = _(
            "First line: name,club,faction,username (only name is required; username is an "
            "existing account). Commas or semicolons, UTF-8. At most %(rows)s players and "
            "%(size)s KiB.") % {"rows": imports.MAX_ROWS, "size": imports.MAX_BYTES // 1024}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > imports.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)s KiB.") % {"size": imports.MAX_BYTES // 1024})
        return upload


class SettleForm(forms.Form):
    """A staff result: final at once (the players' reports stay on record)."""

    result = forms.ChoiceField(label=_("result"), widget=forms.RadioSelect)
    vp_a = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    vp_b = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    comment = forms.CharField(label=_("comment"), max_length=500, required=False,
                              widget=forms.TextInput(attrs={"size": 60}))

    def __init__(self, game: Game, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game
        a, b = game.player_a, game.player_b
        self.fields["result"].choices = [
            ("a", _("%(player)s won") % {"player": a.name}),
            ("b", _("%(player)s won") % {"player": b.name}),
            ("draw", _("draw")),
        ]
        self.fields["vp_a"].label = elide(_("victory points of %(player)s") % {"player": a.name})
        self.fields["vp_b"].label = elide(_("victory points of %(player)s") % {"player": b.name})

    def result_input(self) -> results.ResultInput:
        data, game = self.cleaned_data, self.game
        winner = {"a": game.player_a_id, "b": game.player_b_id}.get(data["result"])
        vp = {pid: data[key] for pid, key in ((game.player_a_id, "vp_a"), (game.player_b_id, "vp_b"))
              if data[key] is not None}
        return results.ResultInput(winner=winner, victory_points=vp, comment=data["comment"])


class ScenarioForm(forms.Form):
    scenario = forms.CharField(
        label=_("Scenario"), required=False, max_length=5000,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        help_text=_("What this round is played with: deployment, objectives, special rules. "
                    "Players read it on the event page."))


class UnlockForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the audit log, e.g. “typo in the points of one unit, seen with the player”."))
