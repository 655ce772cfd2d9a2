"""One row of the staff results grid: a table's result as an organiser types it, turned into the
content ``results.report`` takes (or None: accept the open report as it stands).

A chart game's row (Warhammer 40,000 and any system without a report form of its own) asks the
winner (or a draw) and both sides' victory points; under a band table the points decide the
result. A system with a report form (systems/reports.py) gives the row's result choices, its
fields picked from the players' current lists and the content it sends, from the same module
as its game-page form; the system's outcome serializer and ``score`` check what is sent, in
``results.report``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.typography import elide
from events.models import Game, Tournament
from events.scoring import bands_of
from events.services import results
from systems.registry import game_system
from systems.reports import SystemReportForm

# Player id -> the entries of their current main list (events.services.result_grid.round_lists).
Lists = Mapping[int, Sequence[Mapping[str, Any]]]

SKIP, ACCEPT, POINTS, DRAW = "", "accept", "points", "draw"


def system_form(tournament: Tournament) -> type[SystemReportForm] | None:
    """The event's system report form (None: a chart game's row)."""
    system = game_system(tournament.game_system.slug)
    return system.report_form if system is not None else None


def list_facts(tournament: Tournament) -> str:
    """The name prefix of the per-side fields a row picks from the lists ("": none)."""
    form = system_form(tournament)
    return form.grid_facts if form is not None else ""


def grid_titles(tournament: Tournament, names: list[str]) -> list[Any]:
    """The column titles of a row's system fields beside the facts (the baggage captor...)."""
    form = system_form(tournament)
    titles = form.grid_titles if form is not None else {}
    return [titles.get(name, name) for name in names]


def asks_victory_points(tournament: Tournament) -> bool:
    form = system_form(tournament)
    return form.grid_vp if form is not None else True


class GridRowForm(forms.Form):
    result = forms.ChoiceField(required=False)
    vp_a = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    vp_b = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)

    def __init__(self, game: Game, *args: Any, lists: Lists | None = None, **kwargs: Any):
        kwargs.setdefault("prefix", f"g{game.pk}")
        super().__init__(*args, **kwargs)
        self.game = game
        event = game.round.tournament
        self.system = system_form(event)
        self.bands = bands_of(event.scoring or {}) is not None
        a, b = game.player_a.name, game.player_b.name
        choices: list[tuple[str, Any]] = [(SKIP, "—")]
        if game.status == Game.Status.REPORTED:
            choices.append((ACCEPT, _("accept the reported result")))
        own = self.system.grid_results(game, self.bands) if self.system is not None else None
        if own is not None:
            choices += own
        elif self.bands:
            choices.append((POINTS, _("as the victory points decide")))
        else:
            choices += [("a", elide(_("%(player)s won") % {"player": a})),
                        ("b", elide(_("%(player)s won") % {"player": b})), (DRAW, _("draw"))]
        self.fields["result"].choices = choices
        if self.system is not None and not self.system.grid_vp:
            del self.fields["vp_a"], self.fields["vp_b"]
        labels = {"result": _("Result, table %(table)s"),
                  "vp_a": _("Victory points of %(player)s, table %(table)s"),
                  "vp_b": _("Victory points of %(player)s, table %(table)s")}
        names = {"vp_a": a, "vp_b": b}
        for name, field in self.fields.items():
            field.label = elide(labels[name] % {"table": game.table, "player": names.get(name, "")})
        if self.system is not None:
            self.fields.update(self.system.grid_fields(game, lists or {}))
        for name, field in self.fields.items():
            if name.startswith("vp_"):
                field.widget.attrs.update({"size": 5, "inputmode": "numeric"})

    def fact_fields(self) -> list[forms.BoundField]:
        """The per-side fields picked from the lists (destroyed models, looting units)."""
        prefix = self.system.grid_facts if self.system is not None else ""
        return [self[name] for name in self.fields if prefix and name.startswith(f"{prefix}_")]

    def extra_fields(self) -> list[forms.BoundField]:
        """The system's row fields that are not picked from the lists (the baggage captor...),
        a column each."""
        if self.system is None:
            return []
        facts = {field.name for field in self.fact_fields()}
        return [self[name] for name in self.fields
                if name not in ("result", "vp_a", "vp_b") and name not in facts]

    def _typed(self, name: str) -> bool:
        key = self.add_prefix(name)
        values = self.data.getlist(key) if hasattr(self.data, "getlist") else [self.data.get(key)]
        return any(str(v).strip() for v in values if v is not None)

    @property
    def sent(self) -> bool:
        """Whether the organiser typed anything in this row (an untouched row is left alone)."""
        if not self.is_bound:
            return False
        return any(self._typed(name) for name in self.fields)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        choice = data.get("result", SKIP)
        if choice == SKIP and self.sent:
            raise forms.ValidationError(_("Choose a result for this table, or clear the row."))
        if choice == ACCEPT and any(data.get(k) not in (None, "") for k in ("vp_a", "vp_b")):
            raise forms.ValidationError(
                _("Accepting the reported result takes it as it is: clear the victory points."))
        if choice == ACCEPT and any(data.get(f.name) for f in self.fact_fields()):
            raise forms.ValidationError(
                _("Accepting the reported result takes it as it is: untick the models and units."))
        return data

    def _by_side(self, prefix: str) -> dict[str, list[str]]:
        """``{player id: [names]}`` of the sides with something ticked (the outcome's shape)."""
        ids = {"a": self.game.player_a_id, "b": self.game.player_b_id}
        return {str(ids[side]): list(self.cleaned_data[f"{prefix}_{side}"]) for side in ids
                if self.cleaned_data.get(f"{prefix}_{side}")}

    def content(self) -> results.ResultInput | None:
        """The staff report this row sends; None accepts the open report."""
        data, game = self.cleaned_data, self.game
        if data["result"] == ACCEPT:
            return None
        own = (self.system.grid_content(game, data, self._by_side)
               if self.system is not None else None)
        if own is not None:
            return own
        ids = {"a": game.player_a_id, "b": game.player_b_id}
        vp = {ids[side]: data[f"vp_{side}"] for side in ("a", "b")
              if data.get(f"vp_{side}") is not None}
        return results.ResultInput(winner=ids.get(data["result"]), victory_points=vp)
