"""The sentences of the team engine's refusal codes, in the reader's language."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.refusals import Conflict, Forbidden, Invalid, Refusal, ServiceRefusal
from teams.engine.refusals import TeamRefused


def _sentence(code: str, params: dict[str, Any]) -> str:
    words = {
        "draft_wrong_phase": lambda: _("The draft is not at this phase: it is at “%(phase)s”.")
        % {"phase": params.get("phase", "")},
        "draft_already_committed": lambda: _("Your team has already committed this phase."),
        "draft_not_your_turn": lambda: _("It is the other team's turn to choose a table."),
        "draft_player_unavailable": lambda: _("Player %(player)s cannot be named here.")
        % {"player": params.get("player", "")},
        "draft_player_count": lambda: _("This phase takes %(count)s player(s).")
        % {"count": params.get("count", "")},
        "draft_table_unavailable": lambda: _("Table %(table)s is not free in this match.")
        % {"table": params.get("table", "")},
        "not_captain": lambda: _("Only a captain of this match's teams can do this."),
        "team_game_table": lambda: _("The game-points table is not valid."),
    }
    return words[code]() if code in words else code


STATUSES: dict[int, type[ServiceRefusal]] = {400: Invalid, 403: Forbidden, 409: Conflict}


def worded(exc: TeamRefused) -> Refusal:
    """The engine's refusal as a service refusal with its sentence (same code and status)."""
    refusal = STATUSES.get(exc.status, Invalid)(_sentence(exc.code, exc.params), exc.code, **exc.params)
    refusal.status = exc.status
    return refusal
