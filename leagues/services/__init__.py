"""The league's use cases: transactions, row locks and the audit log (events.audit)."""
