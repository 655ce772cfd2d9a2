"""One row of the staff results grid: a table's result as an organiser types it, turned into the
content ``results.report`` takes (or None: accept the open report as it stands).

What a row asks depends on the game system: the winner (or a draw) and both sides' victory
points for Warhammer 40,000 and Warhammer Battle (the baggage captor too when the event uses
baggage; under a band table the points decide the result), the destroyed commando for Urban War
(whose victory points the server derives)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Game
from league.scoring import bands_of
from league.services import results

SKIP, ACCEPT, POINTS, DRAW, NONE = "", "accept", "points", "draw", "none"


class GridRowForm(forms.Form):
    result = forms.ChoiceField(required=False)
    vp_a = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    vp_b = forms.IntegerField(min_value=0, max_value=results.MAX_VP, required=False)
    baggage = forms.ChoiceField(required=False)

    def __init__(self, game: Game, *args: Any, **kwargs: Any):
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
            if name.startswith("vp_"):
                field.widget.attrs.update({"size": 5, "inputmode": "numeric"})

    @property
    def sent(self) -> bool:
        """Whether the organiser typed anything in this row (an untouched row is left alone)."""
        if not self.is_bound:
            return False
        return any(self.data.get(self.add_prefix(name), "").strip() for name in self.fields)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        choice = data.get("result", SKIP)
        if choice == SKIP and self.sent:
            raise forms.ValidationError(_("Choose a result for this table, or clear the row."))
        if choice == ACCEPT and any(data.get(k) not in (None, "") for k in ("vp_a", "vp_b")):
            raise forms.ValidationError(
                _("Accepting the reported result takes it as it is: clear the victory points."))
        return data

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
            return results.ResultInput(winner=winner,
                                       facts={"commando_destroyed": loser, "destroyed": {}})
        vp = {ids[side]: data[f"vp_{side}"] for side in ("a", "b")
              if data.get(f"vp_{side}") is not None}
        facts = None
        if self.system == "whfb":
            facts = {"baggage_captured_by": ids.get(data.get("baggage") or "")}
        return results.ResultInput(winner=ids.get(choice), victory_points=vp, facts=facts)
