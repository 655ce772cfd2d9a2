"""The W40K Dynamics demo event (events/demo_systems.py): the demo's legal chart list, 3 rounds
at 1500 points, Cities of Death missions at level alpha."""
from events.demo_systems import DemoEvent, chart_list, system_fields
from events.services.results import ResultInput
from missions.models import Level

DEMO_EVENT = DemoEvent(
    "demo-dynamics", "Demo — W40K Dynamics",
    lambda: {**system_fields("w40k4", "w40k4-standard"), "points_limit": 1500, "rounds": 3,
             "level": Level.objects.get(slug="alpha"), "turn_system": "dynamics"},
    chart_list,
    lambda g: ResultInput(winner=g.player_a_id,
                          victory_points={g.player_a_id: 900, g.player_b_id: 400}),
)
