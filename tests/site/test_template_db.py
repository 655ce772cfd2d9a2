"""The xdist workers' shared template database (tests/template_db.py)."""
import pytest
from django.db import connection

from tests import template_db


def test_template_name_fits_postgresql_and_names_the_run(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "NAME", "muster_" + "x" * 80)
    first = template_db.template_name("a" * 32)
    second = template_db.template_name("b" * 32)
    assert len(first) <= 63
    assert first != second
    assert first.startswith("test_muster_")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_worker_has_the_reference_data_serialized():
    """Cloned workers serialize after the copy, as Django does after migrating."""
    assert '"model": "missions.' in connection._test_serialized_contents
