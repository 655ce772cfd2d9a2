"""Urban War: commandos of profile cards, D10 table rules."""
