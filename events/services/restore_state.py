"""What an import of an event document (``events.services.restore_rows``) holds as it runs:
the document, the rows made so far (document ref -> new id), the warnings to give back; the
lookups its steps, the campaign's and the formats' rebuild foreign keys with; the dice streams
it saves with their rolls."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from events import event_refs
from events.errors import Conflict
from events.models import Round
from events.services import backup_accounts
from events.services.backup_rows import build, create_all, lookup
from missions.models import DiceRoll, DiceStream


class RestoreState:
    """One import: the document, the rows made so far and the warnings to give back."""

    def __init__(self, document: dict[str, Any], slug: str | None) -> None:
        self.doc = document
        # A campaign's document: ``slug`` is the campaign's, and its event's follows
        # (``campaign-<slug>``, as a new campaign's); else the event's.
        self.campaign: Mapping[str, Any] | None = document.get("campaign")
        self.campaign_slug = (slug or self.campaign["slug"]) if self.campaign is not None else None
        self.new_slug = slug
        self.slug = slug or document["tournament"]["slug"]
        self.warnings: list[str] = []
        self.ids: dict[str, dict[int, int]] = {"player": {}, "game": {}, "report": {}, "army_list": {},
                                               "component": {}, "order": {}, "battle": {},
                                               "score_entry": {}}
        self.rounds: dict[int, Round] = {}
        self.accounts = backup_accounts.Accounts({})
        self.counts: dict[str, int] = {}

    # Lookups ----------------------------------------------------------------------------

    def mapped(self, kind: str):
        return lookup(self.ids[kind])

    def refs(self) -> event_refs.Refs:
        return event_refs.Refs(player=self.mapped("player"), game=self.mapped("game"),
                               report=self.mapped("report"), army_list=self.mapped("army_list"),
                               user=self.accounts.pk,
                               component=self.mapped("component"), order=self.mapped("order"),
                               battle=self.mapped("battle"),
                               score_entry=self.mapped("score_entry"))

    def account(self, name: str | None) -> Any:
        """The account of this database ``name`` stands for (found or created first)."""
        return self.accounts.get(name)

    def player(self, ref: Any, *, required: bool = True) -> int | None:
        if ref is None and not required:
            return None
        pk = self.mapped("player")(ref)
        if pk is None:
            raise event_refs.UnknownRef("player", ref)
        return pk

    def game(self, ref: Any) -> int:
        pk = self.mapped("game")(ref)
        if pk is None:
            raise event_refs.UnknownRef("game", ref)
        return pk

    def round_of(self, number: Any) -> Round:
        found = self.rounds.get(number)
        if found is None:
            raise event_refs.UnknownRef("round", number)
        return found

    # Dice streams ----------------------------------------------------------------------

    def _stream(self, key: str, data: Mapping[str, Any]) -> DiceStream:
        stream = DiceStream(key=key, seed=int(data["seed"]), next_sequence=int(data["next_sequence"]))
        stream.clean_fields()
        return self._save_streams([stream])[0]

    def _save_streams(self, streams: list[DiceStream]) -> list[DiceStream]:
        taken = list(DiceStream.objects.filter(key__in=[s.key for s in streams])
                     .values_list("key", flat=True)[:5])
        if taken:
            raise Conflict(_("Dice streams %(keys)s are left over from deleted games and block the "
                             "import.") % {"keys": ", ".join(taken)}, "dice_stream_taken")
        DiceStream.objects.bulk_create(streams, batch_size=500)
        return streams

    def _rolls(self, streams: list[tuple[DiceStream, Mapping[str, Any]]]) -> None:
        rolls = [build(DiceRoll, r, stream=stream, actor=self.account(r.get("actor")))
                 for stream, data in streams for r in data["rolls"]]
        create_all(DiceRoll, rolls)
        self.counts["dice_rolls"] = self.counts.get("dice_rolls", 0) + len(rolls)
