"""Tournaments, players and their lists, rounds, games, result reports and the audit log."""
from django.conf import settings
from django.conf import settings as django_settings  # Tournament has a field "settings"
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from armylists.models import ArmyList, Chart, GameSystem
from events.formats import known_format
from missions.models import DiceStream, Level, Mission
from venue.checkin_codes import new_checkin_code

WEIGHTS = [("ignore", _("ignore")), ("avoid", _("avoid")), ("avoid_strongly", _("avoid strongly"))]
TIEBREAK_CHOICES = [
    ("sos", _("strength of schedule")),
    ("opp_win_rate", _("opponents' win rate")),
    ("vp_diff", _("victory point difference")),
    ("vp_scored", _("victory points scored")),
    ("head_to_head", _("head to head")),
]
DEFAULT_TIEBREAKS = ["sos", "opp_win_rate", "vp_diff", "vp_scored"]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


def default_scoring() -> dict[str, str]:
    return {"mode": "wdl"}


class Tournament(models.Model):
    """One event: its settings, its lifecycle and the seed every die it rolls comes from."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION_OPEN = "registration_open", _("registration open")
        LISTS_LOCKED = "lists_locked", _("lists locked")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class OnSix(models.TextChoices):
        REROLL = "reroll", _("re-roll")
        SPECIAL = "special", _("special mission")

    class Missions(models.TextChoices):
        PER_ROUND = "per_round", _("one mission per round")
        PER_TABLE = "per_table", _("one mission per table")

    class ByePoints(models.TextChoices):
        WIN = "win", _("a win")
        DRAW = "draw", _("a draw")

    class TurnSystem(models.TextChoices):
        STANDARD = "standard", _("standard")
        DYNAMICS = "dynamics", _("W40K Dynamics (order tokens)")

    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    game_system = models.ForeignKey(
        GameSystem, on_delete=models.PROTECT, verbose_name=_("game system"), related_name="+",
        help_text=_("Cannot change once lists or rounds exist."),
    )
    chart = models.ForeignKey(Chart, on_delete=models.PROTECT, verbose_name=_("chart"))
    points_limit = models.PositiveIntegerField(
        _("points limit"), validators=[MinValueValidator(1), MaxValueValidator(100_000)]
    )
    # Cities of Death missions only (w40k4); other systems' rounds carry a scenario text.
    level = models.ForeignKey(Level, on_delete=models.PROTECT, verbose_name=_("level"),
                              null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    on_six = models.CharField(_("on a 6"), max_length=10, choices=OnSix.choices, default=OnSix.REROLL)
    missions = models.CharField(
        _("missions"), max_length=10, choices=Missions.choices, default=Missions.PER_ROUND
    )
    starts_on = models.DateField(_("date"), null=True, blank=True)
    list_deadline = models.DateTimeField(_("list deadline"), null=True, blank=True)
    lists_published = models.BooleanField(_("lists published"), default=False)
    free_faction = models.BooleanField(
        _("free-text factions"), default=False,
        help_text=_("When set, players may type any faction; otherwise they pick one of the game "
                    "system's factions (when it has any)."),
    )
    require_check_in = models.BooleanField(
        _("pair only checked-in players"), default=False,
        help_text=_("When set, players who have not checked in are left out of the pairing."),
    )
    win_points = models.PositiveSmallIntegerField(_("points for a win"), default=3)
    draw_points = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    bye_points = models.CharField(
        _("a bye counts as"), max_length=4, choices=ByePoints.choices, default=ByePoints.WIN
    )
    tiebreaks = models.JSONField(
        _("tiebreak order"), default=default_tiebreaks, blank=True,
        help_text=_("In order, among: sos, opp_win_rate, vp_diff, vp_scored, head_to_head."),
    )
    bye_priority = models.CharField(
        _("bye priority"), max_length=6, default="strict",
        choices=[("strict", _("lowest-ranked first")), ("soft", _("after club and faction weights"))],
        help_text=_("Strict: the bye goes to the lowest-ranked player without one whenever the "
                    "others can still be paired. Soft: that rule ranks below the score gap and "
                    "the club and faction weights."),
    )
    club_weight = models.CharField(_("same club"), max_length=16, choices=WEIGHTS, default="avoid")
    faction_weight = models.CharField(_("same faction"), max_length=16, choices=WEIGHTS, default="ignore")
    scoring = models.JSONField(
        _("scoring"), default=default_scoring, blank=True,
        help_text=_('{"mode": "wdl"} (points for a win, a draw, a loss) or {"mode": "vp_table", '
                    '"preset": "oms-2011"} or {"mode": "vp_table", "table": [[min_diff, max_diff, '
                    'winner_tp, loser_tp], ...]}.'),
    )
    turn_system = models.CharField(_("turn system"), max_length=10, choices=TurnSystem.choices,
                                   default=TurnSystem.STANDARD)
    advanced_rules = models.JSONField(
        _("advanced rules"), default=dict, blank=True,
        help_text=_("Warhammer Battle: mantlets, stakes, baggage, baggage_mode."))
    settings = models.JSONField(
        _("system settings"), default=dict, blank=True,
        help_text=_("Urban War: size_min, size_max, result_mode."))
    language = models.CharField(_("language of printed material"), max_length=2,
                                choices=django_settings.LANGUAGES, default="fr")
    # events/formats.py: "event" (Swiss rounds of players) or a format an app registered.
    format = models.CharField(_("format"), max_length=16, default="event",
                              validators=[known_format], editable=False)
    seed = models.BigIntegerField(_("seed"))
    dice = models.OneToOneField(DiceStream, on_delete=models.PROTECT, related_name="tournament",
                                verbose_name=_("dice stream"))
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The system fields read together (events/systems/config.py), stored normalised; the
        system, scoring and turn system are fixed once lists or rounds exist."""
        from events.systems.config import ConfigError, event_config

        super().clean()
        if self.game_system_id is None or self.chart_id is None:
            return  # their own field errors say it
        try:
            values = event_config(self.game_system, self.chart, {
                "level": self.level, "on_six": self.on_six, "turn_system": self.turn_system,
                "advanced_rules": self.advanced_rules, "settings": self.settings, "scoring": self.scoring,
            })
        except ConfigError as exc:
            raise ValidationError(exc.errors) from None
        for field, value in values.items():
            setattr(self, field, value)
        self._check_fixed()

    def _check_fixed(self) -> None:
        from events.systems.config import FIXED_ONCE_USED

        if self.pk is None:
            return
        stored = Tournament.objects.filter(pk=self.pk).values(
            "game_system_id", "scoring", "turn_system").first()
        if stored is None:
            return
        now = {"game_system_id": self.game_system_id, "scoring": self.scoring, "turn_system": self.turn_system}
        changed = [f for f in FIXED_ONCE_USED if stored[_column(f)] != now[_column(f)]]
        if changed and (self.round_set.exists() or PlayerList.objects.filter(player__tournament=self).exists()):
            message = _("Lists or rounds already exist: this can no longer change.")
            raise ValidationError({field: message for field in changed})

    @property
    def rules(self):
        """The event rules of this tournament's game system (events/systems)."""
        from events.systems import event_rules

        return event_rules(self.game_system.slug)


def _column(field: str) -> str:
    return "game_system_id" if field == "game_system" else field


class Player(models.Model):
    """A registration: a person (with or without an account) playing in one tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="registrations", verbose_name=_("account"))
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    faction = models.CharField(_("faction"), max_length=120, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    # When and by whom (staff, or the player at the venue): "already checked in" says so.
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    checked_in_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                      null=True, blank=True, related_name="+",
                                      verbose_name=_("checked in by"))
    # The personal code staff scan at the door: secret, unique across events (a code of
    # another event is recognised as such), never exported with the event.
    checkin_code = models.CharField(_("check-in code"), max_length=16, unique=True,
                                    default=new_checkin_code, editable=False)
    dropped = models.BooleanField(_("dropped"), default=False)
    list_unlocked = models.BooleanField(
        _("list unlocked"), default=False,
        help_text=_("Set by an organiser (with a reason in the audit log) to allow one more submission."),
    )
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["tournament", "name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="player_user_once",
                condition=models.Q(user__isnull=False),
                violation_error_message=_("This account is already registered for this tournament."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerList(models.Model):
    """The current list of a player for one role ("" = the main list); older versions hang off
    ``army_list.supersedes``."""

    ROLES = [("", _("main list")), ("attacker", _("attacker")), ("defender", _("defender"))]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="lists")
    role = models.CharField(_("role"), max_length=10, choices=ROLES, blank=True, default="")
    army_list = models.ForeignKey(ArmyList, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("player list")
        verbose_name_plural = _("player lists")
        constraints = [models.UniqueConstraint(fields=["player", "role"], name="player_list_role_once")]

    def __str__(self) -> str:
        return f"{self.player} {self.role or 'main'}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        COMPLETED = "completed", _("completed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    mission = models.ForeignKey(Mission, on_delete=models.PROTECT, null=True, blank=True,
                                related_name="+", verbose_name=_("mission"))
    rolls = models.JSONField(_("mission rolls"), default=list, blank=True)
    scenario = models.TextField(
        _("scenario"), blank=True, max_length=5000,
        help_text=_("Written by the organisers for systems without rolled missions."))
    pairing = models.JSONField(_("pairing summary"), default=dict, blank=True)
    created_at = models.DateTimeField(_("paired"), auto_now_add=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once")]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"


class Game(models.Model):
    """One table of a round, or a bye (``player_b`` and ``table`` empty)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("to be played")
        REPORTED = "reported", _("reported")
        DISPUTED = "disputed", _("disputed")
        CONFIRMED = "confirmed", _("confirmed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    mission = models.ForeignKey(Mission, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    rolls = models.JSONField(_("rolls"), default=list, blank=True)
    roles = models.JSONField(_("roles"), default=dict, blank=True)  # {player id (str): role}
    pregame = models.JSONField(_("pre-game decisions"), default=dict, blank=True)
    deviations = models.JSONField(_("deviations"), default=list, blank=True)
    list_problems = models.JSONField(_("list problems"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    # The confirmed result, copied from the report that settled the game.
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    victory_points = models.JSONField(_("victory points"), default=dict, blank=True)
    # The confirmed report's system facts (Warhammer Battle baggage, Urban War destruction).
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    # Stratagems each player declared before deployment: {player id (str): [slugs]} (§3.2).
    declarations = models.JSONField(_("stratagem declarations"), default=dict, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["round", "table", "pk"]
        indexes = [models.Index(fields=["round", "status"])]

    def __str__(self) -> str:
        if self.player_b_id is None:
            return _("%(player)s (bye)") % {"player": self.player_a}
        return f"{self.table}: {self.player_a} — {self.player_b}"

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None

    @property
    def player_ids(self) -> tuple[int, ...]:
        return (self.player_a_id,) if self.player_b_id is None else (self.player_a_id, self.player_b_id)


class Report(models.Model):
    """One result report; every report is kept, the game points at the state they lead to."""

    class Status(models.TextChoices):
        REPORTED = "reported", _("reported")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                 related_name="+")
    by_player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")  # None for a staff report
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.REPORTED)
    winner = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    outcome = models.JSONField(_("objective outcome"), default=dict, blank=True)
    victory_points = models.JSONField(_("victory points"), default=dict, blank=True)
    stratagems = models.JSONField(_("stratagems"), default=dict, blank=True)
    comment = models.CharField(_("comment"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                     blank=True, related_name="+")
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    @property
    def by_staff(self) -> bool:
        return self.by_player_id is None


class AuditEntry(models.Model):
    """Who changed what, when and from where; written by the services, never edited."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="+")
    action = models.CharField(_("action"), max_length=40)
    target = models.CharField(_("object"), max_length=200, blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    ip = models.GenericIPAddressField(_("from"), null=True, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"
