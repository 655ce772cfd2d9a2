"""The Cities of Death catalogue as editable data, and every die Muster rolls."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.i18n import BilingualName, localized

ROLE_CHOICES = [("attacker", _("attacker")), ("defender", _("defender"))]


class Level(BilingualName, models.Model):
    slug = models.SlugField(unique=True)
    name_en = models.CharField(_("name (English)"), max_length=40)
    name_fr = models.CharField(_("name (French)"), max_length=40)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    table_width_cm = models.PositiveSmallIntegerField(_("table width (cm)"))
    table_depth_cm = models.PositiveSmallIntegerField(_("table depth (cm)"))
    ruins_min = models.PositiveSmallIntegerField(_("minimum ruins"), null=True, blank=True)
    ruins_max = models.PositiveSmallIntegerField(
        _("maximum ruins"), null=True, blank=True, help_text=_("Empty: as many as possible.")
    )
    stratagems_per_player = models.PositiveSmallIntegerField(_("stratagems per player"))

    class Meta:
        verbose_name = _("mission level")
        verbose_name_plural = _("mission levels")
        ordering = ["order"]


class SpecialRule(BilingualName, models.Model):
    slug = models.SlugField(unique=True)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_fr = models.CharField(_("name (French)"), max_length=80)
    summary_en = models.TextField(_("summary (English)"))
    summary_fr = models.TextField(_("summary (French)"))
    params = models.JSONField(_("parameters"), default=dict, blank=True)

    class Meta:
        verbose_name = _("mission special rule")
        verbose_name_plural = _("mission special rules")
        ordering = ["slug"]

    @property
    def summary(self) -> str:
        return localized(self, "summary")


class StratagemCategory(BilingualName, models.Model):
    slug = models.SlugField(unique=True)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_fr = models.CharField(_("name (French)"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    summary_en = models.TextField(_("summary (English)"), blank=True)
    summary_fr = models.TextField(_("summary (French)"), blank=True)

    class Meta:
        verbose_name = _("stratagem category")
        verbose_name_plural = _("stratagem categories")
        ordering = ["order"]


class Stratagem(BilingualName, models.Model):
    slug = models.SlugField(unique=True)
    category = models.ForeignKey(StratagemCategory, on_delete=models.PROTECT, related_name="stratagems")
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_fr = models.CharField(_("name (French)"), max_length=80)
    summary_en = models.TextField(_("summary (English)"))
    summary_fr = models.TextField(_("summary (French)"))
    placement = models.JSONField(_("placement"), default=dict, blank=True)
    markers = models.CharField(_("markers (dice)"), max_length=20, blank=True)
    range_inches = models.PositiveSmallIntegerField(_("range (inches)"), null=True, blank=True)

    class Meta:
        verbose_name = _("stratagem")
        verbose_name_plural = _("stratagems")
        ordering = ["order"]

    @property
    def summary(self) -> str:
        return localized(self, "summary")


class Mission(BilingualName, models.Model):
    KINDS = [("standard", _("standard")), ("special", _("special"))]
    FIRST_TURN = [("roll_off", _("roll-off")), ("attacker", _("attacker")), ("defender", _("defender"))]

    slug = models.SlugField(unique=True)
    kind = models.CharField(_("kind"), max_length=10, choices=KINDS)
    d6 = models.PositiveSmallIntegerField(_("D6 result"), null=True, blank=True, unique=True)
    order = models.PositiveSmallIntegerField(_("catalogue order"), default=0)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_fr = models.CharField(_("name (French)"), max_length=80)
    objective_kind = models.CharField(_("objective kind"), max_length=32)
    objective_en = models.TextField(_("objective (English)"))
    objective_fr = models.TextField(_("objective (French)"))
    deployment_en = models.TextField(_("deployment (English)"))
    deployment_fr = models.TextField(_("deployment (French)"))
    game_turns = models.PositiveSmallIntegerField(_("game turns"), default=6)
    game_turns_note_en = models.TextField(_("game length note (English)"), blank=True)
    game_turns_note_fr = models.TextField(_("game length note (French)"), blank=True)
    uses_victory_points = models.BooleanField(_("uses victory points"), default=False)
    roles = models.JSONField(_("roles"), default=list, blank=True)
    role_charts = models.JSONField(
        _("chart per role"), default=dict, blank=True,
        help_text=_('Chart slug per role, e.g. {"attacker": "strike-and-withdraw-attacker"}.'),
    )
    first_turn = models.CharField(_("first turn"), max_length=10, choices=FIRST_TURN, default="roll_off")
    special_rules_by_level = models.JSONField(_("special rules by level"), default=dict)
    victory_points = models.JSONField(_("victory point rules"), default=dict, blank=True)
    stratagem_exceptions = models.JSONField(_("stratagem exceptions"), default=list, blank=True)
    outcome_fields = models.JSONField(_("objective outcome fields"), default=list, blank=True)
    diagram = models.JSONField(_("table diagram"), default=dict, blank=True)
    notes = models.JSONField(_("notes on gaps and defaults"), default=dict, blank=True)

    class Meta:
        verbose_name = _("mission")
        verbose_name_plural = _("missions")
        ordering = ["order"]

    @property
    def objective(self) -> str:
        return localized(self, "objective")

    @property
    def deployment(self) -> str:
        return localized(self, "deployment")


class MarginBand(BilingualName, models.Model):
    """Victory-margin bands: a Muster default, since the seeds lack the rulebook's table."""

    slug = models.SlugField(unique=True)
    name_en = models.CharField(_("name (English)"), max_length=60)
    name_fr = models.CharField(_("name (French)"), max_length=60)
    min_fraction = models.DecimalField(
        _("from (VP difference / points limit)"), max_digits=4, decimal_places=3
    )

    class Meta:
        verbose_name = _("victory margin band")
        verbose_name_plural = _("victory margin bands")
        ordering = ["min_fraction"]


class DiceStream(models.Model):
    """A seeded sequence of rolls (one per tournament, or per table); resumable from its counter."""

    key = models.CharField(_("key"), max_length=120, unique=True)
    seed = models.BigIntegerField(_("seed"))
    next_sequence = models.PositiveIntegerField(_("next roll number"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("dice stream")
        verbose_name_plural = _("dice streams")

    def __str__(self) -> str:
        return self.key


class DiceRoll(models.Model):
    stream = models.ForeignKey(DiceStream, on_delete=models.CASCADE, related_name="rolls")
    sequence = models.PositiveIntegerField(_("roll number"))
    purpose = models.CharField(_("purpose"), max_length=120)
    expression = models.CharField(_("dice"), max_length=20)
    dice = models.JSONField(_("results"))
    total = models.IntegerField(_("total"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("rolled at"), auto_now_add=True)

    class Meta:
        verbose_name = _("dice roll")
        verbose_name_plural = _("dice rolls")
        ordering = ["stream", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["stream", "sequence"], name="dice_roll_sequence_unique")
        ]

    def __str__(self) -> str:
        return f"{self.purpose}: {self.expression} → {self.dice}"


class DiceBatch(models.Model):
    """Consecutive rolls of one stream logged in one row: the missions and pre-game dice of a
    paired round, thousands of rolls at a large event, written at once (issue #15).

    ``rolls`` holds, from ``first_sequence`` on, one ``[purpose, expression, dice, total]`` per
    roll: what a DiceRoll row holds, the stream, actor and time being the batch's."""

    stream = models.ForeignKey(DiceStream, on_delete=models.CASCADE, related_name="batches")
    first_sequence = models.PositiveIntegerField(_("first roll number"))
    rolls = models.JSONField(_("rolls"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("rolled at"), auto_now_add=True)

    class Meta:
        verbose_name = _("batch of dice rolls")
        verbose_name_plural = _("batches of dice rolls")
        ordering = ["stream", "first_sequence"]
        constraints = [
            models.UniqueConstraint(fields=["stream", "first_sequence"], name="dice_batch_sequence_unique")
        ]

    def __str__(self) -> str:
        last = self.first_sequence + len(self.rolls) - 1
        return f"{self.stream}: {self.first_sequence}–{last}"

    def as_rolls(self) -> list[DiceRoll]:
        """The batch as the DiceRoll rows it stands for (unsaved), in sequence order."""
        return [
            DiceRoll(stream_id=self.stream_id, sequence=self.first_sequence + offset, purpose=purpose,
                     expression=expression, dice=dice, total=total, actor_id=self.actor_id,
                     created_at=self.created_at)
            for offset, (purpose, expression, dice, total) in enumerate(self.rolls)
        ]
