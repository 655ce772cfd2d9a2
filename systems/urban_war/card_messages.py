"""Profile-card problems (systems/urban_war/profile_cards.py) as sentences in the reader's language."""
from django.utils.translation import gettext_lazy as _

from config.typography import elide
from systems.urban_war.profile_cards import CardProblem, RowError

TEMPLATES = {
    "stats_keys": _("A card has exactly these characteristics: %(expected)s."),
    "stat_out_of_range": _("%(stat)s is %(value)s; it must be at least %(min)s."),
    "stat_above_max": _("%(stat)s is %(value)s; it must be at most %(max)s."),
    "cal_negative": _("“%(cal)s” is not a calibre: a calibre is a whole number, 0 or more."),
    "cal_repeated": _("CAL %(cal)s is given twice."),
    "cal_without_fs": _("CAL %(cal)s has a cost but no First Strike."),
    "cost_negative": _("The cost of %(what)s must be a whole number, 0 or more, or N/A."),
    "option_repeated": _("The option “%(option)s” is given twice."),
    "option_code_missing": _("An option has no code."),
    "cal_cell_invalid": _("“%(value)s” is not a calibre: write cal:fs:cost, e.g. 0:0:20 or 3:-:N/A."),
    "option_cell_invalid": _("“%(value)s” is not an option: write code:cost:English name:French name."),
    "not_a_number": _("%(column)s: “%(value)s” is not a whole number."),
    "value_missing": _("%(column)s is empty."),
    "value_too_long": _("%(column)s is longer than %(max)s characters."),
    "columns_missing": _("The header lacks these columns: %(columns)s."),
    "card_repeated": _("Card %(card)s appears twice in the file."),
    "too_many_rows": _("The file has more than %(max)s cards; split it."),
    "not_text": _("The file is not UTF-8 text (save it as CSV UTF-8)."),
    "faction_unknown": _("There is no faction “%(faction)s” in this game system."),
}


def render_problem(problem: CardProblem) -> str:
    text = TEMPLATES.get(problem.code)
    if text is None:
        return problem.code
    try:
        return elide(str(text) % dict(problem.params)) if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        return problem.code


def render_row_error(error: RowError) -> str:
    return str(_("Line %(line)s: %(problem)s")) % {"line": error.line, "problem": render_problem(error.problem)}
