"""Team events: the event's settings, teams and their members, team matches, draft moves and
the games a match made."""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import Game, Player, Round, Tournament

FORMAT = "team"  # the event format's name (events/formats.py), the API's "format"


class TeamEvent(models.Model):
    """A tournament of format ``team``: its settings as the API shows them."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="team_event")
    settings = models.JSONField(_("settings"))

    class Meta:
        verbose_name = _("team event")
        verbose_name_plural = _("team events")

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def size(self) -> int:
        return self.settings["size"]


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    captain = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+", verbose_name=_("captain"))
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_once")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player of the team; ``position`` keeps the order given at registration."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    # One team per player: a Player row belongs to one tournament.
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="team_member")
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "position"]
        constraints = [models.UniqueConstraint(fields=["team", "position"], name="team_position_once")]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class TeamMatch(models.Model):
    """Match ``number`` of a round: two teams (``second`` empty: a bye) on tables
    ``first_table`` … ``first_table + size - 1``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveSmallIntegerField(_("number"))
    first = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+", verbose_name=_("first team"))
    second = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+", null=True, blank=True,
                               verbose_name=_("second team"))
    first_table = models.PositiveSmallIntegerField(_("first table"), null=True, blank=True)
    created_at = models.DateTimeField(_("paired"), default=timezone.now)

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="team_match_number_once")]

    def __str__(self) -> str:
        return f"{self.first} — {self.second}" if self.second_id else f"{self.first} (bye)"

    @property
    def team_ids(self) -> list[int]:
        return [self.first_id] if self.second_id is None else [self.first_id, self.second_id]


class DraftMove(models.Model):
    """One move of a match's draft, in order: the roll-off, a commit, a table; ``auto``: made
    by the server (auto-pick, or no choice left: ``forced``)."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="moves")
    index = models.PositiveSmallIntegerField(_("index"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    phase = models.CharField(_("phase"), max_length=10)
    players = models.JSONField(_("players"), default=list, blank=True)
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    rolls = models.JSONField(_("rolls"), default=list, blank=True)  # the roll-off's dice
    auto = models.BooleanField(_("automatic"), default=False)
    forced = models.BooleanField(_("no choice"), default=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+")
    created_at = models.DateTimeField(_("made"), default=timezone.now)

    class Meta:
        verbose_name = _("draft move")
        verbose_name_plural = _("draft moves")
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="draft_move_index_once")]

    def __str__(self) -> str:
        return f"{self.match} #{self.index} {self.phase}"


class MatchGame(models.Model):
    """A game a team match made, with its role in the draft (empty without a draft)."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="team_game")
    role = models.CharField(_("role"), max_length=10, blank=True)

    class Meta:
        verbose_name = _("team match game")
        verbose_name_plural = _("team match games")

    def __str__(self) -> str:
        return str(self.game)


DOUBLES = "doubles"  # the doubles format's name


class DoublesEvent(models.Model):
    """A tournament of format ``doubles``: its entrants are pairs (a ``Player`` row each, its
    account the first partner's); ``settings["points"]`` is ``per_player`` (each list within the
    event's points limit) or ``per_pair`` (both lists together within it)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="doubles_event")
    settings = models.JSONField(_("settings"))

    class Meta:
        verbose_name = _("doubles event")
        verbose_name_plural = _("doubles events")

    def __str__(self) -> str:
        return str(self.tournament)


class DoublesPartner(models.Model):
    """The second account of a pair (the entrant ``player``) and that partner's list; the
    first partner's list is the player's main list."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="doubles_partner")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("partner"))
    army_list = models.ForeignKey("armylists.ArmyList", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", verbose_name=_("partner's list"))
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("doubles partner")
        verbose_name_plural = _("doubles partners")

    def __str__(self) -> str:
        return f"{self.player}: {self.user}"
