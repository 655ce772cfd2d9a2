"""The Warhammer Battle demo event (events/demo_systems.py): an Empire army with stakes and
baggage, ranked by the ÖMS 2011 table."""
from events.demo_systems import DemoEvent, system_fields, system_list
from events.services.results import ResultInput

WHFB_UNITS = [
    {"name": "General", "slot": "lords", "points": 150, "unit_type": "character"},
    {"name": "Halberdiers", "slot": "core", "points": 300, "models": 20, "unit_type": "infantry"},
    {"name": "Crossbowmen", "slot": "core", "points": 200, "models": 10, "unit_type": "infantry",
     "tags": ["shooting"], "options": ["stakes"]},
    {"name": "Knights", "slot": "special", "points": 250, "models": 5, "unit_type": "cavalry"},
    {"name": "Baggage wagon", "slot": "core", "points": 60, "unit_type": "chariot", "baggage": True},
]

DEMO_EVENT = DemoEvent(
    "demo-nuln", "Demo — Warhammer Battle",
    lambda: {**system_fields("whfb", "whfb-open"), "points_limit": 2000, "rounds": 3,
             "advanced_rules": {"stakes": True, "baggage": True},
             "scoring": {"mode": "vp_table", "preset": "oms-2011"}},
    system_list({"faction": "empire", "units": WHFB_UNITS}),
    lambda g: ResultInput(victory_points={g.player_a_id: 1300, g.player_b_id: 650},
                          facts={"baggage_captured_by": g.player_a_id}),
)
