"""Accounts: sign-up, log-in and its limits, password reset, and a player's profile.

Django's own ``User`` is the account; ``models.Profile`` (table ``league_profile``, kept from the
league app) holds what the account prefers: its language (blank follows the browser) and
whether it wants e-mail notices. An account and a tournament's ``Player`` are separate rows:
a player registered by staff may have no account until an invitation links one (venue).

Where each part lives:

- ``services.py``: sign-up and token log-in for the API, and the rate-limited log-in view the
  site's pages use; ``create_account`` is the one place an account is made;
- ``views.py``: the log-in page (a player who logs in during a running event lands on their
  unconfirmed game unless ``next`` says otherwise), the rate-limited password reset, the profile
  (what waits for me, my events and my games) and the language switch;
- ``forms.py``: the sign-up form (through ``create_account``) and the profile's form;
- ``profiles.py``: reading and saving an account's preferences;
- ``login_limits.py``: the per-account limit on failed log-ins, enforced by the only
  authentication backend, so the API, the site and the admin all obey it.

The site's sign-up page itself is in ``events/views/pages.py``, through the same form.

Invariants:

- Usernames are unique whatever their case (an index on ``lower(username)``, migration
  ``league`` 0007): a sign-up that loses the race to the same name gets the "already taken"
  field error, never a 500. Log-in itself stays exact-case.
- Sign-up, log-in and password reset share their rate limits with the API (``config/ratelimit.py``,
  per address, per account, per e-mail address hashed); the reset never says whether an address
  is known, and its limit counts known and unknown addresses alike.
- The language a signed-in player picks is kept on their profile and set again at each log-in,
  so it wins over the browser's from then on.
"""
