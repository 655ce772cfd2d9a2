"""A sixth game system defined in the tests only ("Skirmish"): proof that a system is a plug-in."""
