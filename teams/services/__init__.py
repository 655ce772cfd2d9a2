"""Team events' use cases: settings, team registration, rounds of team matches, drafts,
standings. They own transactions, row locks, hidden information and the audit log."""
