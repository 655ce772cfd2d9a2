"""The Urban War demo event (events/demo_systems.py): a commando of eight marines at 250 points,
4 rounds."""
from events.demo_systems import DemoEvent, system_fields, system_list
from events.services.results import ResultInput

COMMANDO = [{"profile": "43101", "cal": cal, "commander": index == 0, "label": f"Marine {index + 1}"}
            for index, cal in enumerate((2, 1, 1, 1, 0, 0, 0, 0))]

DEMO_EVENT = DemoEvent(
    "demo-urban", "Demo — Urban War",
    lambda: {**system_fields("urban-war", "urban-war-commando"), "points_limit": 250, "rounds": 4},
    system_list({"models": COMMANDO}),
    lambda g: ResultInput(winner=g.player_a_id, facts={
        "commando_destroyed": g.player_b_id, "destroyed": {}}),
)
