"""Game systems, slots and force-organisation charts (reference data), and stored army lists."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.i18n import BilingualName


class GameSystem(BilingualName, models.Model):
    """A game Muster serves; its ``kind`` says how lists are built (registry: armylists/systems/)."""

    class Kind(models.TextChoices):
        CHART = "chart", _("force-organisation chart")
        COMMANDO = "commando", _("commando of profile cards")
        CAMPAIGN = "campaign", _("campaign army of detachments")

    slug = models.SlugField(unique=True)
    name_en = models.CharField(_("name (English)"), max_length=120)
    name_fr = models.CharField(_("name (French)"), max_length=120)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.CHART)
    aliases = models.JSONField(
        _("aliases"), default=list, blank=True,
        help_text=_("Names a roster file may give this game system (lower case)."),
    )

    class Meta:
        verbose_name = _("game system")
        verbose_name_plural = _("game systems")
        ordering = ["slug"]


class Slot(BilingualName, models.Model):
    game_system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="slots")
    code = models.SlugField(_("code"))
    name_en = models.CharField(_("name (English)"), max_length=60)
    name_fr = models.CharField(_("name (French)"), max_length=60)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    aliases = models.JSONField(
        _("aliases"), default=list, blank=True,
        help_text=_("Roster category names (French or English) that mean this slot."),
    )

    class Meta:
        verbose_name = _("slot")
        verbose_name_plural = _("slots")
        ordering = ["game_system", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game_system", "code"], name="slot_code_unique")
        ]


class Chart(BilingualName, models.Model):
    """A force-organisation chart: how many choices of each slot a list may hold."""

    slug = models.SlugField(unique=True)
    game_system = models.ForeignKey(GameSystem, on_delete=models.PROTECT, related_name="charts")
    name_en = models.CharField(_("name (English)"), max_length=120)
    name_fr = models.CharField(_("name (French)"), max_length=120)
    points_min = models.PositiveIntegerField(_("minimum points"), null=True, blank=True)
    points_max = models.PositiveIntegerField(_("maximum points"), null=True, blank=True)
    rules = models.JSONField(
        _("rules"), default=dict, blank=True,
        help_text=_("System rules beyond slot counts, read by the game system's list rules "
                    "(e.g. percentage limits, commando size)."),
    )

    class Meta:
        verbose_name = _("force organisation chart")
        verbose_name_plural = _("force organisation charts")
        ordering = ["slug"]


class Faction(BilingualName, models.Model):
    """An army of one game system; ``tags`` carry rules (e.g. ``undead``: no baggage in WFB)."""

    game_system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="factions")
    slug = models.SlugField()
    name_en = models.CharField(_("name (English)"), max_length=120)
    name_fr = models.CharField(_("name (French)"), max_length=120)
    tags = models.JSONField(
        _("tags"), default=list, blank=True,
        help_text=_("Lower-case words the rules look for, e.g. [\"undead\"] or [\"daemon\"]."),
    )

    class Meta:
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        ordering = ["game_system", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["game_system", "slug"], name="faction_slug_unique")
        ]


class ProfileCard(BilingualName, models.Model):
    """A profile card (Urban War): stats, a cost per calibre, options; staff enter them."""

    game_system = models.ForeignKey(GameSystem, on_delete=models.CASCADE, related_name="profile_cards")
    card = models.CharField(_("card number"), max_length=20)
    name_en = models.CharField(_("name (English)"), max_length=120)
    name_fr = models.CharField(_("name (French)"), max_length=120)
    faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="profile_cards")
    stats = models.JSONField(_("characteristics"), default=dict)
    cal_options = models.JSONField(
        _("calibres"), default=list,
        help_text=_("[{\"cal\", \"fs\", \"cost\"}]; a cost of null is N/A on the card."),
    )
    options = models.JSONField(_("options"), default=list, blank=True,
                               help_text=_("[{\"code\", \"name_en\", \"name_fr\", \"cost\"}]"))
    options_cost_modifier = models.CharField(_("options cost modifier"), max_length=120, blank=True)
    equipment_en = models.TextField(_("equipment (English)"), blank=True)
    equipment_fr = models.TextField(_("equipment (French)"), blank=True)
    weapons = models.JSONField(_("weapons"), default=list, blank=True)
    special_rules = models.JSONField(_("special rules"), default=list, blank=True)

    class Meta:
        verbose_name = _("profile card")
        verbose_name_plural = _("profile cards")
        ordering = ["game_system", "card"]
        constraints = [
            models.UniqueConstraint(fields=["game_system", "card"], name="profile_card_unique")
        ]

    def clean(self) -> None:
        # The pure checks shared with the CSV import (imported here: they import the engines).
        from systems.urban_war.card_messages import render_problem
        from systems.urban_war.profile_cards import card_fields, card_problem

        problem = card_problem(card_fields(self))
        if problem is not None:
            raise ValidationError(render_problem(problem))
        if self.faction_id and self.game_system_id and self.faction.game_system_id != self.game_system_id:
            raise ValidationError({"faction": _("This faction belongs to another game system.")})


class ChartSlot(models.Model):
    """One row of a chart; min and max derive from compulsory and optional choices."""

    chart = models.ForeignKey(Chart, on_delete=models.CASCADE, related_name="rows")
    slot = models.ForeignKey(Slot, on_delete=models.PROTECT, related_name="+")
    compulsory = models.PositiveSmallIntegerField(_("compulsory"), default=0)
    optional = models.PositiveSmallIntegerField(
        _("optional"), null=True, blank=True, help_text=_("Empty means no upper limit.")
    )

    class Meta:
        verbose_name = _("chart slot")
        verbose_name_plural = _("chart slots")
        ordering = ["slot__order"]
        constraints = [
            models.UniqueConstraint(fields=["chart", "slot"], name="chart_slot_unique")
        ]

    @property
    def minimum(self) -> int:
        return self.compulsory

    @property
    def maximum(self) -> int | None:
        return None if self.optional is None else self.compulsory + self.optional


class ArmyList(models.Model):
    """A submitted list: what was sent (raw upload), what was read from it, and its verdict."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="army_lists",
    )
    name = models.CharField(_("name"), max_length=200, blank=True)
    chart = models.ForeignKey(Chart, on_delete=models.PROTECT, related_name="army_lists")
    points_limit = models.PositiveIntegerField(_("points limit"), validators=[MinValueValidator(1)])
    source_format = models.CharField(_("source format"), max_length=32, default="units")
    raw_upload = models.BinaryField(_("raw upload"), null=True, blank=True)
    raw_filename = models.CharField(_("file name"), max_length=255, blank=True)
    entries = models.JSONField(_("entries"), default=list)
    import_warnings = models.JSONField(_("import warnings"), default=list, blank=True)
    report = models.JSONField(_("validation report"), default=dict)
    valid = models.BooleanField(_("valid"), default=False)
    total_points = models.PositiveIntegerField(_("total points"), default=0)
    supersedes = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="superseded_by"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    validated_at = models.DateTimeField(_("validated"), null=True, blank=True)

    class Meta:
        verbose_name = _("army list")
        verbose_name_plural = _("army lists")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name or f"{self.chart.slug} #{self.pk}"
