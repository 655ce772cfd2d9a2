"""Team events (issue #26): the pure engine. Plain Python over frozen dataclasses, no Django.

- ``scoring.py``: game points from a victory-point difference (the ``gt-20`` preset or a table),
  a team match's result by mode (``sum``, ``cutoff``, ``clamp``);
- ``standings.py``: team standings (match points, game points, head-to-head);
- ``swiss.py``: team Swiss pairing (no rematch, bye to the lowest-ranked team without one);
- ``draft.py``: the WTC draft, move by move (``replay`` folds the stored moves into a state,
  ``apply`` checks one more, ``forced_moves`` are the server's own, ``random_move`` auto-picks).

Refusals are ``DraftRefused`` (a ``CodedRefusal``): a code, its parameters and an HTTP status;
``teams/messages.py`` words them.
"""
