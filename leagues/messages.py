"""The league's words for the codes it adds to a list report."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

ESCALATION = "escalation_unit_removed"


def problem_text(code: str, params: Mapping[str, Any]) -> str | None:
    if code == ESCALATION:
        return _("Your list for week %(week)s had %(unit)s: this week's list must keep it "
                 "(as many times).") % {"week": params.get("week"), "unit": params.get("unit")}
    return None


def with_league_words(report: dict) -> dict:
    """A rendered list report whose league problems carry their sentence, ``unit`` and ``week``."""
    for problem in report.get("errors", []):
        text = problem_text(problem.get("code", ""), problem.get("params") or {})
        if text is not None:
            problem["message"] = text
            problem.update({k: problem["params"][k] for k in ("unit", "week")})
    return report
