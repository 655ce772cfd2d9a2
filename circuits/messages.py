"""Circuit refusals: the engine's codes worded in the reader's language."""
from __future__ import annotations

from django.utils.translation import gettext as _

from config.refusals import CodedRefusal, Invalid


def sentence(code: str, params: dict) -> str:
    words = {
        "circuit_method_unknown": lambda: _("Unknown ranking method “%(method)s”: use placement, elo or glicko2."),
        "circuit_curve_unknown": lambda: _("Unknown curve “%(curve)s”: use linear or t3."),
        "circuit_weights_invalid": lambda: _("Weights must be a list of numbers, none negative."),
        "circuit_setting_invalid": lambda: _("The setting “%(setting)s” has a value that cannot be used."),
        "circuit_place_beyond_players": lambda: _("Place %(place)s is beyond the %(players)s players of the event."),
        "circuit_player_placed_twice": lambda: _("A player is placed twice in the same event."),
        "circuit_game_player_twice": lambda: _("A game names the same player twice."),
        "circuit_game_winner_unknown": lambda: _("A game's winner did not play in it."),
        "circuit_result_in_future": lambda: _("The result is dated %(date)s, in the future."),
        "circuit_result_invalid": lambda: _("An event needs at least one player and a number of rounds."),
    }
    text = words.get(code)
    return text() % params if text else _("This input cannot be used.")


def worded(refusal: CodedRefusal) -> Invalid:
    return Invalid(sentence(refusal.code, refusal.params), refusal.code, **refusal.params)
