"""The game side of a system's report, written once per system and read by every door.

A system whose reports carry facts of its own registers on its `GameSystem` (systems/registry):

- ``report_form``: a `SystemReportForm` subclass (systems/<pkg>/report.py). The player's game page
  shows it, the admin game page's "Enter the result as an organiser" posts it, and the results
  grid builds its row's fields from it (``grid_*`` hooks): the same fields, the same content for
  ``results.report`` (whose outcome serializer and ``score`` check what the API sends too).
- ``result_words``: a `ResultWords`, the report's facts in the reader's language, players by
  name (game page, round desk, each report on the admin game page: ``outcome_lines``) and the
  name of the facts picked from the lists (results grid column).

A system without them is a chart game reported by winner and victory points; its reports'
outcome (a Cities of Death mission objective, a campaign battle's detachments) is told by
``outcome_lines`` under the report form's labels."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from config.typography import elide
from events.errors import Invalid
from events.game_forms import NOBODY, ReportPreview, outcome_label
from events.models import Game, Player
from events.scoring import Band, bands_of, tournament_points
from events.services import results
from events.systems import Scored
from systems.registry import game_system

# Player id -> the entries of their current main list (what the forms offer to tick).
Lists = Mapping[int, Sequence[Mapping[str, Any]]]
DRAW = "draw"
SIDES = ("a", "b")


@dataclass(frozen=True)
class ResultWords:
    """A report's system facts in words: ``lines(players, outcome, victory_points, lists)``;
    ``facts_label`` names the facts a results-grid row picks from the lists."""

    lines: Callable[..., list[str]]
    facts_label: Any = ""


def player_id(value: str | None) -> int | None:
    """A radio's player id (its choices are the two players' ids, "none" or "draw")."""
    return None if value in (None, "", NOBODY, DRAW) else int(value)


class SystemReportForm(forms.Form):
    """A report of a system with facts of its own. Subclasses add their fields and build the
    report's content; the preview line is what the service would record from it.

    The results grid reads the same system through the ``grid_*`` class hooks: the row's result
    choices, the fields it adds (picked from the lists) and the content it sends."""

    # The per-side grid fields picked from the lists share this name prefix ("destroyed"...).
    grid_facts: str = ""
    # Whether a grid row asks victory points (False: the system derives them).
    grid_vp: bool = True
    # Column titles of the grid fields not picked from the lists, by field name.
    grid_titles: Mapping[str, Any] = {}

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

    # --- the results grid's row (events/admin/grid_forms) ------------------------------------

    @classmethod
    def grid_results(cls, game: Game, bands: bool) -> list[tuple[str, Any]] | None:
        """The row's result choices beyond "—" and "accept" (None: winner or draw, as a chart
        game's row offers)."""
        return None

    @classmethod
    def grid_fields(cls, game: Game, lists: Lists) -> dict[str, forms.Field]:
        """The fields a row adds for this system, labelled with the table."""
        return {}

    @classmethod
    def grid_content(cls, game: Game, data: Mapping[str, Any],
                     by_side: Callable[[str], dict[str, list[str]]]) -> results.ResultInput | None:
        """The row's report (None: a winner-and-points row, built by the grid)."""
        return None

    # --- the preview ----------------------------------------------------------------------

    def _preview(self) -> ReportPreview:
        try:
            scored = results.preview(self.game, results.ResultInput(**self.content()))
        except Invalid as exc:
            return ReportPreview(problem=str(exc.message))
        except serializers.ValidationError:  # the fields only offer what the outcome takes
            return ReportPreview(problem=str(_("This report cannot be read: check the fields.")))
        winner = next((p for p in self.players if p.pk == scored.winner), None)
        return ReportPreview(known=True, winner=winner,
                             lines=tuple(elide(line) for line in (*self.lines(scored),
                                                                 *self._band_lines(scored))))

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
            choices=[(NOBODY, nobody), *((str(p.pk), elide(words % {"player": p.name, **params}))
                                        for p in self.players)])
        self.initial.setdefault(name, NOBODY)  # also what the first preview reads


def band_points(players: Sequence[Player], victory_points: Mapping[int, int],
                bands: Sequence[Band]) -> str:
    """"Alice 12, Bob 8": each player's tournament points from the victory-point difference."""
    scores = tuple(int(victory_points.get(p.pk, 0)) for p in players)
    result = tournament_points((scores[0], scores[1]), bands)
    return ", ".join(f"{p.name} {tp}" for p, tp in zip(players, result.points, strict=True))


def report_form_class(game: Game) -> type[SystemReportForm] | None:
    """The system's report form (None: the Cities of Death form, or a plain chart game's)."""
    system = game_system(game.round.tournament.game_system.slug)
    return system.report_form if system is not None else None


def result_words(slug: str) -> ResultWords | None:
    system = game_system(slug)
    return system.result_words if system is not None else None


def result_lines(game: Game, outcome: Mapping[str, Any], victory_points: Mapping[str, Any],
                 lists: Lists) -> list[str]:
    """A report's (or the confirmed game's) system facts in the reader's language; empty for a
    system whose reports carry none (the page then lists the victory points as they are)."""
    words = result_words(game.round.tournament.game_system.slug)
    if words is None:
        return []
    lines = words.lines((game.player_a, game.player_b), outcome or {}, victory_points or {}, lists)
    return [elide(line) for line in lines]  # "d'Alix": the system's sentences meet names


def outcome_lines(game: Game, outcome: Mapping[str, Any], victory_points: Mapping[str, Any],
                  lists: Lists) -> list[str]:
    """A report's outcome in sentences, players by name (the admin game page): the system's
    words (its ``result_words``), else the mission objective's facts, then a campaign battle's."""
    outcome = outcome or {}
    if not outcome:
        return []
    facts = {key: value for key, value in outcome.items() if key != "campaign"}
    lines = result_lines(game, facts, victory_points, lists) if facts else []
    if not lines:
        lines = objective_lines(game, facts)
    return [*lines, *campaign_lines(outcome.get("campaign"))]


def _yes_no(value: Any) -> str:
    return str(_("yes")) if value else str(_("no"))


def _fact_value(value: Any, names: Mapping[str, str]) -> str:
    """One fact: by player ("Alice 2, Bob 0"), a player (or nobody), a yes/no or a number."""
    if isinstance(value, Mapping):
        return ", ".join(f"{names.get(str(k), str(_('another player')))} "
                         f"{_yes_no(v) if isinstance(v, bool) else v}" for k, v in value.items())
    if isinstance(value, bool):
        return _yes_no(value)
    if value is None:
        return str(_("nobody"))
    if isinstance(value, int) and str(value) in names:  # a player id (holder, captor...)
        return names[str(value)]
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def objective_lines(game: Game, facts: Mapping[str, Any]) -> list[str]:
    """The mission objective's facts (Cities of Death outcome fields) under their labels."""
    names = {str(p.pk): p.name for p in (game.player_a, game.player_b) if p is not None}
    return [_("%(fact)s: %(value)s.") % {"fact": outcome_label(game, key),
                                         "value": _fact_value(value, names)}
            for key, value in facts.items()]


def campaign_lines(facts: Mapping[str, Any] | None) -> list[str]:
    """A campaign battle's detachments swept from the field or destroyed."""
    facts = facts or {}
    lines = []
    if facts.get("swept"):
        lines.append(_("Detachments swept from the field: %(names)s.")
                     % {"names": ", ".join(facts["swept"])})
    if facts.get("destroyed"):
        lines.append(_("Detachments destroyed: %(names)s.") % {"names": ", ".join(facts["destroyed"])})
    return lines
