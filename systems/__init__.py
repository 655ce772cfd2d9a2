"""One package per game system (systems/<slug>/), found through systems/registry.py."""
