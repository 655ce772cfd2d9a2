"""Urban War's report, once for every door (systems/reports): whose commando was destroyed and,
per player, the opponent's models that player destroyed. No victory points are asked: the server
adds up the destroyed models' points (UG4); a destroyed commando gives the game to its opponent
(U-R16). The same form serves the player's game page, the admin game page and the results grid;
`WORDS` says a report's facts back."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.typography import elide
from events.models import Game, Player
from events.services import results
from events.systems import Scored
from systems.reports import Lists, ResultWords, SystemReportForm, player_id
from systems.urban_war import table_rules as engine

NONE, LOST_A, LOST_B = "none", "lost_a", "lost_b"


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


class UrbanWarReportForm(SystemReportForm):
    """Whose commando was destroyed and the enemy models each player destroyed."""

    grid_facts = "destroyed"
    grid_vp = False

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.side_or_none("commando_destroyed", str(_("Whose commando was destroyed?")),
                          str(_("The commando of %(player)s")), str(_("Neither")))
        a, b = self.players
        for side, player, opponent in (("a", a, b), ("b", b, a)):
            models = model_choices(self.lists.get(opponent.pk, ()))
            if models:
                self.fields[f"destroyed_{side}"] = forms.MultipleChoiceField(
                    label=elide(_("Models of %(opponent)s destroyed by %(player)s")
                                % {"opponent": opponent.name, "player": player.name}),
                    choices=models, required=False, widget=forms.CheckboxSelectMultiple)

    def help_lines(self) -> list[str]:
        return [str(_("No victory points to type: each player scores the points of the enemy "
                      "models they destroyed, added up from both commandos.")),
                str(_("A destroyed commando gives the game to its opponent, and every model of "
                      "it counts as destroyed."))]

    def content(self) -> dict[str, Any]:
        data = self.cleaned_data
        destroyed = {str(pid): list(data[f"destroyed_{side}"]) for side, pid in self.ids.items()
                     if data.get(f"destroyed_{side}")}
        return report_content(self.game, player_id(data.get("commando_destroyed")), destroyed)

    def lines(self, scored: Scored) -> list[str]:
        points = ", ".join(f"{p.name} {scored.victory_points.get(p.pk, 0)}" for p in self.players)
        lines = [_("Victory points (the points of the enemy models destroyed): %(points)s.")
                 % {"points": points}]
        loser = scored.outcome.get("commando_destroyed")
        if loser is not None:
            name = next(p.name for p in self.players if p.pk == loser)
            lines.append(elide(_("Every model of the commando of %(player)s counts as destroyed.")
                               % {"player": name}))
        else:
            lines.append(no_commando_destroyed(self.game))
        return lines

    @classmethod
    def grid_results(cls, game: Game, bands: bool) -> list[tuple[str, Any]]:
        a, b = game.player_a.name, game.player_b.name
        return [(NONE, _("no commando destroyed")),
                (LOST_B, elide(_("commando of %(player)s destroyed") % {"player": b})),
                (LOST_A, elide(_("commando of %(player)s destroyed") % {"player": a}))]

    @classmethod
    def grid_fields(cls, game: Game, lists: Lists) -> dict[str, forms.Field]:
        """The enemy models each side destroyed, offered only for sides whose enemy has a list."""
        a, b = game.player_a, game.player_b
        fields: dict[str, forms.Field] = {}
        for side, player, enemy in (("a", a, b), ("b", b, a)):
            choices = model_choices(lists.get(enemy.pk, ()))
            if choices:
                fields[f"destroyed_{side}"] = forms.MultipleChoiceField(
                    label=elide(_("Models of %(opponent)s destroyed by %(player)s, table %(table)s")
                                % {"opponent": enemy.name, "player": player.name,
                                   "table": game.table}),
                    choices=choices, required=False, widget=forms.CheckboxSelectMultiple)
        return fields

    @classmethod
    def grid_content(cls, game: Game, data: Mapping[str, Any],
                     by_side: Callable[[str], dict[str, list[str]]]) -> results.ResultInput:
        loser = {LOST_A: game.player_a_id, LOST_B: game.player_b_id}.get(data["result"])
        return results.ResultInput(**report_content(game, loser, by_side("destroyed")))


def report_content(game: Game, loser: int | None, destroyed: dict[str, list[str]]) -> dict[str, Any]:
    """The service's input: U-R16, whoever destroys the enemy commando wins (the service refuses
    any other winner); the victory points are derived."""
    winner = None if loser is None else next(p for p in game.player_ids if p != loser)
    return {"winner": winner, "victory_points": {},
            "facts": {"commando_destroyed": loser, "destroyed": destroyed}}


def no_commando_destroyed(game: Game) -> str:
    """What the event's result mode makes of a game where both commandos stand."""
    mode = (game.round.tournament.settings or {}).get("result_mode")
    if mode == engine.MOST_POINTS_DESTROYED:
        return str(_("No commando destroyed: the side that destroyed more points wins."))
    return str(_("No commando destroyed: this event scores the game as a draw."))


def result_lines(players: Sequence[Player], outcome: Mapping[str, Any],
                 victory_points: Mapping[str, Any], lists: Lists) -> list[str]:
    loser = outcome.get("commando_destroyed")
    lost = next((p for p in players if p.pk == loser), None)
    lines = [gettext("The commando of %(player)s was destroyed.") % {"player": lost.name} if lost
             else gettext("No commando was destroyed.")]
    destroyed = outcome.get("destroyed") or {}
    for player, opponent in ((players[0], players[1]), (players[1], players[0])):
        points = {str(e.get("label")): e.get("points") for e in lists.get(opponent.pk, ())}
        labels = destroyed.get(str(player.pk)) or []
        if labels:
            named = ", ".join(model_words(label, points.get(label)) for label in labels)
            lines.append(ngettext("%(player)s destroyed %(count)s model: %(models)s.",
                                  "%(player)s destroyed %(count)s models: %(models)s.",
                                  len(labels))
                         % {"player": player.name, "count": len(labels), "models": named})
        else:
            lines.append(gettext("%(player)s destroyed no model.") % {"player": player.name})
    scores = ", ".join(f"{p.name} {victory_points.get(str(p.pk), 0)}" for p in players)
    lines.append(gettext("Victory points (the points of the enemy models destroyed): %(points)s.")
                 % {"points": scores})
    return lines


def model_words(label: str, points: Any) -> str:
    if points is None:  # the list changed since: the label alone
        return label
    return gettext("%(label)s (%(points)s points)") % {"label": label, "points": points}


WORDS = ResultWords(result_lines, _("enemy models destroyed"))
