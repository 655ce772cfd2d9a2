"""Unit tests of the army-list validation engine and the roster importers."""
