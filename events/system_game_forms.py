"""Game-page forms of the game systems whose reports carry facts of their own (league/systems):
Warhammer Battle (victory points before the baggage bonus, the baggage captor, the units that
left to loot) and Urban War (whose commando was destroyed and the enemy models each player
destroyed; the server derives the victory points), plus the W40K Dynamics morale helper.

The report forms send what the API's report body sends (``results.ResultInput(facts=...)``)
and say beforehand what ``results.preview`` (the service's own reading) would record."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events.errors import Invalid
from events.game_forms import NOBODY, ReportPreview
from events.models import Game, Player
from events.scoring import Band, bands_of, tournament_points
from events.services import results
from events.systems import Scored
from systems.urban_war import table_rules as urban_war_engine
from systems.w40k4 import dynamics
from systems.whfb.victory import BAGGAGE_BONUS

# Player id -> the entries of their current main list (what the forms offer to tick).
Lists = Mapping[int, Sequence[Mapping[str, Any]]]
DRAW = "draw"
SIDES = ("a", "b")


def unit_choices(entries: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """A Warhammer Battle list's unit names, each once (the report names units by name)."""
    names = dict.fromkeys(str(e["name"]) for e in entries if e.get("name"))
    return [(name, name) for name in names]


def model_choices(entries: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """An Urban War commando's models by label, with their points (labels are unique in a
    valid commando; a repeated one is offered once)."""
    choices: dict[str, str] = {}
    for entry in entries:
        label = str(entry.get("label") or "")
        if not label or label in choices:
            continue
        words = {"label": label, "points": entry.get("points", 0)}
        choices[label] = (_("%(label)s (%(points)s points, commander)") if entry.get("commander")
                          else _("%(label)s (%(points)s points)")) % words
    return list(choices.items())


def player_id(value: str | None) -> int | None:
    """A radio's player id (its choices are the two players' ids, "none" or "draw")."""
    return None if value in (None, "", NOBODY, DRAW) else int(value)


class SystemReportForm(forms.Form):
    """A report of a system with facts of its own. Subclasses add their fields and build the
    report's content; the preview line is what the service would record from it."""

    def __init__(self, *args: Any, game: Game, lists: Lists, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game, self.lists = game, lists
        self.players: tuple[Player, Player] = (game.player_a, game.player_b)
        self.ids = dict(zip(SIDES, game.player_ids, strict=True))
        self.bands = bands_of(game.round.tournament.scoring or {})
        self.preview = ReportPreview()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            self.preview = self._preview()
            if self.preview.problem:
                self.add_error(None, self.preview.problem)
        return data

    def help_lines(self) -> list[str]:
        """How the form is read, shown above its fields."""
        return []

    def hint(self) -> str:
        """What the preview line says while the form lacks what the result needs."""
        return ""

    def content(self) -> dict[str, Any]:
        """The service's input: ``winner``, ``victory_points`` and ``facts`` (the API's outcome)."""
        raise NotImplementedError

    def lines(self, scored: Scored) -> list[str]:
        """What the preview adds to the recorded winner, in the reader's language."""
        raise NotImplementedError

    def _preview(self) -> ReportPreview:
        try:
            scored = results.preview(self.game, results.ResultInput(**self.content()))
        except Invalid as exc:
            return ReportPreview(problem=str(exc.message))
        except serializers.ValidationError:  # the fields only offer what the outcome takes
            return ReportPreview(problem=str(_("This report cannot be read: check the fields.")))
        winner = next((p for p in self.players if p.pk == scored.winner), None)
        return ReportPreview(known=True, winner=winner,
                             lines=(*self.lines(scored), *self._band_lines(scored)))

    def _band_lines(self, scored: Scored) -> list[str]:
        """Under a band table, the tournament points each player takes."""
        if self.bands is None:
            return []
        points = band_points(self.players, scored.victory_points, self.bands)
        return [_("Tournament points from the table: %(points)s.") % {"points": points}]

    def current_preview(self) -> ReportPreview:
        """The posted form's preview, or that of the form as first shown (a twin bound to it)."""
        if self.is_bound:
            return self.preview
        data = {name: value for name, value in self.initial.items() if value is not None}
        twin = type(self)(data, game=self.game, lists=self.lists)
        if twin.is_valid():
            return twin.preview
        return ReportPreview(hint=self.hint())

    def side_or_none(self, name: str, label: str, words: str, nobody: str, **params: Any) -> None:
        """A required radio: nobody, or one of the players (``words`` names a player)."""
        self.fields[name] = forms.ChoiceField(
            label=label, widget=forms.RadioSelect,
            choices=[(NOBODY, nobody), *((str(p.pk), words % {"player": p.name, **params})
                                        for p in self.players)])
        self.initial.setdefault(name, NOBODY)  # also what the first preview reads


def band_points(players: Sequence[Player], victory_points: Mapping[int, int],
                bands: Sequence[Band]) -> str:
    """"Alice 12, Bob 8": each player's tournament points from the victory-point difference."""
    scores = tuple(int(victory_points.get(p.pk, 0)) for p in players)
    result = tournament_points((scores[0], scores[1]), bands)
    return ", ".join(f"{p.name} {tp}" for p, tp in zip(players, result.points, strict=True))


class WhfbReportForm(SystemReportForm):
    """Warhammer Battle: each side's victory points before the baggage bonus, who captured the
    enemy baggage (when the event uses baggage) and each player's units that left to loot.
    Under a band table the points decide the result; otherwise the players say it."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        event = self.game.round.tournament
        baggage = bool((event.advanced_rules or {}).get("baggage"))
        vp_label = (_("Victory points of %(player)s, before the baggage bonus") if baggage
                    else _("Victory points of %(player)s"))
        if self.bands is None:
            self.fields["winner"] = forms.ChoiceField(
                label=_("Result"), widget=forms.RadioSelect,
                choices=[*((str(p.pk), _("%(player)s won") % {"player": p.name})
                           for p in self.players), (DRAW, _("Draw"))])
        for side, player in zip(SIDES, self.players, strict=True):
            self.fields[f"vp_{side}"] = forms.IntegerField(
                label=vp_label % {"player": player.name}, min_value=0, max_value=results.MAX_VP)
        if baggage:
            self.side_or_none("baggage", str(_("Who captured the enemy baggage?")),
                              str(_("%(player)s (+%(bonus)s victory points)")), str(_("Nobody")),
                              bonus=BAGGAGE_BONUS)
        for side, player in zip(SIDES, self.players, strict=True):
            units = unit_choices(self.lists.get(player.pk, ()))
            if units:
                self.fields[f"looting_{side}"] = forms.MultipleChoiceField(
                    label=_("Units of %(player)s that left by the enemy's edge to loot")
                    % {"player": player.name}, choices=units, required=False,
                    widget=forms.CheckboxSelectMultiple)

    def hint(self) -> str:
        if "winner" in self.fields:
            return str(_("Choose the result and fill in both sides' victory points: this line "
                         "then says what sending the form records."))
        return str(_("Fill in both sides' victory points: this line then says what sending the "
                     "form records."))

    def help_lines(self) -> list[str]:
        lines = [str(_("Give each side's victory points as the rules count them: a unit that "
                       "left by the enemy's edge to loot gives its opponent nothing."))]
        if "baggage" in self.fields:
            lines.append(_("Give them before the baggage bonus: the player who captured the "
                           "enemy baggage gets +%(bonus)s, added when the result is recorded.")
                         % {"bonus": BAGGAGE_BONUS})
        if self.bands is not None:
            lines.append(str(_("The victory-point difference decides the result and the "
                               "tournament points, by the event's table.")))
        return lines

    def content(self) -> dict[str, Any]:
        data = self.cleaned_data
        looting = {str(pid): list(data[f"looting_{side}"]) for side, pid in self.ids.items()
                   if data.get(f"looting_{side}")}
        return {"winner": player_id(data.get("winner")),
                "victory_points": {pid: data[f"vp_{side}"] for side, pid in self.ids.items()},
                "facts": {"baggage_captured_by": player_id(data.get("baggage")),
                          "looting_units": looting}}

    def lines(self, scored: Scored) -> list[str]:
        return whfb_points_lines(self.players, scored.victory_points, scored.outcome)


def whfb_points_lines(players: Sequence[Player], victory_points: Mapping[Any, Any],
                      outcome: Mapping[str, Any]) -> list[str]:
    """Each side's victory points, the baggage bonus shown apart (``victory_points`` include it;
    the outcome keeps the reported points and the bonus, keyed by player id strings)."""
    bonus = outcome.get("baggage_bonus") or {}
    reported = outcome.get("reported_victory_points") or {}
    lines = []
    for player in players:
        key = str(player.pk)
        total = victory_points.get(player.pk, victory_points.get(key, 0))
        if bonus.get(key):
            lines.append(_("%(player)s: %(total)s victory points (%(reported)s + %(bonus)s for "
                           "the enemy baggage).") % {"player": player.name, "total": total,
                                                     "reported": reported.get(key, 0),
                                                     "bonus": bonus[key]})
        else:
            lines.append(_("%(player)s: %(total)s victory points.")
                         % {"player": player.name, "total": total})
    return lines


class UrbanWarReportForm(SystemReportForm):
    """Urban War: whose commando was destroyed and, per player, the opponent's models that player
    destroyed. No victory points are asked: the server adds up the destroyed models' points; a
    destroyed commando gives the game to its opponent."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.side_or_none("commando_destroyed", str(_("Whose commando was destroyed?")),
                          str(_("The commando of %(player)s")), str(_("Neither")))
        a, b = self.players
        for side, player, opponent in (("a", a, b), ("b", b, a)):
            models = model_choices(self.lists.get(opponent.pk, ()))
            if models:
                self.fields[f"destroyed_{side}"] = forms.MultipleChoiceField(
                    label=_("Models of %(opponent)s destroyed by %(player)s")
                    % {"opponent": opponent.name, "player": player.name},
                    choices=models, required=False, widget=forms.CheckboxSelectMultiple)

    def help_lines(self) -> list[str]:
        return [str(_("No victory points to type: each player scores the points of the enemy "
                      "models they destroyed, added up from both commandos.")),
                str(_("A destroyed commando gives the game to its opponent, and every model of "
                      "it counts as destroyed."))]

    def content(self) -> dict[str, Any]:
        data = self.cleaned_data
        loser = player_id(data.get("commando_destroyed"))
        destroyed = {str(pid): list(data[f"destroyed_{side}"]) for side, pid in self.ids.items()
                     if data.get(f"destroyed_{side}")}
        # U-R16: whoever destroys the enemy commando wins; the service refuses any other winner.
        winner = None if loser is None else next(p for p in self.game.player_ids if p != loser)
        return {"winner": winner, "victory_points": {},
                "facts": {"commando_destroyed": loser, "destroyed": destroyed}}

    def lines(self, scored: Scored) -> list[str]:
        points = ", ".join(f"{p.name} {scored.victory_points.get(p.pk, 0)}" for p in self.players)
        lines = [_("Victory points (the points of the enemy models destroyed): %(points)s.")
                 % {"points": points}]
        loser = scored.outcome.get("commando_destroyed")
        if loser is not None:
            name = next(p.name for p in self.players if p.pk == loser)
            lines.append(_("Every model of the commando of %(player)s counts as destroyed.")
                         % {"player": name})
        else:
            lines.append(no_commando_destroyed(self.game))
        return lines


def no_commando_destroyed(game: Game) -> str:
    """What the event's result mode makes of a game where both commandos stand."""
    mode = (game.round.tournament.settings or {}).get("result_mode")
    if mode == urban_war_engine.MOST_POINTS_DESTROYED:
        return str(_("No commando destroyed: the side that destroyed more points wins."))
    return str(_("No commando destroyed: this event scores the game as a draw."))


REPORT_FORMS: dict[str, type[SystemReportForm]] = {
    "whfb": WhfbReportForm, "urban-war": UrbanWarReportForm}


def report_form_class(game: Game) -> type[SystemReportForm] | None:
    """The system's report form (None: the Cities of Death form, or a plain chart game's)."""
    return REPORT_FORMS.get(game.round.tournament.rules.slug)


# --- W40K Dynamics -------------------------------------------------------------------------

MAX_MODELS = 1000


class MoraleForm(forms.Form):
    """W40K Dynamics' morale helper (D-R11): does a unit's pending shooting casualties reach a
    quarter of the models it had at the start of the pass?"""

    models_at_start = forms.IntegerField(label=_("Models in the unit at the start of the pass"),
                                         min_value=1, max_value=MAX_MODELS)
    pending = forms.IntegerField(label=_("Pending casualties from shooting"), min_value=0,
                                 max_value=MAX_MODELS)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, pending = data.get("models_at_start"), data.get("pending")
        if start is not None and pending is not None and pending > start:
            self.add_error("pending", _("At most the models the unit had at the start of the "
                                        "pass."))
        return data

    def check(self, rule: str) -> dynamics.MoraleCheck:
        data = self.cleaned_data
        return dynamics.morale_check(data["models_at_start"], data["pending"], rule)
