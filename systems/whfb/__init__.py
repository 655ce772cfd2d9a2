"""Warhammer Battle with its advanced rules."""
