"""Warhammer 40,000 4th edition: Cities of Death missions, or the W40K Dynamics turn system."""
