"""A circuit, the people it ranks, its inputs and its computed standings."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from armylists.models import GameSystem
from events.models import Tournament


class Circuit(models.Model):
    class Method(models.TextChoices):
        PLACEMENT = "placement", _("placement points")
        ELO = "elo", _("Elo")
        GLICKO2 = "glicko2", _("Glicko-2")

    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    game_system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("game system"))
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Every write bumps input_version; the standings stored are those of computed_version.
    input_version = models.PositiveIntegerField(default=1)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(_("standings computed"), null=True, blank=True)
    computed_as_of = models.DateField(null=True, blank=True)
    valid_until = models.DateField(null=True, blank=True)  # the stored figures change that day
    compute_seconds = models.FloatField(null=True, blank=True)
    people_count = models.PositiveIntegerField(default=0)  # standing rows stored: pages need no count

    class Meta:
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def computing(self) -> bool:
        return self.computed_version < self.input_version


class Person(models.Model):
    """Someone the circuit ranks: an account (key = username) or a name as typed. A merged
    person points to the one kept (``merged_into``) and answers no more."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="people")
    key = models.CharField(_("key"), max_length=150)
    norm = models.CharField(max_length=150)  # the key without case and surrounding spaces
    name = models.CharField(_("name"), max_length=150)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="circuit_people")
    merged_into = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True,
                                    related_name="aliases", verbose_name=_("merged into"))

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        constraints = [models.UniqueConstraint(fields=["circuit", "norm"], name="circuit_person_norm")]

    def __str__(self) -> str:
        return self.key


class CircuitEvent(models.Model):
    """A Muster event counted in the circuit once finished."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+",
                                   verbose_name=_("tournament"))
    multiplier = models.FloatField(_("multiplier"), default=1.0)

    class Meta:
        verbose_name = _("circuit event")
        verbose_name_plural = _("circuit events")
        constraints = [models.UniqueConstraint(fields=["circuit", "tournament"],
                                               name="circuit_event_once")]

    def __str__(self) -> str:
        return f"{self.tournament} ×{self.multiplier:g}"


class ExternalResult(models.Model):
    """An event run elsewhere: placings [[person id, place]] and games
    [[round, table, a, b or null, winner or null, forfeit]] (person ids)."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="results")
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    players = models.PositiveIntegerField(_("players"))
    multiplier = models.FloatField(_("multiplier"), default=1.0)
    placings = models.JSONField(default=list, blank=True)
    games = models.JSONField(default=list, blank=True)
    size = models.PositiveIntegerField(default=0)  # placings + games: decides inline or worker
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("result of an event elsewhere")
        verbose_name_plural = _("results of events elsewhere")
        ordering = ["date", "name", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class StartingRating(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="ratings")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"), null=True, blank=True)
    volatility = models.FloatField(_("volatility"), null=True, blank=True)

    class Meta:
        verbose_name = _("starting rating")
        verbose_name_plural = _("starting ratings")
        constraints = [models.UniqueConstraint(fields=["circuit", "person"], name="circuit_rating_once")]

    def __str__(self) -> str:
        return f"{self.person} {self.rating:g}"


class Standing(models.Model):
    """One computed line per person (``position`` orders them), with the person's breakdown as
    the API shows it, so the standings and a breakdown are single cheap queries."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="standings")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="standings")
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    key = models.CharField(max_length=150)
    norm = models.CharField(max_length=150)
    name = models.CharField(max_length=150)
    # The key and the name without case, one per line: what ?search= looks in (a trigram index
    # on PostgreSQL, see migration 0002).
    search = models.CharField(max_length=310, default="")
    value = models.FloatField()  # points or rating
    deviation = models.FloatField(null=True, blank=True)
    volatility = models.FloatField(null=True, blank=True)
    events_counted = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=False)
    breakdown = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["position"]
        indexes = [models.Index(fields=["circuit", "position"]), models.Index(fields=["circuit", "norm"])]

    def __str__(self) -> str:
        return f"{self.position}. {self.key}"
