"""League sentences built from stored codes, in the reader's language."""
from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armylists.models import Chart

# Scoring presets (events/scoring.PRESETS) by their stored key.
PRESET_NAMES = {
    "oms-2011": gettext_lazy("ÖMS 2011, the Austrian championship table"),
}


def preset_name(key: str) -> str:
    return str(PRESET_NAMES.get(key, key))


def chart_names(slugs: set[str] | frozenset[str] | None = None) -> dict[str, str]:
    """Chart slug -> its name in the reader's language (one query)."""
    charts = Chart.objects.all() if slugs is None else Chart.objects.filter(slug__in=slugs)
    return {chart.slug: chart.name for chart in charts.only("slug", "name_en", "name_fr")}


def list_problem_text(problem: dict, charts: Mapping[str, str] | None = None) -> str:
    """The flag a game carries when a player lacks a legal list, in the reader's language;
    ``charts`` names the charts by slug (absent: this chart's name is read, one query)."""
    slug = problem["chart"]
    names = chart_names({slug}) if charts is None else charts
    params = {"chart": names.get(slug, slug), "role": role_name(problem.get("role"))}
    if problem["code"] == "list_missing":
        text = _("No list for the %(role)s chart %(chart)s.") if params["role"] else \
            _("No list submitted for the chart %(chart)s.")
    else:
        text = _("The %(role)s list for the chart %(chart)s is not legal.") if params["role"] else \
            _("The list for the chart %(chart)s is not legal.")
    return text % params


def role_name(role: str | None) -> str:
    return {"attacker": _("attacker"), "defender": _("defender")}.get(role or "", "")
