"""Muster's project configuration: settings, URLs, the Celery app, and what every context shares.

Running. Every setting comes from the environment (``settings.py``). With none set, Muster runs
embedded: SQLite in ``data/``, Celery tasks run eagerly in the web process, a per-process cache.
SQLite runs in WAL mode with IMMEDIATE transactions and a 20 s busy timeout, so concurrent
writers (players reporting at once, a double-clicked "pair") queue instead of failing;
PostgreSQL connections stay open ``CONN_MAX_AGE`` seconds and are checked before reuse.
``CACHE_URL`` (Redis) shares the cache, and so the event versions and the rate limits, between
processes and machines; without it only one web process may run. With ``CELERY_BROKER_URL`` set,
tasks go through Redis to a Celery worker (``celery.py`` says how to start one); how a task
survives a dead worker is written beside the Celery settings. ``.ci/run`` runs the whole suite
against the machine's PostgreSQL and Redis.

URLs. ``urls.py`` mounts the admin, ``/api/v1/`` (``api_urls.py``, where each context's endpoints
are listed or included) with its schema, and the site's pages (``events/urls.py``).

Refusals and errors. A refusal anywhere is a ``refusals.Refusal``: a stable code, the values of
its sentence and an HTTP status (400 bad input, 403, 404, 409 state). The API maps it in one
place (``api_errors.py``) to ``{"detail", "code"}``, or DRF's field map for a malformed body, so an
API error is always JSON and never a 500; pages show its message. ``errors.py`` gives a JSON 404
under ``/api/`` and a bilingual HTML error page elsewhere; the 500 page needs no database.

Hostile input is refused before a view, a form or the database sees it:

- ``request_guards.py``: a declared body over ``MUSTER_MAX_REQUEST_BYTES`` (unread) and a NUL
  character in the path, query, cookies, headers or form fields;
- ``parsers.py`` and ``input_checks.py``: NUL characters in JSON keys and values, and JSON nested
  deeper than 64 levels, counted before the recursive parser runs;
- ``request_limits.py``: the codes and words of those refusals, and the upload handler that stops
  a file streaming in once past the cap.

Shared helpers:

- ``client_address.py``: the client's address (``REMOTE_ADDR``, or with ``TRUSTED_PROXIES=n`` the
  n-th ``X-Forwarded-For`` entry from the right), read by the rate limits and the audit log;
- ``ratelimit.py``: the rate limits of sign-up, log-in and password reset, shared by the API and
  the pages (``MUSTER_RATE_LIMITS`` overrides them; the per-account log-in limit is in accounts);
- ``i18n.py``: the ``_fr``/``_en`` variant of a bilingual field for the active language;
  ``LocaleMiddleware`` picks the language from the ``set_language`` cookie, then the browser's;
- ``bulk_insert.py`` (PostgreSQL's COPY for large inserts) and ``gc_pause.py`` (the garbage
  collector kept out of a pairing's or a pack build's way);
- ``readonly_admin.py``: the admin of logs and evidence, which shows rows and never changes them.
"""
from .celery import app as celery_app

__all__ = ("celery_app",)
