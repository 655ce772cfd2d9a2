"""Missions: the Cities of Death catalogue, its pure table engines, and every die Muster rolls.

The catalogue is data. ``data/cities_of_death.json`` holds the 3 levels, the special rules with
their parameters, the 23 stratagems in 5 categories, the 11 missions (each with its objective
kind, roles and role charts, first turn, special rules per level, VP rules, stratagem
exceptions, outcome fields and diagram distances) and the default victory-margin bands.
Migration ``missions`` 0002 loads it once into a fresh database (``catalogue.py``); from then on
staff edit it in the admin (``admin.py``). Where the rules digests (``../shared/rules/``) are
silent the data says so: notes on missions, the margin-band page in the admin, and the engines'
parameters. ``models.py`` holds the rows, ``catalogue_types.py`` the frozen dataclasses the
engines read, and ``services.py`` turns one into the other.

The pure engines (plain Python over frozen dataclasses, no Django) are ``dice``, ``selection``
(the mission roll), ``pregame`` (pre-game and special-rule rolls), ``legality`` (stratagem
declarations), ``victory`` (victory points), ``objectives`` (the winner from the objective
outcome) and ``margin`` (how decisive a win was). Each module cites the rule sections it
implements; a refusal is a ``missions.errors`` code with its values, worded in the reader's
language by ``messages.py`` (``systems_messages.py`` for the other systems' stateless tools).
``api.py`` serves the catalogue and the stateless tools (``missions/roll``, ``missions/pregame``,
``dice/roll``, ``dice/game-length``, ``victory-points``, the stratagem check); the events
context calls the same engines for its rounds, games and reports.

Dice. A ``DiceStream`` row has a seed and a counter; roll *n* of a stream uses
``random.Random(f"{seed}:{n}")``, so any process resumes a stream from its stored counter and
replays it exactly. ``services.rolling(stream)`` locks the stream row, hands out a ``Roller``,
stores every roll it made (purpose, expression, dice, total, who asked, when) and advances the
counter, so concurrent callers queue on the lock. Pairing a round rolls thousands of dice at
once: ``rolling(..., batch=True)`` stores them as one ``DiceBatch`` row instead of a
``DiceRoll`` each; ``logged_rolls`` merges rows and batches roll by roll (for backups), and the
admin shows a batch roll by roll, read-only. The stateless endpoints use a roller of their own
and answer its seed: the seed is the record, and the same seed gives the same answer.

Dice thrown at the table: ``dice.EnteredRoller`` is a ``Roller`` whose faces come from the
request, handed out in order exactly where the seeded roller would roll. Too few faces is 400
``dice_missing``, a face the die cannot show 400 ``dice_invalid``, extras come back as
``unused_dice``, and such answers carry ``"seed": null``. Engines only see a ``Roller``, so every
rolling engine takes entered dice unchanged.

Invariants: every die rolled on the server is logged and nothing is undone; a stream's rolls
depend only on its seed and their number; the catalogue rows are reference data shared by every
event, named by slug in backups.
"""
