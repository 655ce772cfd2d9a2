"""The team events' e-mail notice: a team round is paired (issue #26). A team round is created
already published, so this letter takes the place of the events' "round published" one: each
player reads their team's match (opponent, match number, tables) or its bye, and then either
who drafts the games and where to follow the draft (``draft: "wtc"``) or their own game
(``draft: "none"``: table, opponent, mission, link), in their language.

``queue_round_paired`` is called inside the pairing's transaction (notices.outbox: sent after
the commit); the builder reads the committed rows when the task runs and is registered with the
notices dispatcher by ``register`` (TeamsConfig.ready), which skips players who turned notices
off or have no address."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events import formats
from events.messages import role_name
from events.models import Game, Player, Round, Tournament
from notices import letters as registry
from notices import texts
from notices.letters import Letter, absolute, profile_link, stamp_of
from notices.models import Notice
from notices.outbox import queue
from teams.models import Team, TeamEvent, TeamMatch, TeamMember

ROUND_PAIRED = Notice.Kind.TEAM_ROUND_PAIRED  # a notices kind, labelled in the admin
# What a letter reads of a game: not its dice logs nor its pre-game decisions.
NOT_READ = ("rolls", "pregame", "deviations", "list_problems", "declarations")


def queue_round_paired(round_: Round) -> None:
    """Each player of a team round just paired. Keyed by the publication time, as a round's
    publication is (a round paired again would be a new notice)."""
    queue(ROUND_PAIRED, round_.pk, stamp_of(round_.published_at))


@dataclass(frozen=True)
class Side:
    """One team's part in a round, as its players read it."""

    event: Tournament
    settings: dict
    match: TeamMatch
    team: Team
    opponent: Team | None  # None: a bye


def round_paired_letters(round_id: int, stamp: str) -> list[Letter]:
    round_ = Round.objects.select_related("tournament", "mission").filter(pk=round_id).first()
    if (round_ is None or round_.status == Round.Status.DRAFT or round_.published_at is None
            or stamp_of(round_.published_at) != stamp):
        return []  # gone, or published again since (that publication has its own task)
    event = round_.tournament
    team_event = TeamEvent.objects.filter(tournament=event).first()
    if team_event is None:
        return []
    sides: dict[int, Side] = {}
    for match in round_.team_matches.select_related("first__captain", "second__captain"):
        side = partial(Side, event, team_event.settings, match)
        sides[match.first_id] = side(match.first, match.second)
        if match.second is not None:
            sides[match.second_id] = side(match.second, match.first)
    games = _games(round_) if team_event.settings["draft"] == "none" else {}
    members = (TeamMember.objects.filter(team_id__in=list(sides), player__user__isnull=False)
               .select_related("player__user").order_by("team_id", "position"))
    key = f"{round_.pk}@{stamp}"
    return [Letter(event, m.player.user, key,
                   partial(_compose, sides[m.team_id], round_, m.player, games.get(m.player_id)))
            for m in members]


def _games(round_: Round) -> dict[int, Game]:
    """Each player's game of the round (no draft: all made at pairing), in one query."""
    games = round_.games.select_related("mission", "player_a", "player_b").defer(*NOT_READ)
    return {pid: game for game in games for pid in game.player_ids}


def _compose(side: Side, round_: Round, me: Player, game: Game | None) -> texts.Letter:
    name = formats.round_name(side.event, round_.number)  # in the recipient's language
    lines = [_("%(round)s of %(event)s is paired.") % {"round": name, "event": side.event.name},
             ""]
    if side.opponent is None:
        title = _("%(round)s: %(team)s has a bye") % {"round": name, "team": side.team.name}
        lines += _bye(side)
    else:
        title = _("%(round)s: %(team)s against %(opponent)s") % {
            "round": name, "team": side.team.name, "opponent": side.opponent.name}
        lines.append(_match_line(side))
        lines += _draft(side, round_, me) if game is None else _game(side, name, round_, me, game)
    lines += ["", texts.footer(profile_link())]
    return texts.subject(side.event.name, title), "\n".join(lines)


def _match_line(side: Side) -> str:
    first = side.match.first_table
    return _("Your team %(team)s plays %(opponent)s: match %(number)s, tables "
             "%(first)s–%(last)s.") % {
        "team": side.team.name, "opponent": side.opponent.name, "number": side.match.number,
        "first": first, "last": first + side.settings["size"] - 1}


def _bye(side: Side) -> list[str]:
    bye = side.settings["bye"]
    match_points = bye["match_points"]
    game_points = side.settings["size"] * bye["game_points_per_game"]
    return [_("Your team %(team)s has a bye this round.") % {"team": side.team.name},
            _("The bye gives it %(match_points)s and %(game_points)s.") % {
                "match_points": ngettext("%(count)s match point", "%(count)s match points",
                                         match_points) % {"count": match_points},
                "game_points": ngettext("%(count)s game point", "%(count)s game points",
                                        game_points) % {"count": game_points}}]


def _draft(side: Side, round_: Round, me: Player) -> list[str]:
    """The WTC draft: the captains make the games; the players follow it on its page."""
    captain, theirs = side.team.captain, side.opponent.captain
    if captain.pk == me.pk:
        who = _("As your team's captain, you draft the games with %(captain)s, the captain of "
                "%(opponent)s.") % {"captain": theirs.name, "opponent": side.opponent.name}
    else:
        who = _("Your captain %(captain)s drafts the games: who plays whom, and on which "
                "table.") % {"captain": captain.name}
    lines = [who]
    if round_.mission is not None:
        lines.append(_("Mission: %(mission)s") % {"mission": round_.mission.name})
    link = absolute(reverse("team_draft", args=[side.match.pk]))
    return [*lines, "", _("Follow the draft: %(link)s") % {"link": link}]


def _game(side: Side, name: str, round_: Round, me: Player, game: Game) -> list[str]:
    """No draft: the player's own game, as the round-published letter gives it."""
    them = game.player_b if game.player_a_id == me.pk else game.player_a
    table = texts.Table(event=side.event.name, round=name, table=game.table, me=me.name,
                        opponent=them.name if them else None,
                        link=absolute(reverse("game", args=[game.pk])))
    lines = [texts.where(table)]
    mission = game.mission or round_.mission
    if mission is not None:
        lines.append(_("Mission: %(mission)s") % {"mission": mission.name})
    role = game.roles.get(str(me.pk), "") if game.roles else ""
    if role:
        lines.append(_("Your role: %(role)s") % {"role": role_name(role)})
    return [*lines, "", _("Your game: %(link)s") % {"link": table.link}]


def register() -> None:
    """Hand the team round's letter to the notices dispatcher (TeamsConfig.ready)."""
    registry.register(ROUND_PAIRED, round_paired_letters)
