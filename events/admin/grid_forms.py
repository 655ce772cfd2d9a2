"""One row of the staff results grid: a table's result as an organiser types it, turned into the
content ``results.report`` takes (or None: accept the open report as it stands).

What a row asks depends on the game system: the winner (or a draw) and both sides' victory
points for Warhammer 40,000 and Warhammer Battle (the baggage captor too when the event uses
baggage, and each side's units that left to loot; under a band table the points decide the
result), the destroyed commando and each side's destroyed enemy models for Urban War (whose
victory points the server derives). The choices come from the players' current lists, as on the
game page (``events.system_game_forms``); the system's outcome serializer and ``score`` check
what is sent, in ``results.report``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Game
from events.scoring import bands_of
from events.services import results
from events.system_game_forms import model_choices, unit_choices

# Player id -> the entries of their current main list (events.services.result_grid.round_lists).
Lists = Mapping[int, Sequence[Mapping[str, Any]]]
# The systems whose rows offer facts picked from the lists, and the field of each side.
LIST_FACTS = {"urban-war": "destroyed", "whfb": "looting"}

SKIP, ACCEPT, POINTS, DRAW, NONE = "", "accept", "points", "draw", "none"


class GridRowForm(forms.Form):
    result = forms.ChoiceField(required=False)
    vp_a = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    vp_b = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    baggage = forms.ChoiceField(required=False)

    def __init__(self, game: Game, *args: Any, lists: Lists | None = None, **kwargs: Any):
        kwargs.setdefault("prefix", f"g{game.pk}")
        super().__init__(*args, **kwargs)
        self.game = game
        event = game.round.tournament
        self.system = event.rules.slug
        self.bands = bands_of(event.scoring or {}) is not None
        a, b = game.player_a.name, game.player_b.name
        choices: list[tuple[str, Any]] = [(SKIP, "—")]
        if game.status == Game.Status.REPORTED:
            choices.append((ACCEPT, _("accept the reported result")))
        if self.system == "urban-war":
            choices += [(NONE, _("no commando destroyed")),
                        ("lost_b", _("commando of %(player)s destroyed") % {"player": b}),
                        ("lost_a", _("commando of %(player)s destroyed") % {"player": a})]
            del self.fields["vp_a"], self.fields["vp_b"]
        elif self.bands:
            choices.append((POINTS, _("as the victory points decide")))
        else:
            choices += [("a", _("%(player)s won") % {"player": a}),
                        ("b", _("%(player)s won") % {"player": b}), (DRAW, _("draw"))]
        self.fields["result"].choices = choices
        if self.system == "whfb" and (event.advanced_rules or {}).get("baggage"):
            self.fields["baggage"].choices = [(SKIP, _("nobody")), ("a", a), ("b", b)]
        else:
            del self.fields["baggage"]
        table = game.table
        labels = {"result": _("Result, table %(table)s"),
                  "vp_a": _("Victory points of %(player)s, table %(table)s"),
                  "vp_b": _("Victory points of %(player)s, table %(table)s"),
                  "baggage": _("Baggage captured by, table %(table)s")}
        names = {"vp_a": a, "vp_b": b}
        for name, field in self.fields.items():
            field.label = labels[name] % {"table": table, "player": names.get(name, "")}
        self._list_facts(lists or {})
        for name, field in self.fields.items():
            if name.startswith("vp_"):
                field.widget.attrs.update({"size": 5, "inputmode": "numeric"})

    def _list_facts(self, lists: Lists) -> None:
        """Urban War: the enemy models each side destroyed; Warhammer Battle: each side's units
        that left by the enemy's edge to loot. Offered only for sides with a list."""
        game, table = self.game, self.game.table
        a, b = game.player_a, game.player_b
        if self.system == "urban-war":
            for side, player, enemy in (("a", a, b), ("b", b, a)):
                choices = model_choices(lists.get(enemy.pk, ()))
                if choices:
                    self.fields[f"destroyed_{side}"] = forms.MultipleChoiceField(
                        label=_("Models of %(opponent)s destroyed by %(player)s, table %(table)s")
                        % {"opponent": enemy.name, "player": player.name, "table": table},
                        choices=choices, required=False, widget=forms.CheckboxSelectMultiple)
        elif self.system == "whfb":
            for side, player in (("a", a), ("b", b)):
                choices = unit_choices(lists.get(player.pk, ()))
                if choices:
                    self.fields[f"looting_{side}"] = forms.MultipleChoiceField(
                        label=_("Units of %(player)s that left to loot, table %(table)s")
                        % {"player": player.name, "table": table},
                        choices=choices, required=False, widget=forms.CheckboxSelectMultiple)

    def fact_fields(self) -> list[forms.BoundField]:
        """The per-side fields picked from the lists (destroyed models, looting units)."""
        prefix = LIST_FACTS.get(self.system)
        return [self[name] for name in self.fields if prefix and name.startswith(f"{prefix}_")]

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
        ids = {"a": game.player_a_id, "b": game.player_b_id}
        choice = data["result"]
        if choice == ACCEPT:
            return None
        if self.system == "urban-war":
            loser = {"lost_a": ids["a"], "lost_b": ids["b"]}.get(choice)
            winner = None if loser is None else (ids["b"] if loser == ids["a"] else ids["a"])
            return results.ResultInput(winner=winner, facts={
                "commando_destroyed": loser, "destroyed": self._by_side("destroyed")})
        vp = {ids[side]: data[f"vp_{side}"] for side in ("a", "b")
              if data.get(f"vp_{side}") is not None}
        facts = None
        if self.system == "whfb":
            facts = {"baggage_captured_by": ids.get(data.get("baggage") or ""),
                     "looting_units": self._by_side("looting")}
        return results.ResultInput(winner=ids.get(choice), victory_points=vp, facts=facts)
