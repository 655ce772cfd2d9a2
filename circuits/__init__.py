"""Circuits: a ranking of people over a season, from Muster events and events run elsewhere
(contract ``../shared/api-v1-seasons-teams.md`` §1).

Data flows one way: the API, admin and pages call ``services/`` (writes, each bumping the
circuit's ``input_version``; reads); ``services/compute.py`` gathers the inputs (finished Muster
events through the events standings service, results typed in, starting ratings), numbers the
people in key order, runs the pure ``engine/`` and stores one ``Standing`` row per person (with
its breakdown), inline for small inputs or in the worker (``circuits.recompute``) for large
ones; the standings answer ``"computing"`` until ``computed_version`` catches up.
"""
