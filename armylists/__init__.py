"""Army lists: game systems' reference data, the count-based check, roster import, stored lists.

Reference data. ``data/w40k4.json`` holds the Warhammer 40,000 game system, its five slots
(French and English names, and the roster category aliases), its factions and the charts
``w40k4-standard``, ``strike-and-withdraw-attacker`` and ``strike-and-withdraw-defender``. A
chart row stores compulsory and optional choices: min = compulsory, max = compulsory +
optional, and an empty optional means no upper limit. ``whfb.json``, ``urban_war.json`` and
``epic40k.json`` hold the other systems' kinds, slots, charts with their ``rules``, factions
with rule tags and Urban War profile cards. Migrations ``armylists`` 0002, 0004 and 0005 load
them once into a fresh database (``catalogue.py``); from then on staff edit them in the admin
(``admin.py``). Editing a chart queues the task ``armylists.revalidate_chart_lists``
(``tasks.py``), which checks every stored list of that chart again. What each game system
reads and checks is its ``ListRules``, found by slug through ``systems/registry.py``
(``armylists/systems/``); the code asks the registry and never names a system.

How a count-based list is checked:

1. The client sends ``units``, a ``roster`` (pasted text or base64) or a multipart
   ``roster_file``.
2. ``roster/`` (pure) reads a roster: the format comes from the upload's signature (the
   signature wins over a stated format), XML is parsed with defusedxml (no DTD, no entities),
   and caps bound the upload size, the inflated size and ratio, the nesting depth and the entry
   count. A unit's slot comes from its roster category through the slot aliases stored in the
   database. A file it cannot read raises ``RosterUnreadable``, which the API answers with a 400
   ``roster_unreadable``; a roster of another game or of a later edition is read with a warning.
   A typed unit's ``slot`` must be one of its system's slot codes or null, else the body is
   malformed (a 400 field error per unit); a roster's unknown category stays a warning.
3. ``validation.validate(entries, chart_spec, points_limit)`` (pure) returns every problem at
   once, as codes with parameters; ``roster/warnings.py`` merges the reader's warnings with the
   validator's, so each problem is reported once.
4. The stored report is language-neutral, codes and parameters only (``chart_reports.py``);
   ``render_report`` adds each problem's ``message`` in the reader's language when the report
   is read (``messages.py``).

Stored lists (``models.ArmyList``, ``services.py``): a list keeps its raw upload, the entries read
from it, the import warnings and the report; a system with list rules of its own also keeps in
the report what its check read beside the items (``inputs``), so a chart edit re-checks the
list with the same rules. A new version links to the one it
supersedes; no version is ever overwritten. The events context submits a tournament player's
list through these services (``events/services/lists.py``).

Public API (``api.py``, ``systems_api.py``): ``charts/`` (``?game_system=``, an unknown system is
400 ``game_system_unknown``), the stateless ``lists/validate/``, a signed-in player's ``lists/``,
and the reference data ``game-systems/``, ``factions/`` and ``profiles/``.

Tests read every file of ``../shared/real-rosters`` (``tests/lists/test_real_rosters.py``).
"""
