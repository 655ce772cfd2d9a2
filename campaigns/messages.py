"""Epic 40,000 campaign codes (campaigns/engine/) as sentences in the reader's language; the code
stays the stable part. Codes not listed here fall back to missions.systems_messages."""
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from missions.systems_messages import system_message

MESSAGES = {
    # Stateless tools.
    "strategic_value_out_of_range": _("The strategic value must be a whole number from %(min)s to %(max)s."),
    "score_event_incomplete": _("Score event %(position)s (%(kind)s) needs “%(field)s”."),
    "territory_unknown": _("“%(territory)s” is not a territory of the map (West 1–9, East A–I)."),
    # Army (R1–R3).
    "army_points_over": _("The detachments total %(total)s points; the army is %(limit)s (%(excess)s too many)."),
    "supreme_commander_limit": _("%(count)s detachments are Supreme Commanders; an army may have at most %(max)s."),
    "supreme_commander_exception": _(
        "%(count)s Supreme Commander detachments: allowed for this army (the Tyranid and Eldar exception)."
    ),
    "detachment_name_duplicate": _("Two detachments are called “%(name)s”; give each one its own name."),
    # Orders (R9–R10, R26–R29, R34).
    "phase_closed": _("This order belongs to another phase; now: %(phase)s."),
    "territory_required": _("Name the territory the order goes to."),
    "detachments_required": _("Name at least one detachment."),
    "detachment_listed_twice": _("A detachment is named twice in this order."),
    "detachment_unknown": _("You have no detachment called “%(detachment)s”."),
    "detachment_not_on_map": _("“%(detachment)s” is not on the map."),
    "air_mission_required": _("“%(detachment)s” is an air detachment: it acts through an air mission."),
    "detachment_not_in_territory": _("“%(detachment)s” is not in territory %(territory)s."),
    "single_detachment_required": _("Each move, reaction and infiltration takes exactly one detachment."),
    "not_adjacent": _("Territories %(from)s and %(to)s are not adjacent."),
    "line_requirement": _(
        "To attack %(territory)s you need troops in the defender's line %(line)s first."
    ),
    "move_into_enemy": _("Territory %(territory)s is held by the enemy: enter it with an attack, not a move."),
    "major_unguarded": _("Major territory %(territory)s must always keep a detachment to guard it."),
    "detachment_isolated": _(
        "“%(detachment)s” is isolated in %(territory)s: it cannot move or react this turn."
    ),
    "isolated_attack_limit": _("Isolated territory %(territory)s may launch only one attack per turn."),
    "multiple_attacks_unsupported": _(
        "Territory %(territory)s has already attacked this turn; several attacks from one territory "
        "need the multiple-attack rules, which the campaign rules do not give."
    ),
    "move_allowance_exceeded": _("All your moves are used this turn (%(limit)s, plus any Supreme Commander move)."),
    "attack_allowance_exceeded": _(
        "All your attacks are used this turn (%(limit)s, plus any Supreme Commander hasty attack)."
    ),
    "reaction_allowance_exceeded": _("All your reactions are used this turn (%(limit)s)."),
    "detachment_already_committed": _("“%(detachment)s” has already attacked or reacted this turn."),
    "target_friendly": _("You already hold territory %(territory)s."),
    "territory_not_controlled": _("You do not hold territory %(territory)s."),
    "already_fortified": _("Territory %(territory)s is already fortified or being fortified."),
    "reaction_attack_unknown": _("There is no enemy attack numbered %(for_attack)s to react to."),
    "reaction_target_mismatch": _("That attack is against %(attacked)s, not %(territory)s."),
    "reaction_source_under_attack": _("Territory %(territory)s is under attack: its detachments cannot react."),
    "reaction_source_not_adjacent": _(
        "Reacting detachments come from a territory next to %(to)s or in its line; %(from)s is neither."
    ),
    # Infiltration (R25).
    "not_infiltrator": _("“%(detachment)s” has no unit tagged infiltrator: it cannot infiltrate."),
    "infiltration_not_adjacent": _(
        "Infiltration goes from a territory adjacent to its target; %(from)s and %(to)s are not adjacent."
    ),
    "mission_already_used": _("“%(detachment)s” has already carried out its mission this turn."),
    "infiltration_phase_closed": _("Infiltrations are resolved while the infiltration phase is open; now: %(phase)s."),
    # Air missions and landings (R13, R14, R19–R24, R28, R29, R34, G28).
    "air_detachment_required": _("“%(detachment)s” is not an air detachment: only air detachments fly missions."),
    "mission_unknown": _("“%(mission)s” is not an air mission: infiltration, interception, transport or escort."),
    "base_not_friendly": _("“%(detachment)s” is based in %(territory)s, which you no longer hold."),
    "route_required": _("Give the route: the territories flown over up to %(to)s, the target last."),
    "route_not_adjacent": _("Route (%(route)s): %(from)s and %(to)s are not adjacent."),
    "route_end_mismatch": _("Route (%(route)s) ends in %(territory)s instead of %(expected)s."),
    "escort_of_not_escort": _("Only an escort mission is linked to another mission."),
    "escort_target_unknown": _("You have no air mission numbered %(escort_of)s this turn to escort."),
    "escort_target_invalid": _(
        "An escort goes with an infiltration or transport mission, not a %(mission)s mission."
    ),
    "escort_target_mismatch": _("The escorted mission flies to %(expected)s, not %(territory)s."),
    "transport_target_mismatch": _(
        "“%(detachment)s” flies its transport mission to %(expected)s: it can attack or carry troops only there, "
        "not %(territory)s."
    ),
    "transport_troops_required": _(
        "“%(detachment)s” flies a transport: name the detachments of its base it carries."
    ),
    "transport_single_carrier": _(
        "One air detachment carries a transport: “%(detachment)s” is a second one."
    ),
    "transport_already_used": _(
        "“%(detachment)s” already carried troops this turn: its transport mission is used."
    ),
    "escort_not_in_isolated_territory": _(
        "Mission %(escort_of)s flies from isolated territory %(territory)s: only an escort based there "
        "can go with it."
    ),
    "landing_mixed": _("“%(detachment)s” is not in orbit: a landing order names airborne detachments in orbit only."),
    "no_vehicles_in_orbit": _("“%(detachment)s” has no vehicles waiting in orbit."),
    "vehicles_next_turn": _("“%(detachment)s” landed this turn: its vehicles join it with a move in a later turn."),
    "air_phase_not_open": _("No phase of this turn is open yet: roll the air phase's initiative first."),
    # Placement and start (R10, R11, R13).
    "airborne_starts_off_map": _("“%(detachment)s” is airborne: it starts off the map and lands later."),
    "detachment_already_placed": _("“%(detachment)s” is already on the map."),
    "placement_outside_sector": _("Territory %(territory)s is not in your sector."),
    # Turn close (R32, G14).
    "battles_unconfirmed": _("The battle for %(territory)s has no confirmed result yet."),
    "detachment_not_in_battle": _("“%(detachment)s” did not fight for %(territory)s."),
    "stay_invalid": _("“%(detachment)s” is not one of the winner's detachments in %(territory)s."),
    "retreat_choice_required": _("Choose where “%(detachment)s” retreats: %(options)s."),
}

PHASE_NAMES = {
    "air": _("air missions"),
    "infiltration": _("infiltration"),
    "moves": _("moves"),
    "attacks": _("attacks and reactions"),
    "battles": _("battles (no more orders this turn)"),
    "closed": _("the turn is closed"),
    "": _("no phase is open"),
}


def _shown(key: str, value: object) -> object:
    if key == "phase":
        return PHASE_NAMES.get(str(value), value)
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(item) for item in value)
    return value


def campaign_message(code: str, params: Mapping[str, object]) -> str:
    """The sentence for ``code``; an unknown code or bad params fall back to the code itself."""
    text = MESSAGES.get(code)
    if text is None:
        return system_message(code, params)
    shown = {key: _shown(key, value) for key, value in params.items()}
    try:
        return str(text) % shown if "%(" in str(text) else str(text)
    except (KeyError, TypeError, ValueError):
        return code
