"""Campaign states for the order and turn tests, built on the seed's *Exemple de carte*:
west holds 1–9 with majors 1 and 3 (« 1 et 3 sont choisis pour être des territoires
majeurs »), east holds A–I with the mirror majors G and I."""
from dataclasses import replace

from campaigns.engine.army import AIR, AIRBORNE
from campaigns.engine.map import EAST, WEST, full_control
from campaigns.engine.orders import apply_order
from campaigns.engine.state import CampaignState, Detachment, Order

MAJORS = frozenset({"1", "3", "G", "I"})


def det(name, side, location, points=1000, **kwargs):
    return Detachment(name, side, points, location=location, **kwargs)


def example_state(phase="moves", **changes) -> CampaignState:
    """West VS 5 (7 of each action), east VS 3 (6 of each); one Supreme Commander each."""
    detachments = (
        det("Guard 1", WEST, "1"), det("Guard 3", WEST, "3"), det("Reserve", WEST, "2"),
        det("HQ", WEST, "4", 800, supreme_commander=True), det("Titans", WEST, "5", 1500),
        det("Armour", WEST, "7", 1200), det("Infantry", WEST, "8", 900), det("Scouts", WEST, "9", 400),
        det("Thunderhawks", WEST, "2", 500, kind=AIR), det("Drop", WEST, None, 600, kind=AIRBORNE),
        det("Mob G", EAST, "G"), det("Mob I", EAST, "I"), det("Boss", EAST, "D", 700, supreme_commander=True),
        det("Gunz", EAST, "A", 1500), det("Boyz", EAST, "B", 1100), det("Kults", EAST, "C", 800),
        det("Speed", EAST, "E", 600), det("Nobz", EAST, "H", 500),
    )
    state = CampaignState(control=full_control({}), majors=MAJORS, detachments=detachments,
                          strategic_values={WEST: 5, EAST: 3}, phase=phase)
    return replace(state, **changes)


def place(state: CampaignState, side: str, name: str, code: str | None) -> CampaignState:
    return state.moved(side, name, code)


def order(side, kind, detachments=(), from_=None, to=None, for_attack=None) -> Order:
    return Order(side, kind, tuple(detachments), from_, to, for_attack)


def run(state: CampaignState, *orders: Order) -> CampaignState:
    """Apply orders that must all be accepted."""
    for one in orders:
        state, _ = apply_order(state, one)
    return state
