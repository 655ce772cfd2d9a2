"""Unit tests of the pure engines."""
