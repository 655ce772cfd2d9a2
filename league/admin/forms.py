"""Admin forms: tournament settings, re-pair confirmation, CSV import, settling a result, unlocking a list."""
from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import (
    TIEBREAK_CHOICES,
    Game,
    Tournament,
)
from league.serializers import MAX_SEED
from league.services import imports, results
from league.standings import TIEBREAKS


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


class TournamentForm(forms.ModelForm):
    slug = forms.SlugField(
        label=_("slug"), required=False, max_length=80,
        help_text=_("The event's name in web addresses. Leave blank to derive it from the name."))
    seed = forms.IntegerField(
        label=_("seed"), required=False, min_value=0, max_value=MAX_SEED,
        help_text=_("Every die of the event comes from this number: the same seed replays the "
                    "same missions and pairings. Leave blank for a random one."))
    tiebreaks = TiebreaksField(label=_("tiebreak order"), required=False)

    class Meta:
        model = Tournament
        fields = [
            "name", "slug", "starts_on", "language", "chart", "points_limit", "level", "rounds",
            "on_six", "missions", "list_deadline", "require_check_in", "club_weight",
            "faction_weight", "bye_priority", "win_points", "draw_points", "loss_points",
            "bye_points", "tiebreaks", "seed",
        ]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if "tiebreaks" in self.fields:
            self.fields["tiebreaks"].help_text = tiebreaks_help()


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
        self.fields["vp_a"].label = _("victory points of %(player)s") % {"player": a.name}
        self.fields["vp_b"].label = _("victory points of %(player)s") % {"player": b.name}

    def result_input(self) -> results.ResultInput:
        data, game = self.cleaned_data, self.game
        winner = {"a": game.player_a_id, "b": game.player_b_id}.get(data["result"])
        vp = {pid: data[key] for pid, key in ((game.player_a_id, "vp_a"), (game.player_b_id, "vp_b"))
              if data[key] is not None}
        return results.ResultInput(winner=winner, victory_points=vp, comment=data["comment"])


class UnlockForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the audit log, e.g. “typo in the points of one unit, seen with the player”."))
