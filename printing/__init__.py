"""Printing: a round's mission pack, its wall sheets and a campaign's turn pack, as PDF files.

Every printed document is a ``MissionPack`` row (``models.py``) of a ``kind``: ``mission_pack``
(a cover, the pairings list and one sheet per table), the wall sheets ``pairings``,
``find_table``, ``standings`` and ``slips``, and an Epic 40,000 campaign's ``turn_pack``. All of
them are asked for, built, stored and served by the same machinery (``services/packs.py``);
what a kind gathers and how it is laid out is the renderer its owner registers
(``renderers.py``), so this package imports none of the contexts whose packs it prints.

How a pack flows:

1. Asked for: ``POST …/rounds/{n}/mission-pack/`` or ``…/wall-sheets/ {"kind"}`` (``api.py``), the
   admin's round action and buttons (``admin.py``) or the campaign's ``…/turns/{n}/pack/`` call
   ``services/packs.request_pack``: a pending row, an audit entry, and the task
   ``league.build_mission_pack`` (``tasks.py``) queued after the commit. A second click gets the
   pack under way back unless it is interrupted (``stale``: no heartbeat nor progress for
   ``MUSTER_PACK_INTERRUPTED_SECONDS``, its worker died; ``heartbeat.py``): the sweep then
   starts it again by itself, a new request supersedes it, and staff may also retry an
   interrupted or failed pack. A pack the broker never took is queued again by the sweep.
2. Gathered in the worker: the renderer reads the round into plain frozen dataclasses in the
   event's language (``data.py``; ``services/mission_pack.py``, ``services/wall_sheets.py``,
   ``campaigns/services/pack.py``); a table sheet's game-system boxes come from
   ``services/sheet_boxes.py``, each box a builder that gives nothing when the event does not
   use it, named in order by the system's event rules (``sheet_blocks``, and ``back_blocks``
   for a second, duplex page).
3. Rendered without the database: ``render.py`` lays each distinct form out once with
   WeasyPrint, reads its slots back (``slots.py``), shapes every per-table text with HarfBuzz
   (``shaping.py``, ``fonts.py``) and writes it into its slot (``stamp.py``); without the fonts
   or HarfBuzz it falls back to WeasyPrint overlays in chunks of ``MUSTER_PACK_CHUNK_TABLES``
   merged with pypdf. Wall sheets and turn packs flow as plain A4 documents (``wall.py``,
   ``campaigns/pack_sheets.py``). The table diagram is SVG drawn to scale (``diagram.py``).
4. Stored: progress is saved after each chunk; the PDF is written into a temporary file of the
   worker, uploaded to the media store (``default_storage``: ``MEDIA_ROOT``, or a bucket with
   MEDIA_STORAGE=s3) under a new name per build, and the pack's row switches to it under its
   lock; the old file is deleted after that, orphans by the packs sweep
   (``services/pack_files.py``). ``GET /mission-packs/{id}/`` follows it and a staff-only view
   downloads it: 200 with the bytes from the disk, or 302 to a signed URL of the bucket
   (``MEDIA_ROOT`` itself is never served).

Invariants:

- A retry never serves half a file, and a done pack with its file is not built again.
- Each build run owns its pack through a token taken under the row lock (``attempt``): a run
  that was superseded, retried or taken over stops at its next write and never moves its file
  in. A pack found running that was already started 3 times fails visibly instead of being
  delivered for ever; temporary files of dead runs are removed. Tasks are acknowledged late
  and given back when their worker dies (the Celery settings in ``config/settings.py``).
- A failure leaves the pack ``failed`` with a readable message.
- A slot's size never depends on its text, so a stamped sheet is the sheet the template would
  give with the text inline; a text that does not fit is shrunk, then wrapped, then cut.
  Sheets with a space-hungry box are laid out denser, so every sheet still fits its A4 page.
- A character the font lacks prints as a box but still extracts as itself (subset fonts with a
  Unicode map), so ``pdftotext`` reads what was meant.

The templates are ``templates/packs/`` (Cities of Death parts in ``blocks/``, system boxes in
``boxes/``, wall sheets in ``wall/``, the turn pack in ``campaign/``); the print stylesheets are
``static/packs/``. ``benchmarks/packs.py`` measures a 500-table pack; figures are in
``docs/performance.md``.
"""
