"""A league's settings and weeks, declared byes and the lists players bring each week.

The weeks' games are ``events`` games of the round with the week's number."""
from django.db import models
from django.utils.translation import gettext_lazy as _

from armylists.models import ArmyList
from events.models import Player, Tournament


class League(models.Model):
    """The settings of a tournament of format ``league``."""

    class Mode(models.TextChoices):
        OPEN_PLAY = "open_play", _("open play")
        WEEKLY_SWISS = "weekly_swiss", _("one Swiss round a week")

    class Rematch(models.TextChoices):
        NEVER = "never", _("never")
        ALLOWED = "allowed", _("allowed")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True,
                                      related_name="league")
    mode = models.CharField(_("mode"), max_length=16, choices=Mode.choices, default=Mode.OPEN_PLAY)
    win_points = models.IntegerField(_("points for a win"), default=3)
    draw_points = models.IntegerField(_("points for a draw"), default=1)
    loss_points = models.IntegerField(_("points for a loss"), default=0)
    games_counted_per_week = models.PositiveSmallIntegerField(_("games counted per week"), default=2)
    drop_worst_weeks = models.PositiveSmallIntegerField(_("worst weeks dropped"), default=0)
    byes_allowed = models.PositiveSmallIntegerField(_("byes allowed"), default=1)
    rematch = models.CharField(_("rematches"), max_length=8, choices=Rematch.choices,
                               default=Rematch.NEVER)
    escalation = models.BooleanField(_("escalation"), default=False)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return str(self.tournament)


class Week(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="weeks")
    number = models.PositiveSmallIntegerField(_("number"))
    opens = models.DateTimeField(_("opens"))
    closes = models.DateTimeField(_("closes"))
    points_limit = models.PositiveIntegerField(_("points limit"), null=True, blank=True)
    # When the players were told the week is open (leagues.services.announcements); None: not yet.
    announced_at = models.DateTimeField(_("announced"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("week")
        verbose_name_plural = _("weeks")
        ordering = ["league", "number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="league_week_once")]

    def __str__(self) -> str:
        return f"{self.league} — {self.number}"

    def is_open(self, now) -> bool:
        return self.opens <= now < self.closes


class DeclaredBye(models.Model):
    """A week a player declared they will not play (scores 0; at most ``byes_allowed``)."""

    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="league_byes")
    created_at = models.DateTimeField(_("declared"), auto_now_add=True)

    class Meta:
        verbose_name = _("declared bye")
        verbose_name_plural = _("declared byes")
        constraints = [models.UniqueConstraint(fields=["week", "player"], name="league_bye_once")]

    def __str__(self) -> str:
        return f"{self.player} — {self.week.number}"


class WeekList(models.Model):
    """A player's current list for one week; older versions hang off ``army_list.supersedes``."""

    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="lists")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="week_lists")
    army_list = models.ForeignKey(ArmyList, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("week list")
        verbose_name_plural = _("week lists")
        constraints = [models.UniqueConstraint(fields=["week", "player"], name="league_week_list_once")]

    def __str__(self) -> str:
        return f"{self.player} — {self.week.number}"
