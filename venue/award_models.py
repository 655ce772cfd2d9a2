"""Awards and penalties: extra score components an event defines, staff entries and votes."""
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

MAX_WEIGHT = 100
MAX_VALUE = 10_000


class ScoreComponent(models.Model):
    """One extra score of an event (painting, sportsmanship, a late-list penalty...).

    A player's points from it are ``weight × (staff value + votes received)``, subtracted for a
    penalty; ``counts`` says whether they are added to the tournament points in the ranking."""

    class Kind(models.TextChoices):
        AWARD = "award", _("award")
        PENALTY = "penalty", _("penalty")

    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE,
                                   related_name="score_components", verbose_name=_("tournament"))
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.AWARD)
    weight = models.PositiveSmallIntegerField(
        _("weight"), default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_WEIGHT)],
        help_text=_("Each point entered (or vote received) is worth this many tournament points."))
    players_vote = models.BooleanField(
        _("players vote"), default=False,
        help_text=_("Players may each give one vote to another player while the event runs."))
    counts = models.BooleanField(
        _("counts in the ranking"), default=True,
        help_text=_("Added to the tournament points when the standings rank with extras."))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "league_scorecomponent"  # kept from the league app
        verbose_name = _("score component")
        verbose_name_plural = _("awards and penalties")
        ordering = ["tournament", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"],
                                               name="score_component_name_once")]

    def __str__(self) -> str:
        return self.name

    @property
    def sign(self) -> int:
        return -1 if self.kind == self.Kind.PENALTY else 1


class ScoreEntry(models.Model):
    """The value staff entered for one player in one component (one per cell of the grid)."""

    component = models.ForeignKey(ScoreComponent, on_delete=models.CASCADE, related_name="entries",
                                  verbose_name=_("component"))
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE,
                               related_name="score_entries", verbose_name=_("player"))
    value = models.PositiveIntegerField(_("value"), validators=[MaxValueValidator(MAX_VALUE)])
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+", verbose_name=_("entered by"))
    entered_at = models.DateTimeField(_("entered"), auto_now=True)

    class Meta:
        db_table = "league_scoreentry"  # kept from the league app
        verbose_name = _("score entry")
        verbose_name_plural = _("score entries")
        ordering = ["component", "player"]
        constraints = [models.UniqueConstraint(fields=["component", "player"],
                                               name="score_entry_once")]

    def __str__(self) -> str:
        return f"{self.component} {self.player}: {self.value}"


class ScoreVote(models.Model):
    """A player's vote in a component players vote on: one per voter, never for themself."""

    component = models.ForeignKey(ScoreComponent, on_delete=models.CASCADE, related_name="votes",
                                  verbose_name=_("component"))
    voter = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+",
                              verbose_name=_("voter"))
    voted_for = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+",
                                  verbose_name=_("voted for"))
    created_at = models.DateTimeField(_("voted"), auto_now=True)

    class Meta:
        db_table = "league_scorevote"  # kept from the league app
        verbose_name = _("vote")
        verbose_name_plural = _("votes")
        constraints = [
            models.UniqueConstraint(fields=["component", "voter"], name="score_vote_once"),
            models.CheckConstraint(condition=~Q(voter=F("voted_for")), name="score_vote_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.component}: {self.voter_id} → {self.voted_for_id}"
