"""Epic 40,000 "Laïtus Prime" campaigns (seed 001): the pure campaign engine.

Plain Python over frozen dataclasses, no Django. Rule ids R1–R40 and [Gap] defaults G1–G30 are
those of ``../shared/systems/epic-campaign.md``; the contract is ``../shared/api-v1-systems.md``.
Each module cites the rules it implements; a rule lives in exactly one of them:

- ``map.py``: the 6×3 grid (West 1–9, East A–I), lines of resistance, adjacency, isolation and
  the nearest friendly territory;
- ``army.py``: an army and its detachments (units with their tags ``infiltrator``, ``flak``,
  ``war_engine``, ``vehicle``), checked before the campaign;
- ``tools.py``: rules that need no campaign state (initiative, planet, phase roll-offs,
  fortifications), behind the public ``epic40k/*`` endpoints;
- ``placement.py``: majors, who places first, where a detachment may be placed, the start;
- ``state.py``: the ``CampaignState`` the checks and the close read (control, positions,
  isolated and fortified territories, the open phase, this turn's orders);
- ``orders.py``: ``check_order`` answers accepted (with the bonus used) or one refusal code, the
  first rule broken in a fixed order; ``apply_order`` gives the next state. Allowances are
  counted from the accepted orders, never stored as counters. It also interleaves a phase's
  sealed orders (``interleave``, ``apply_sealed``);
- ``declaration.py``: who declares next and what each side sees, sealed or alternating (G11);
  ``replay.py``: a turn's orders applied again from its start (after a reveal, or an order an
  organiser took back; forced orders unchecked);
- ``infiltration.py`` (R25, G22) and ``air_missions.py`` (R13, R14, R19–R24, R28–R30, R34):
  infiltrations, air missions with their routes, airborne landings and transports; ``air.py``
  holds the only dice gates the seed itself gives (infiltration faces, Flak, interception).
  The air fights, Flak shots and losses behind those gates are the players' (G27);
- ``battles.py``: the battles the accepted attacks and reactions call for, one per territory;
- ``turn.py``: ``close_turn``: battles applied, isolation, territory score, the other sectors'
  D6, the victory check (G20 order); ``scoring.py`` holds the score rules and the victory.

Dice come in through a ``Roller`` (``missions/dice.py``), so the server's seeded dice and dice
thrown at the table go through the same code. The Django side (rows, locks, hidden information,
pages) is the rest of the ``campaigns`` package.
"""
