"""A team event in an event backup, both ways (``EventFormat.backup`` / ``restore``): the
event's settings, its teams and members, every team match with the games it made and its draft
moves, sealed commits included (a backup is staff's, like the audit log it sits beside).

Rows name players and games by the document's refs, teams by their own refs (1, 2, … in id
order), matches by round number and match number, accounts by username; so export → import →
export gives the same part."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from armylists.models import ArmyList, Chart
from events.errors import Conflict, Invalid
from events.models import Tournament
from events.services.backup_rows import (
    build,
    create_all,
    distinct_refs,
    numbering,
    plain,
    row_data,
    username,
)
from teams.models import (
    DoublesEvent,
    DoublesPartner,
    DraftMove,
    MatchGame,
    Team,
    TeamEvent,
    TeamMatch,
    TeamMember,
)
from teams.services.drafts import Draft

COUNTED = ("teams", "team_members", "team_matches", "draft_moves")


def backup_part(tournament: Tournament, refs: Any) -> dict[str, Any]:
    event = TeamEvent.objects.filter(tournament=tournament).first()
    teams = list(Team.objects.filter(tournament=tournament).prefetch_related("members").order_by("pk"))
    team_ref = numbering(t.pk for t in teams)
    matches = list(TeamMatch.objects.filter(round__tournament=tournament).select_related("round")
                   .prefetch_related("match_games", "moves__by").order_by("round__number", "number"))
    accounts = sorted({username(m.by) for match in matches for m in match.moves.all() if m.by_id})
    return {
        "accounts": accounts,
        "settings": event.settings if event else None,
        "teams": [
            {"ref": team_ref[t.pk], **row_data(t), "captain": refs.player(t.captain_id),
             "members": [{"player": refs.player(m.player_id), "position": m.position}
                         for m in sorted(t.members.all(), key=lambda m: m.position)]}
            for t in teams
        ],
        "matches": [
            {"round": match.round.number, **row_data(match), "first": team_ref[match.first_id],
             "second": team_ref.get(match.second_id) if match.second_id else None,
             "games": [{"game": refs.game(mg.game_id), "role": mg.role}
                       for mg in sorted(match.match_games.all(), key=lambda mg: mg.pk)],
             "moves": [{**row_data(m), "team": team_ref[m.team_id],
                        "players": [refs.player(p) for p in m.players], "by": username(m.by)}
                       for m in sorted(match.moves.all(), key=lambda m: m.index)]}
            for match in matches
        ],
    }


def _damaged(why: str) -> Invalid:
    return Invalid(_("The export's team event is damaged: %(reason)s") % {"reason": why}, "backup_damaged")


def restore_part(restore: Any, tournament: Tournament, part: dict[str, Any]) -> dict[str, int]:
    """The team event's rows, made in the import's transaction (``restore``:
    events.services.restore_rows.EventRestore)."""
    if not isinstance(part.get("settings"), dict):
        raise _damaged(_("its settings are missing."))
    create_all(TeamEvent, [TeamEvent(tournament=tournament, settings=part["settings"])])
    rows = part.get("teams", [])
    distinct_refs(rows)
    teams = [build(Team, t, tournament=tournament, captain_id=restore.player(t["captain"])) for t in rows]
    create_all(Team, teams)
    team_id = {int(t["ref"]): made.pk for t, made in zip(rows, teams, strict=True)}

    def team(ref: Any) -> int:
        if ref not in team_id:
            raise _damaged(_("a match names team %(ref)s, which it does not hold.") % {"ref": ref})
        return team_id[ref]

    members = [build(TeamMember, {"position": m["position"]}, team=made, player_id=restore.player(m["player"]))
               for t, made in zip(rows, teams, strict=True) for m in t["members"]]
    create_all(TeamMember, members)
    match_rows = part.get("matches", [])
    matches = [build(TeamMatch, m, round=restore.round_of(m["round"]), first_id=team(m["first"]),
                     second_id=team(m["second"]) if m.get("second") is not None else None)
               for m in match_rows]
    create_all(TeamMatch, matches)
    links = [MatchGame(match=made, game_id=restore.game(g["game"]), role=g.get("role") or "")
             for m, made in zip(match_rows, matches, strict=True) for g in m["games"]]
    create_all(MatchGame, links)
    moves = [build(DraftMove, {**d, "players": [restore.player(p) for p in d.get("players", [])]},
                   match=made, team_id=team(d["team"]), by=restore.account(d.get("by")))
             for m, made in zip(match_rows, matches, strict=True) for d in m["moves"]]
    create_all(DraftMove, moves)
    _check_drafts(matches, {made.pk for made, m in zip(matches, match_rows, strict=True) if m["moves"]})
    return {"teams": len(teams), "team_members": len(members), "team_matches": len(matches),
            "draft_moves": len(moves)}


def _check_drafts(matches: list[TeamMatch], drafted: set[int]) -> None:
    """Every restored draft replays (a damaged one would break the match's page later)."""
    for match in TeamMatch.objects.filter(pk__in=drafted).select_related(
            "round__tournament__team_event", "first", "second"):
        try:
            Draft(match)
        except (RuntimeError, Conflict):
            raise _damaged(_("the draft of match %(number)s of round %(round)s does not replay.")
                           % {"number": match.number, "round": match.round.number}) from None


# Doubles -------------------------------------------------------------------------------------

def doubles_part(tournament: Tournament, refs: Any) -> dict[str, Any]:
    """A doubles event's settings and each pair's partner with every version of their list
    (oldest first; the first partner's lists are the player's, in the document already)."""
    event = DoublesEvent.objects.filter(tournament=tournament).first()
    partners = list(DoublesPartner.objects.filter(player__tournament=tournament)
                    .select_related("user").order_by("player_id"))
    # Every version of a partner's list is theirs (``submit_partner_list``): one query for all.
    owned = {a.pk: a for a in ArmyList.objects.filter(owner_id__in={p.user_id for p in partners})
             .select_related("chart")}
    return {
        "accounts": sorted({username(p.user) for p in partners}),
        "settings": event.settings if event else None,
        "partners": [
            {"player": refs.player(p.player_id), "username": username(p.user), "created_at": plain(p.created_at),
             "lists": [{**row_data(v), "chart": v.chart.slug} for v in _chain(owned, p.army_list_id)]}
            for p in partners
        ],
    }


def _chain(owned: dict[int, ArmyList], pk: int | None) -> list[ArmyList]:
    """The versions ending with list ``pk``, oldest first (a cycle cut at its first repeat)."""
    chain: list[ArmyList] = []
    while pk is not None and pk in owned and owned[pk] not in chain:
        chain.append(owned[pk])
        pk = owned[pk].supersedes_id
    return chain[::-1]


def doubles_restore(restore: Any, tournament: Tournament, part: dict[str, Any]) -> dict[str, int]:
    if not isinstance(part.get("settings"), dict):
        raise _damaged(_("its settings are missing."))
    create_all(DoublesEvent, [DoublesEvent(tournament=tournament, settings=part["settings"])])
    charts = {c.slug: c for c in Chart.objects.filter(
        slug__in={v["chart"] for p in part.get("partners", []) for v in p["lists"]})}
    partners, versions = [], 0
    for data in part.get("partners", []):
        user = restore.account(data["username"])
        previous = None
        for version in data["lists"]:
            if version["chart"] not in charts:
                raise _damaged(_("a partner's list names the chart %(chart)s.") % {"chart": version["chart"]})
            made = build(ArmyList, version, owner=user, chart=charts[version["chart"]], supersedes=previous)
            create_all(ArmyList, [made])
            previous, versions = made, versions + 1
        partners.append(build(DoublesPartner, data, player_id=restore.player(data["player"]), user=user,
                              army_list=previous))
    create_all(DoublesPartner, partners)
    return {"doubles_partners": len(partners), "partner_list_versions": versions}
