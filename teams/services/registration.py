"""Teams: registered by staff, or by a registered player who becomes the captain."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Tournament
from events.services.tournaments import locked_tournament
from teams.models import Team, TeamMember
from teams.services.events import team_event


@transaction.atomic
def register_team(actor: Actor, tournament: Tournament, *, name: str, captain: int,
                  members: Sequence[int]) -> Team:
    if actor.user_id is None:
        raise Forbidden(_("Sign in to register a team."), "not_authenticated")
    locked = locked_tournament(tournament)
    size = team_event(locked).size
    if locked.round_set.exists():
        raise Conflict(_("Teams cannot be registered once a round has been paired."), "teams_closed")
    players = {p.pk: p for p in locked.players.filter(pk__in=[*members, captain], dropped=False)}
    if not actor.is_staff:
        own = players.get(captain)
        if own is None or own.user_id != actor.user_id:
            raise Forbidden(_("A player registers a team as its captain: name yourself as captain."),
                            "team_captain_self")
    if len(members) != size:
        raise Invalid(_("A team has exactly %(size)s members; %(given)s were given.")
                      % {"size": size, "given": len(members)}, "team_size", size=size)
    if len(set(members)) != len(members):
        raise Invalid(_("A player is listed twice in this team."), "team_member_twice")
    unknown = [pk for pk in members if pk not in players]
    if unknown:
        raise Invalid(_("Player %(player)s is not registered in this tournament.") % {"player": unknown[0]},
                      "team_player_unknown", player=unknown[0])
    if captain not in members:
        raise Invalid(_("The captain must be one of the team's members."), "team_captain_not_member")
    taken = TeamMember.objects.filter(player_id__in=members).select_related("player", "team").first()
    if taken is not None:
        raise Invalid(_("%(player)s is already in the team %(team)s.")
                      % {"player": taken.player.name, "team": taken.team.name},
                      "team_member_taken", player=taken.player_id)
    name = name.strip()
    if not name or locked.teams.filter(name__iexact=name).exists():
        raise Invalid(_("Another team has this name."), "team_name_taken")
    team = Team.objects.create(tournament=locked, name=name, captain=players[captain])
    TeamMember.objects.bulk_create(TeamMember(team=team, player=players[pk], position=i)
                                   for i, pk in enumerate(members))
    record(actor, "team_registered", locked, team, {"team": team.pk, "members": list(members),
                                                    "captain": captain})
    return team


def teams_of(tournament: Tournament, pk: int | None = None) -> list[Team]:
    teams = tournament.teams.select_related("captain").prefetch_related("members__player")
    return list(teams if pk is None else teams.filter(pk=pk))


def team_data(team: Team) -> dict:
    return {"id": team.pk, "name": team.name, "captain": team.captain_id,
            "members": [{"id": m.player_id, "name": m.player.name} for m in team.members.all()]}
