"""Circuit use cases: writes (``circuits.py``), people and keys (``people.py``), computing and
reading the standings (``compute.py``, ``reads.py``), the CSV imports (``imports.py``)."""
