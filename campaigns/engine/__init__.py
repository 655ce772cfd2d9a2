"""Epic 40,000 "Laïtus Prime" campaigns (seed 001): the pure campaign engine.

Plain Python over frozen dataclasses, no Django: the map and its lines of resistance (map.py),
armies (army.py), the stateless tools (tools.py), score rules (scoring.py), set-up and placement
(placement.py), the campaign state (state.py), order checks and sealed interleaving (orders.py),
battles from the declared orders (battles.py), the turn close (turn.py) and the seed's own dice
gates for infiltration, Flak and interception (air.py). Rule ids R1–R40 and [Gap] defaults
G1–G30 are those of ../shared/systems/epic-campaign.md; the contract is
../shared/api-v1-systems.md.
"""
