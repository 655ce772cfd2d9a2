"""Events: a tournament from registration to final standings (the app labelled ``league``).

The label ``league`` keeps the tables, migrations and content types of the former app.
``models.py`` holds tournaments, players and their lists, rounds, games, result reports and the
audit log. What a game system changes in an event is its ``EventRules`` (``events/systems/``),
found by the system's slug through ``systems/registry.py``; this context never names a system.

Layers. Every change of state goes through ``services/``, which the API (``api.py``,
``rolls_api.py``), the admin cockpit (``admin/``), the player site (``views/``) and the management
commands all call. A service takes an ``Actor`` (account and address, ``audit.py``), checks who
may act, takes its row lock and writes an ``AuditEntry`` (who, when, what, from where). A refusal
is the project's ``Refusal`` (``errors.py``: ``Invalid`` 400, ``Forbidden`` 403, ``NotFound`` 404,
``Conflict`` 409) with a stable code and a translated message; the API answers it as
``{"detail", "code"}``, the admin and the pages (``views/common.attempt``) as a message, never a
500. The pure engines take and return frozen dataclasses: ``pairing/`` (rounds and tables),
``standings.py`` (points, tiebreakers, unique ranks), ``scoring.py`` (``vp_table`` bands) and
``event_refs.py`` (row ids inside JSON fields, for backups).

How an event runs:

- Lifecycle (``services/tournaments.py``, tournament row lock): draft → registration_open →
  lists_locked → running → finished, one step at a time; before running a step may be taken
  back; finishing needs every round complete. The API creates an event open for registration
  unless told otherwise. The slug is the first free one (a lost race on the unique index takes
  the next inside a savepoint); a slug asked for and taken is 409 ``slug_taken``.
- Registration (``tournaments.register_player``): a signed-in player registers themself while
  registration is open; staff register anyone, with or without an account, until the end
  (a CSV file: ``services/imports.py``; factions: ``services/factions.py``).
- Lists (``services/lists.py``, player row lock): checked against the event's chart, or a
  role's chart (``?role=attacker|defender``) in events whose missions can call for one; a new
  version supersedes the old; 409 ``list_locked`` once lists are locked (status or deadline)
  unless staff unlocked that player, which allows one resubmission.
- Pairing (``services/rounds.py``, tournament row then the dice stream): standings → pairing
  engine → tables; the missions and every game's pre-game rolls come from the event's
  ``DiceStream``, logged as one ``DiceBatch``; games are inserted in bulk; the round is
  published unless ``draft`` (a draft is re-paired by the same call). Pairing an event still
  open for registration locks the lists and starts it first, in the same transaction.
- Results (``services/results.py``, the game row): a report is a row of its own, never changed
  but for its status. A player's report makes the game ``reported``; the opponent confirms,
  disputes, or reports too (the same result confirms, another disputes); nobody confirms their
  own report. A staff report is final: it confirms at once, supersedes open reports and settles
  disputes. A confirmed game copies the winner and victory points of the report that settled
  it; byes are confirmed when created. Once every game of a round is confirmed the round is
  ``completed``, and only then can the next one be paired: only the round's last games lock
  the round row, so a round's confirmations do not queue behind each other. Staff enter many
  tables at once in the results grid (``services/result_grid.py``): a table changed meanwhile is
  refused (``game_changed``) with what it became, never overwritten.
- At the table (the game page and ``games/{id}/rolls/``): stratagem declarations
  (``services/declarations.py``) and table rolls on the game's own dice stream
  (``services/table_rolls.py``).
- Standings (``services/standings.py``): confirmed games of published rounds only, one query for
  the players and one for the games, then the pure engine; ``ranking`` is the same, cached.

Replays: a tournament's seed seeds its dice stream and the pairing tie-break, so the same seed
and the same sequence of calls give the same missions, rolls and pairings.

Event cache (``event_cache.py``, ``views/event_sections.py``): the event page, the projector and
``GET …/standings/`` read shared sections keyed by the event's version, which every audited change
moves on; entries expire after 10 minutes, and what is personal is never cached. The sections
come in pages (50 tables, 100 standings or players); ``?q=`` finds a player. After a change one
process rebuilds each entry (its lock) while the others serve its copy of at most 5 s before
(never to staff, nor to a player older than their own game's last report); publishing a round or
completing one builds the sections once after the commit (``tasks.py``, ``league.warm_event``).

Backups (``services/backup.py``, ``restore.py``, ``backup_rows.py``, ``backup_accounts.py``): an
event as a versioned ``muster-event`` document (version 3; version 2 still imports) written in a
fixed number of queries and read back all or nothing, by ``export_event``/``import_event`` and
the admin's export and "Import an event" page. Exporting, importing into an emptied database and
exporting again gives the same document. A campaign's event carries its campaign
(``campaigns/services/backup.py``); CSV sheets to take away are ``services/exports.py``.

Player site (``views/``, ``forms.py``, ``game_forms.py``, ``urls.py``, ``templates/league/``):
server-rendered pages that work without JavaScript. Every action is a form post that redirects
or shows the page again with the errors beside the fields; views only shape input. Each page
runs a small, constant number of queries, asserted at two data sizes in ``tests/events``.

Demo data: ``demo.py`` and ``demo_systems.py``, loaded by ``manage.py demo_data``.
"""
