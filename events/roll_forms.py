"""The game page's table-roll form: one roll button (or the plain dice's buttons), with the turn
and the note where the kind takes them. A system's kind with fields of its own subclasses it
(systems/<pkg>/rolls.py) and registers it on its `RollKind`."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from systems.rolls import MAX_WHAT, TableRollRequest, roll_kind, roll_kinds


class TableRollForm(forms.Form):
    """One roll button; ``turn`` and ``what`` only where the kind needs them. ``players`` are
    the game's two players, for the kinds that name one (Dynamics, Urban War)."""

    kind = forms.ChoiceField(widget=forms.HiddenInput)
    turn = forms.TypedChoiceField(label=_("Turn"), coerce=int, required=False)
    what = forms.CharField(label=_("What for (optional)"), max_length=MAX_WHAT, required=False)
    nonce = forms.CharField(max_length=32, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, turns: tuple[int, ...] | range = (),
                 players: tuple[Any, ...] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.name, k.name) for k in roll_kinds()]
        self.fields["turn"].choices = [(t, str(t)) for t in turns]
        self.players = players

    def request(self) -> TableRollRequest:
        data = self.cleaned_data
        return TableRollRequest(kind=data["kind"], turn=data.get("turn"),
                                what=data.get("what", ""), nonce=data.get("nonce", ""))

    def player_choices(self) -> list[tuple[str, str]]:
        return [(str(p.pk), p.name) for p in self.players]


def roll_form_class(kind: str | None) -> type[TableRollForm]:
    found = roll_kind(kind)
    return found.form if found is not None and found.form is not None else TableRollForm
