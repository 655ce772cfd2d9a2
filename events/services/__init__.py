"""League use cases: each owns its transaction, row locks and audit entries."""
