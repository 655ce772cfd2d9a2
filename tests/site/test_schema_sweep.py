"""The fuller schema sweep that .ci/run starts after the suite: every operation, as anonymous,
player and organiser, through every schemathesis check (test_api_robustness.py's harness), with
many more calls than the suite makes, then the hostile calls. Runs only with
MUSTER_SCHEMA_SWEEP=1; MUSTER_SWEEP_EXAMPLES sets the calls per operation and caller:

    MUSTER_SCHEMA_SWEEP=1 .venv/bin/python -m pytest tests/site/test_schema_sweep.py -p no:xdist -m sweep
"""
from __future__ import annotations

import os

import pytest

from tests.site import test_api_robustness as harness

# The harness' fixtures: the seeded world, and the connection kept across in-process calls.
world = harness.world
keep_test_connection = harness._keep_test_connection
CALLERS = harness.CALLERS

EXAMPLES = int(os.environ.get("MUSTER_SWEEP_EXAMPLES", "15"))

pytestmark = [
    pytest.mark.sweep,
    pytest.mark.skipif(os.environ.get("MUSTER_SCHEMA_SWEEP") != "1",
                       reason="the full schema sweep runs from .ci/run (MUSTER_SCHEMA_SWEEP=1)"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
def test_sweep_every_operation(world, caller):
    failures = harness.check_schema(world, caller, EXAMPLES)
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
def test_sweep_hostile_calls(world, caller):
    failures = harness.hostile_failures(world, caller, max(2, EXAMPLES // 10))
    assert not failures, "\n".join(failures)
