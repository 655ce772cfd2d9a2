"""Warhammer Battle's report, once for every door (systems/reports): each side's victory points
before the baggage bonus, who captured the enemy baggage (when the event uses baggage, W-R6) and
each player's units that left to loot. Under a band table the points decide the result;
otherwise the players say it. The same form serves the player's game page, the admin game page
and the results grid; `WORDS` says a report's facts back."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.typography import elide
from events.game_forms import ReportPreview
from events.models import Game, Player
from events.services import results
from events.systems import Scored
from systems.reports import DRAW, SIDES, Lists, ResultWords, SystemReportForm, player_id
from systems.whfb.victory import BAGGAGE_BONUS


def unit_choices(entries: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """A Warhammer Battle list's unit names, each once (the report names units by name)."""
    names = dict.fromkeys(str(e["name"]) for e in entries if e.get("name"))
    return [(name, name) for name in names]


def uses_baggage(game: Game) -> bool:
    return bool((game.round.tournament.advanced_rules or {}).get("baggage"))


class WhfbReportForm(SystemReportForm):
    """Victory points before the baggage bonus, the baggage captor, the looting units."""

    grid_facts = "looting"
    grid_titles = {"baggage": _("baggage captured by")}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        baggage = uses_baggage(self.game)
        vp_label = (_("Victory points of %(player)s, before the baggage bonus") if baggage
                    else _("Victory points of %(player)s"))
        if self.bands is None:
            self.fields["winner"] = forms.ChoiceField(
                label=_("Result"), widget=forms.RadioSelect,
                choices=[*((str(p.pk), elide(_("%(player)s won") % {"player": p.name}))
                           for p in self.players), (DRAW, _("Draw"))])
        for side, player in zip(SIDES, self.players, strict=True):
            self.fields[f"vp_{side}"] = forms.IntegerField(
                label=elide(vp_label % {"player": player.name}), min_value=0,
                max_value=results.MAX_VP)
        if baggage:
            self.side_or_none("baggage", str(_("Who captured the enemy baggage?")),
                              str(_("%(player)s (+%(bonus)s victory points)")), str(_("Nobody")),
                              bonus=BAGGAGE_BONUS)
        for side, player in zip(SIDES, self.players, strict=True):
            units = unit_choices(self.lists.get(player.pk, ()))
            if units:
                self.fields[f"looting_{side}"] = forms.MultipleChoiceField(
                    label=elide(_("Units of %(player)s that left by the enemy's edge to loot")
                                % {"player": player.name}), choices=units, required=False,
                    widget=forms.CheckboxSelectMultiple)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors and not (self.preview.known or self.preview.problem):
            # A value missing: the line says what this form asks (there may be no result to choose).
            self.preview = ReportPreview(hint=self.hint())
        return data

    def hint(self) -> str:
        chosen = self.is_bound and self.data.get(self.add_prefix("winner"))
        if "winner" in self.fields and not chosen:
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
        return points_lines(self.players, scored.victory_points, scored.outcome)

    @classmethod
    def grid_fields(cls, game: Game, lists: Lists) -> dict[str, forms.Field]:
        """The baggage captor (when the event uses baggage) and each side's looting units."""
        a, b = game.player_a, game.player_b
        fields: dict[str, forms.Field] = {}
        if uses_baggage(game):
            fields["baggage"] = forms.ChoiceField(
                required=False, label=_("Baggage captured by, table %(table)s") % {"table": game.table},
                choices=[("", _("nobody")), ("a", a.name), ("b", b.name)])
        for side, player in (("a", a), ("b", b)):
            choices = unit_choices(lists.get(player.pk, ()))
            if choices:
                fields[f"looting_{side}"] = forms.MultipleChoiceField(
                    label=elide(_("Units of %(player)s that left to loot, table %(table)s")
                                % {"player": player.name, "table": game.table}),
                    choices=choices, required=False, widget=forms.CheckboxSelectMultiple)
        return fields

    @classmethod
    def grid_content(cls, game: Game, data: Mapping[str, Any],
                     by_side: Callable[[str], dict[str, list[str]]]) -> results.ResultInput:
        ids = {"a": game.player_a_id, "b": game.player_b_id}
        vp = {ids[side]: data[f"vp_{side}"] for side in SIDES if data.get(f"vp_{side}") is not None}
        facts = {"baggage_captured_by": ids.get(data.get("baggage") or ""),
                 "looting_units": by_side("looting")}
        return results.ResultInput(winner=ids.get(data["result"]), victory_points=vp, facts=facts)


def points_lines(players: Sequence[Player], victory_points: Mapping[Any, Any],
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
            lines.append(gettext("%(player)s: %(total)s victory points (%(reported)s + %(bonus)s "
                                 "for the enemy baggage).")
                         % {"player": player.name, "total": total,
                            "reported": reported.get(key, 0), "bonus": bonus[key]})
        else:
            lines.append(gettext("%(player)s: %(total)s victory points.")
                         % {"player": player.name, "total": total})
    return lines


def result_lines(players: Sequence[Player], outcome: Mapping[str, Any],
                 victory_points: Mapping[str, Any], lists: Lists) -> list[str]:
    lines = points_lines(players, victory_points, outcome)
    captor = outcome.get("baggage_captured_by")
    for player, opponent in ((players[0], players[1]), (players[1], players[0])):
        if captor == player.pk:
            lines.append(gettext("%(player)s captured the baggage of %(opponent)s (+%(bonus)s "
                                 "victory points).") % {"player": player.name,
                                                        "opponent": opponent.name,
                                                        "bonus": BAGGAGE_BONUS})
    looting = outcome.get("looting_units") or {}
    for player in players:
        units = looting.get(str(player.pk))
        if units:
            lines.append(gettext("Units of %(player)s that left to loot: %(units)s.")
                         % {"player": player.name, "units": ", ".join(units)})
    return lines


WORDS = ResultWords(result_lines, _("units that left to loot"))
