"""One package per game system (systems/<pkg>/), found through systems/registry.py.

Adding a game system: create ``systems/<pkg>/`` with ``system.py`` exposing ``SYSTEM =
GameSystem(slug=...)``, giving only the parts it has (list rules and their list page and
serializers, event rules and the admin form's wording, a demo event, a tools URL module, list
refusals, a campaign chart; the game side: report form, roll kinds, result words, sheet boxes);
add ``"systems.<pkg>.system"`` to ``settings.MUSTER_GAME_SYSTEMS``; add its reference data (a
``GameSystem`` row, charts, factions) with a migration. Core code finds it by slug and never
names it."""
