"""Epic 40,000 map campaigns (seed 001): rows, services, API, pages, cockpit, turn pack.

The rules are the pure engine's (``campaigns/engine/``); this package stores a campaign, applies
the engine's answers under locks, and shows each reader what they may see.

Storage (``models.py``): ``Campaign``, ``CampaignSide``, ``CampaignDetachment``, ``CampaignTurn``,
``CampaignOrder``, ``CampaignBattle``, ``CampaignReveal`` and ``CampaignScoreEntry``. A campaign
reuses the events context: it owns a ``Tournament`` of ``epic40k``, made by the campaign service
(never by ``create_tournament``, which refuses a campaign system), a draft until the start,
running while turns are played, finished at the victory. Its two ``Player`` rows are the sides,
its ``Round``s the turns and its ``Game``s the battles, reported and confirmed through
``games/{id}/report/`` like any game, with ``"campaign": {"swept", "destroyed"}`` kept in the
report's outcome (two players who disagree on losses dispute). Pairing such an event is 409
``campaign_event``; its dice stream is the campaign's.

Services (``services/``), which the API (``api/``), the player's page (``views.py``) and the
organiser's cockpit (``admin/``) all call:

- ``campaign.py``: what the other services share (settings, sides and who acts for them, turns,
  the engine's view of the campaign, the score) and the campaign row lock (``locked``) that
  every change takes first;
- ``setup.py`` (creation, sides, armies, majors, planet) and ``placement.py`` (placement and the
  start), each step with its audit entry on the campaign's tournament;
- ``reads.py``: the public campaign, the score, a side's own army, and the map under hidden
  information;
- ``turns.py`` (phase initiative, orders checked by the engine as they arrive, the close),
  ``declarations.py`` (sealed or alternating declaring, G11), ``battles.py`` (battles from the
  accepted attacks, their campaign facts, stay or retreat choices), ``infiltrations.py`` and
  ``air.py`` (the seed's dice gates of a turn), ``dice.py`` (the campaign's stream, or dice
  thrown at the table with ``"source": "entered"``);
- ``overrides.py``: staff refuse an accepted order or force a refused one (rule refusals only)
  and write manual ledger lines, each with a reason in the audit log;
- ``surrender.py`` (R35): a side's player or staff types the army's name; the campaign and its
  event end at once with the enemy's victory (``"reason": "surrender"``);
- ``pack.py``: the turn pack, a ``MissionPack`` of kind ``turn_pack`` built and served by
  ``printing``, laid out by ``pack_sheets.py`` (``templates/packs/campaign/``);
- ``notices.py`` (words in ``notice_texts.py``): the campaign's e-mails, sent by ``notices``;
- ``backup.py`` and ``restore.py``: the optional ``campaign`` part of the event's backup document.

Hidden information (R12) has one rule, in ``services/reads.py`` and the campaign page's reader:
a player sees their own detachments' names and the enemy ones a battle or an infiltration
revealed (``CampaignReveal``), otherwise army names only; staff see everything. The map API, the
page and its SVG map (``drawing.py``), the e-mails and the turn pack all go through it, and so do
sealed orders, hidden from the enemy until their phase is revealed. A closed turn's maps are
drawn from the snapshot its close keeps in the turn report, with what each player had seen then.

Pages. ``/campaigns/<slug>/`` (``views.py``, ``pages/campaign.py``, ``pages/setup.py``,
``pages/air.py``, ``forms.py``, ``words.py``, ``templates/league/campaign*.html``): during set-up a
side's player enters their army, picks their majors and places their detachments; then the map,
their detachments and what the enemy knows of them, the allowances left, order forms built only
from candidate orders the engine accepts (``choices.py``), battles, reports, choices, the ledger
and the turn reports. Visitors see only the sides, score, turn and phase. A battle's game page
leads to that battle on the campaign page. The cockpit (``admin/cockpit.py``, its buttons in
``admin/cockpit_actions.py`` and what it shows in ``admin/cockpit_context.py``, ``admin/air.py``,
``admin/forms.py``) has the set-up checklist, the phase stepper, the full map, this turn's
orders with refusal and forced acceptance, the battles, the ledger and the turn pack button.

API (``api/``): the contract's endpoints (``api/state.py``) plus ``GET /campaigns/``, a side's own
army and a turn's battles; air missions (``api/air.py``), declaring (``api/declarations.py``), the
turn pack (``api/pack.py``) and the stateless ``epic40k/*`` tools (``api/campaign.py``). Refusal
codes are worded in ``messages.py``.

Backups: ``export_campaign``/``import_campaign`` (and ``export_event``/``import_event``, which take
the same documents), the cockpit's "Whole campaign (JSON)" link and the admin's import page. On
import the slug given is the campaign's and its event's follows; every territory code, side,
detachment name and ref is checked (400 ``backup_damaged``).
"""
