"""The venue: what an organiser runs on the day beside pairing and results.

Five parts, each a service (``services/``) that the admin pages (``admin/``), the API modules and
the site's pages (``views/``) all call, with the acting account as the actor: the service checks
who may act, takes the row lock and writes the audit entry. The rows are in ``*_models.py``,
gathered by ``models.py`` (the app's label is ``venue``; tournaments, players and rounds are the
events context's).

- Round clock (``services/clock.py``, ``clock_models.py``, ``clock_words.py``, ``clock_api.py``,
  the round desk in ``events/admin/round_desk.py``): start (150 minutes unless told), pause,
  resume, extend and end, under the round's row lock. Only moments are stored and the time
  left is computed from them and the server's clock, so the projector, the game page
  (``static/countdown.js``), the admin and the API agree. A round that is over is 409
  ``round_finished``; a move the clock's state does not allow is a ``clock_*`` 409. The round's
  GET carries ``clock``.
- Projector (``views/projector.py``, ``static/projector.js``): a public page in the event's
  language with the clock, the tables, an accent-insensitive "find your table" list and the
  standings, sized to the screen. The script polls a small state answer every 5 s, counts down
  in between, reloads the lists when the round or its results change and turns pages that do
  not fit; without the script the page refreshes itself.
- Check-in (``services/checkin.py``, ``checkin_codes.py``, ``checkin_models.py``, ``qr.py``,
  ``admin/checkin.py``, ``checkin_api.py``, ``views/checkin.py``): every player has a personal
  code of 12 characters from an unambiguous alphabet (about 59 bits), unique across events,
  shown with a QR code (SVG drawn on the server) on the event page and the profile. Staff type,
  paste or scan it; a wrong code, another event's code or a dropped player is refused with its
  own message, and checking in twice changes nothing. While an organiser keeps the self
  check-in window open, a venue QR code (a new token each time it opens) lets a signed-in
  registered player check themself in. The cockpit lists who is missing.
- Awards and penalties (``services/awards.py``, ``award_models.py``, ``awards_api.py``,
  ``admin/awards.py``, ``views/awards.py``): per-event components (award or penalty, an integer
  weight, whether players may vote, whether it counts in the ranking), one staff value per
  player (a penalty needs a reason) and player votes (one per component, never for oneself).
  The pure standings engine (``events/standings.py``) adds them as ``extra`` points to the
  tournament points only; tiebreakers and pairing stay on game points. ``GET …/standings/``
  adds ``extras``, and ``?extras=without`` ranks without them.
- Walk-ins (``services/invitations.py``, ``views/invitations.py``, ``admin/walkins.py``): staff
  e-mail a registration without an account a signed link that expires after
  ``MUSTER_INVITATION_DAYS``; the invited user signs in or up and confirms. The same admin
  module makes finishing an event ask for its name typed (the API's status endpoint does not).

Everything here is in the event's backup document (clocks, the self check-in window, who
checked each player in, check-in codes, awards with their entries and votes): see
``events/services/backup.py``.
"""
