"""The rows of play of an event document made in this database: players and their lists,
rounds with their clocks, games, reports and each table's dice (steps of
``events.services.restore_rows.EventRestore``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from armylists.models import ArmyList, Chart
from events import event_refs
from events.errors import Invalid
from events.models import Game, Player, PlayerList, Report, Round, Tournament
from events.services.backup_rows import build, create_all, distinct_refs
from events.services.restore_state import RestoreState
from events.services.table_rolls import stream_key
from missions.models import DiceStream, Mission
from venue.checkin_codes import new_checkin_code
from venue.clock_models import RoundClock


class PlayRows(RestoreState):
    """The steps that make the players' and the games' rows."""

    def _players(self, tournament: Tournament) -> None:
        rows = self.doc["players"]
        distinct_refs(rows)
        players, holders = [], {}
        for data in rows:
            user = self.account(data.get("username"))
            if user is not None and user.pk in holders:
                raise Invalid(_("The export is damaged: two players share the account “%(username)s”.")
                              % {"username": data["username"]}, "backup_damaged")
            if user is not None:
                holders[user.pk] = data["ref"]
            players.append(build(Player, data, tournament=tournament, user=user,
                                 checked_in_by=self.account(data.get("checked_in_by"))))
        self._check_in_codes(players)
        create_all(Player, players)
        self.ids["player"] = {int(d["ref"]): p.pk for d, p in zip(rows, players, strict=True)}
        self.counts["players"] = len(players)

    def _check_in_codes(self, players: list[Player]) -> None:
        """Players keep their check-in codes (the QR codes they were sent still work), unless a
        code is already in use here (a copy of an event in its own database): then a new one."""
        codes = [p.checkin_code for p in players]
        taken = set(Player.objects.filter(checkin_code__in=codes).values_list("checkin_code",
                                                                              flat=True))
        seen: set[str] = set()
        renewed = 0
        for player in players:
            if player.checkin_code in taken or player.checkin_code in seen:
                player.checkin_code = new_checkin_code()
                renewed += 1
            seen.add(player.checkin_code)
        if renewed:
            self.warnings.append(ngettext(
                "%(count)s player gets a new check-in code: this database already uses theirs.",
                "%(count)s players get new check-in codes: this database already uses theirs.",
                renewed) % {"count": renewed})

    def _lists(self) -> None:
        charts = {c.slug: c for c in Chart.objects.all()}
        chains: list[tuple[int, Mapping[str, Any], list[ArmyList], list[Mapping[str, Any]]]] = []
        for p in self.doc["players"]:
            for lst in p["lists"]:
                if not lst["versions"]:
                    raise Invalid(_("The export is damaged: a list without any version."),
                                  "backup_damaged")
                built = []
                for v in lst["versions"]:
                    if v["chart"] not in charts:
                        raise Invalid(_("This Muster has no chart or level “%(slug)s”.")
                                      % {"slug": v["chart"]}, "backup_reference_missing")
                    built.append(build(ArmyList, v, chart=charts[v["chart"]],
                                       owner=self.account(v.get("owner"))))
                chains.append((self.player(p["ref"]), lst, built, lst["versions"]))
        versions = [v for _p, _l, built, _d in chains for v in built]
        distinct_refs([d for *_rest, docs in chains for d in docs])
        create_all(ArmyList, versions)
        for _p, _l, built, _d in chains:
            for older, newer in zip(built, built[1:], strict=False):
                newer.supersedes = older
        ArmyList.objects.bulk_update(versions, ["supersedes"], batch_size=500)
        self.ids["army_list"] = {int(d["ref"]): v.pk for *_rest, built, docs in chains
                                 for d, v in zip(docs, built, strict=True)}
        heads = [build(PlayerList, {"updated_at": lst.get("updated_at"), "role": lst["role"] or ""},
                       player_id=pid, army_list=built[-1]) for pid, lst, built, _d in chains]
        create_all(PlayerList, heads)
        self.counts.update(lists=len(heads), list_versions=len(versions))

    def _rounds(self, tournament: Tournament) -> list[tuple[Game, Mapping[str, Any]]]:
        """Rounds and their games; returns each game with its part of the document."""
        rows = self.doc["rounds"]
        missions = {m.slug: m for m in Mission.objects.all()}

        def mission(slug: str | None) -> Mission | None:
            if slug is not None and slug not in missions:
                raise Invalid(_("This Muster has no mission “%(slug)s”.") % {"slug": slug},
                              "backup_reference_missing")
            return missions.get(slug) if slug else None

        rounds = [build(Round, r, tournament=tournament, mission=mission(r.get("mission")))
                  for r in rows]
        create_all(Round, rounds)
        self.rounds = {r.number: r for r in rounds}
        clocks = [build(RoundClock, r["clock"], round=round_)
                  for round_, r in zip(rounds, rows, strict=True) if r.get("clock")]
        create_all(RoundClock, clocks)
        self.counts["round_clocks"] = len(clocks)
        docs = [(round_, g) for round_, r in zip(rounds, rows, strict=True) for g in r["games"]]
        distinct_refs([g for _r, g in docs])
        refs = self.refs()
        games = [self._game(round_, g, mission(g.get("mission")), refs) for round_, g in docs]
        create_all(Game, games)
        self.ids["game"] = {int(g["ref"]): game.pk for (_r, g), game in zip(docs, games, strict=True)}
        self.counts.update(rounds=len(rounds), games=len(games))
        return [(game, g) for game, (_r, g) in zip(games, docs, strict=True)]

    def _reports(self, games: list[tuple[Game, Mapping[str, Any]]]) -> None:
        docs = [(game, rep) for game, g in games for rep in g["reports"]]
        distinct_refs([rep for _g, rep in docs])
        refs = self.refs()
        reports = [build(Report, {**rep, **event_refs.report_fields(refs, rep)}, game=game,
                         by_player_id=self.player(rep.get("by_player"), required=False),
                         winner_id=self.player(rep.get("winner"), required=False),
                         reporter=self.account(rep.get("reporter")),
                         confirmed_by=self.account(rep.get("confirmed_by")))
                   for game, rep in docs]
        create_all(Report, reports)
        self.ids["report"] = {int(rep["ref"]): r.pk for (_g, rep), r in zip(docs, reports, strict=True)}
        self.counts["reports"] = len(reports)

    def _table_dice(self, games: list[tuple[Game, Mapping[str, Any]]]) -> None:
        """Each table's own stream (``game:<new id>``) with the seed and counter it had."""
        tables = [(DiceStream(key=stream_key(game.pk), seed=int(g["dice"]["seed"]),
                              next_sequence=int(g["dice"]["next_sequence"])), g["dice"])
                  for game, g in games if g.get("dice")]
        for stream, _data in tables:
            stream.clean_fields()
        self._save_streams([s for s, _d in tables])
        self._rolls(tables)

    def _game(self, round_: Round, data: Mapping[str, Any], mission: Mission | None,
              refs: event_refs.Refs) -> Game:
        players = list(data["players"])
        if len(players) not in (1, 2):
            raise Invalid(_("The export is damaged: a game without one or two players."),
                          "backup_damaged")
        if self.doc.get("version") == 2:
            # Version 2 wrote this outcome with the old database's ids: it is the confirmed
            # report's outcome, which the document holds as references.
            confirmed = [r for r in data.get("reports", []) if r.get("status") == "confirmed"]
            data = {**data, "outcome": confirmed[0].get("outcome", {}) if confirmed else {}}
        return build(Game, {**data, **event_refs.game_fields(refs, data)}, round=round_,
                     mission=mission, player_a_id=self.player(players[0]),
                     player_b_id=self.player(players[1]) if len(players) == 2 else None,
                     winner_id=self.player(data.get("winner"), required=False))
