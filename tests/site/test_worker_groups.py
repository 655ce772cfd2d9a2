"""`make test` runs pytest-xdist with ``--dist loadgroup``: the tests of one ``xdist_group`` run
on one worker (they share a module's expensive set-up, or a resource). pytest-xdist does it by
renaming each grouped test's node id; pytest 9.2 no longer lets it, and every group was then
spread over the workers without a word (hence the pin in pyproject.toml)."""
from __future__ import annotations

import os

import pytest


@pytest.mark.xdist_group("worker_groups_check")
def test_grouped_tests_are_given_to_one_worker(request):
    if os.environ.get("PYTEST_XDIST_WORKER") is None or not request.config.getvalue("loadgroup"):
        pytest.skip("only under pytest-xdist with --dist loadgroup (make test)")
    assert request.node.nodeid.endswith("@worker_groups_check"), request.node.nodeid
