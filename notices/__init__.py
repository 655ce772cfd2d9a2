"""E-mail notices: what the services queue, and the one machinery that sends them.

Players hear by e-mail when a round is published (their table, opponent, role, mission or
scenario), when their opponent reports (with a link to confirm or dispute), when staff settle
their disputed game, when lists lock (their list valid, invalid or missing), and when they are
registered (self sign-up, staff, a CSV import, or a walk-in linked to an account: the event, its
date, their check-in code and its QR code as an inline image). Walk-ins get their invitation
link, and an Epic 40,000 campaign's players hear of its phases, battles, choices, placement,
declaring, turn close and surrender.

How a notice flows:

1. A service queues it inside its own transaction (``outbox.py``): a row, and the task queued by
   name after the commit. A refused or rolled-back action sends nothing; a broker that cannot
   be reached delays the mail rather than failing the action, and the sweep queues it again.
2. The Celery task ``league.send_notices`` (invitations: ``league.send_invitation``) runs
   ``services.send``, which asks the context that owns the kind for its letters: each context
   registers its builders at start-up (``letters.py``), so this package imports none of them.
3. For each recipient ``services.send`` skips players without an account or an address, or who
   turned notices off on their profile, then claims a ``Notice`` row keyed by (event, recipient,
   kind, object) under its unique constraint before sending (``models.py``).

Invariants:

- At most once: a task delivered twice, or run by two workers, sends each e-mail once; a
  worker that dies between the claim and the send loses that mail rather than risk a second.
  A failed send marks its row failed, and a later retry may claim it again.
- Each mail is in the recipient's language (their profile's, else the event's), plain text with
  absolute links from ``SITE_URL`` (the words: ``texts.py``, and each context's own texts).
- A letter says only what its recipient may see (a campaign's hidden detachments stay hidden).
- Sent notices and opt-outs are not part of an event's backup: a send log and an account's
  setting. The admin shows the notices read-only (``admin.py``).
"""
