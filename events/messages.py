"""League sentences built from stored codes, in the reader's language."""
from django.utils.translation import gettext as _


def list_problem_text(problem: dict) -> str:
    """The flag a game carries when a player lacks a legal list, in the reader's language."""
    params = {"chart": problem["chart"], "role": role_name(problem.get("role"))}
    if problem["code"] == "list_missing":
        text = _("No list for the %(role)s chart %(chart)s.") if params["role"] else \
            _("No list submitted for the chart %(chart)s.")
    else:
        text = _("The %(role)s list for the chart %(chart)s is not legal.") if params["role"] else \
            _("The list for the chart %(chart)s is not legal.")
    return text % params


def role_name(role: str | None) -> str:
    return {"attacker": _("attacker"), "defender": _("defender")}.get(role or "", "")
