"""Epic 40,000 campaigns (seed 001): the campaign, its two sides and their detachments, its turns,
the orders, battles and reveals of each turn, and the score ledger.

A campaign owns a ``Tournament`` of game system ``epic40k``: its players are the two sides'
players, its rounds the turns and its games the battles, so reports, confirmations and the audit
log work as for any event. The map state (control, fortified, isolated) is one JSON object per
campaign, changed only under the campaign's row lock. Rules: campaigns/engine/ (R1–R40, G1–G30)."""
from django.conf import settings as django_settings  # Campaign has a field "settings"
from django.db import models
from django.utils.translation import gettext_lazy as _

SIDE_CHOICES = [("west", _("West")), ("east", _("East"))]
DETACHMENT_KINDS = [("ground", _("ground")), ("air", _("air")), ("airborne", _("airborne"))]


class Campaign(models.Model):
    """One planet, one map between two sides, one turn clock."""

    class Status(models.TextChoices):
        SETUP = "setup", _("setup")
        PLACEMENT = "placement", _("placement")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=200)
    tournament = models.OneToOneField("league.Tournament", on_delete=models.CASCADE,
                                      related_name="campaign", verbose_name=_("tournament"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.SETUP)
    army_points = models.PositiveIntegerField(_("army points"), default=5000)  # R1
    victory_score = models.PositiveSmallIntegerField(_("victory score"), default=24)  # R35, G26
    # adjacency (G4), planet_on_eight (G3), territory_scoring (G16), battle_points_basis (G17),
    # other_sectors_table (G19): campaigns/state_serializers.SettingsSerializer.
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    planet = models.CharField(_("planet"), max_length=40, blank=True)
    planet_rolls = models.JSONField(_("planet rolls"), default=list, blank=True)
    placement_first = models.CharField(_("places first"), max_length=4, blank=True,
                                       choices=SIDE_CHOICES)
    placement_roll = models.JSONField(_("placement roll-off"), default=list, blank=True)
    # {code: side} for all 18 territories once the campaign runs; codes lists otherwise.
    control = models.JSONField(_("control"), default=dict, blank=True)
    fortified = models.JSONField(_("fortified territories"), default=list, blank=True)
    isolated = models.JSONField(_("isolated territories"), default=list, blank=True)
    current_turn = models.PositiveSmallIntegerField(_("current turn"), default=0)
    winner = models.CharField(_("winner"), max_length=4, blank=True, choices=SIDE_CHOICES)
    victory_reason = models.CharField(_("victory"), max_length=20, blank=True)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "league_campaign"  # kept from the league app
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class CampaignSide(models.Model):
    """West or east: the player, the army's public name (R12), faction and strategic value."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    side = models.CharField(_("side"), max_length=4, choices=SIDE_CHOICES)
    player = models.OneToOneField("league.Player", on_delete=models.CASCADE,
                                  related_name="campaign_side", verbose_name=_("player"))
    army_name = models.CharField(_("army name"), max_length=120)
    faction = models.SlugField(_("faction"), max_length=60)
    strategic_value = models.PositiveSmallIntegerField(_("strategic value"))  # G2: 0–10
    majors = models.JSONField(_("major territories"), default=list, blank=True)  # G30
    surrendered = models.BooleanField(_("surrendered"), default=False)  # R35

    class Meta:
        db_table = "league_campaignside"  # kept from the league app
        verbose_name = _("campaign side")
        verbose_name_plural = _("campaign sides")
        ordering = ["campaign", "-side"]  # west before east
        constraints = [models.UniqueConstraint(fields=["campaign", "side"], name="campaign_side_once")]

    def __str__(self) -> str:
        return f"{self.campaign} — {self.side}"


class CampaignDetachment(models.Model):
    """A detachment of a side's army, frozen once the campaign runs (R2). ``location`` is blank
    off the map (unplaced, airborne in orbit) and once destroyed."""

    side = models.ForeignKey(CampaignSide, on_delete=models.CASCADE, related_name="detachments")
    name = models.CharField(_("name"), max_length=200)
    points = models.PositiveIntegerField(_("points"))
    kind = models.CharField(_("kind"), max_length=8, choices=DETACHMENT_KINDS, default="ground")
    supreme_commander = models.BooleanField(_("Supreme Commander"), default=False)
    position = models.PositiveSmallIntegerField(_("position in the army"), default=0)
    location = models.CharField(_("territory"), max_length=2, blank=True)
    destroyed = models.BooleanField(_("destroyed"), default=False)
    placed_order = models.PositiveSmallIntegerField(_("placed as"), null=True, blank=True)
    # [{"name", "type", "points", "tags": [infiltrator | flak | war_engine | vehicle]}]
    units = models.JSONField(_("units"), default=list, blank=True)
    # G22: infiltrator units captured by the enemy (R25 on a 1), gone for the whole campaign.
    captured_units = models.JSONField(_("captured units"), default=list, blank=True)
    # R13: the turn an airborne detachment landed; its vehicles stay in orbit until it spends
    # one move in a later turn.
    landed_turn = models.PositiveSmallIntegerField(_("landed in turn"), null=True, blank=True)
    vehicles_in_orbit = models.BooleanField(_("vehicles in orbit"), default=False)

    class Meta:
        db_table = "league_campaigndetachment"  # kept from the league app
        verbose_name = _("campaign detachment")
        verbose_name_plural = _("campaign detachments")
        ordering = ["side", "position", "pk"]
        constraints = [models.UniqueConstraint(fields=["side", "name"], name="campaign_detachment_name_once")]

    def __str__(self) -> str:
        return self.name


class CampaignTurn(models.Model):
    """One campaign turn: its league round (the battles' games), the open phase and the phase
    initiative rolls (R15)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveSmallIntegerField(_("number"))
    round = models.OneToOneField("league.Round", on_delete=models.CASCADE,
                                 related_name="campaign_turn", verbose_name=_("round"))
    # "" before the first initiative roll, then air → infiltration → moves → attacks, "battles"
    # once the battles are generated, "closed" at the close.
    phase = models.CharField(_("phase"), max_length=12, blank=True)
    initiative = models.JSONField(_("phase initiative"), default=dict, blank=True)
    report = models.JSONField(_("turn report"), default=dict, blank=True)
    # R25: each resolved infiltration, its dice and what they revealed or captured (names).
    infiltrations = models.JSONField(_("infiltrations"), default=list, blank=True)
    # G11: per phase, who declares first, who has sent all their orders, whether the sealed
    # orders were revealed: {phase: {"first", "ready": [sides], "revealed": bool}}.
    declarations = models.JSONField(_("declarations"), default=dict, blank=True)
    # R14, R19–R24: the air phase's gates rolled (Flak, interceptions of landings) and their dice.
    air = models.JSONField(_("air missions"), default=list, blank=True)
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        db_table = "league_campaignturn"  # kept from the league app
        verbose_name = _("campaign turn")
        verbose_name_plural = _("campaign turns")
        ordering = ["campaign", "number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="campaign_turn_once")]

    def __str__(self) -> str:
        return f"{self.campaign} — {self.number}"


class CampaignOrder(models.Model):
    """An accepted order (refused ones are answered 400 and kept in the audit log only). The
    allowances are derived from these rows, never stored as counters.

    In the sealed declaration mode (G11) an order is ``sealed`` until its phase's orders are
    revealed: the engine then replays both sides' orders interleaved and an order that became
    illegal is kept as ``refused`` with its code, no longer counted."""

    ACCEPTED, SEALED, REFUSED = "accepted", "sealed", "refused"

    turn = models.ForeignKey(CampaignTurn, on_delete=models.CASCADE, related_name="orders")
    side = models.CharField(_("side"), max_length=4, choices=SIDE_CHOICES)
    kind = models.CharField(_("kind"), max_length=12)  # "infiltration"
    detachments = models.JSONField(_("detachments"), default=list, blank=True)
    from_code = models.CharField(_("from"), max_length=2, blank=True)
    to_code = models.CharField(_("to"), max_length=2, blank=True)
    for_attack = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="reactions", verbose_name=_("reaction to"))
    bonus = models.CharField(_("bonus"), max_length=20, blank=True)
    commander = models.CharField(_("Supreme Commander"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=10, default=ACCEPTED)
    refusal_code = models.CharField(_("refusal"), max_length=40, blank=True)
    refusal_params = models.JSONField(_("refusal details"), default=dict, blank=True)
    # The order's place in its phase once both sides' orders are interleaved (G11).
    sequence = models.PositiveIntegerField(_("sequence"), null=True, blank=True)
    # Air missions (R19–R24): the mission, the territories flown over on the way there and
    # back, and the mission an escort is linked to.
    mission = models.CharField(_("air mission"), max_length=12, blank=True)
    route = models.JSONField(_("route"), default=list, blank=True)
    return_route = models.JSONField(_("return route"), default=list, blank=True)
    escort_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="escorts", verbose_name=_("escort of"))
    # The id players read and name (a reaction's attack, an escort's mission): numbered per
    # turn and side, west odd and east even, so it says nothing of the other side's orders
    # (campaigns/services/order_numbers.py). None for an order older than the numbering.
    number = models.PositiveIntegerField(_("number"), null=True, blank=True)
    created_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("declared"), auto_now_add=True)

    class Meta:
        db_table = "league_campaignorder"  # kept from the league app
        verbose_name = _("campaign order")
        verbose_name_plural = _("campaign orders")
        ordering = ["turn", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.from_code}→{self.to_code}"


class CampaignBattle(models.Model):
    """The battle for one territory in one turn; ``game`` is the league game the two players
    report. An undefended territory is captured without a game (G13, ``contested`` false)."""

    turn = models.ForeignKey(CampaignTurn, on_delete=models.CASCADE, related_name="battles")
    game = models.OneToOneField("league.Game", on_delete=models.CASCADE, null=True, blank=True,
                                related_name="campaign_battle", verbose_name=_("game"))
    territory = models.CharField(_("territory"), max_length=2)
    attacker = models.CharField(_("attacker"), max_length=4, choices=SIDE_CHOICES)
    defender = models.CharField(_("defender"), max_length=4, choices=SIDE_CHOICES)
    contested = models.BooleanField(_("contested"), default=True)
    attack_ids = models.JSONField(_("attacks"), default=list, blank=True)
    attackers = models.JSONField(_("attacking detachments"), default=list, blank=True)
    defender_deployed = models.JSONField(_("deployed defenders"), default=list, blank=True)
    defender_reserves = models.JSONField(_("defenders in reserve"), default=list, blank=True)
    attacker_points = models.PositiveIntegerField(_("attacker points"), default=0)
    defender_points = models.PositiveIntegerField(_("defender points"), default=0)
    fortifications = models.PositiveSmallIntegerField(_("fortifications"), default=0)
    at_stake = models.JSONField(_("score at stake"), default=dict, blank=True)
    isolated = models.JSONField(_("isolated detachments"), default=list, blank=True)
    # R32 choices: the winner's detachments that stay, the loser's retreat per detachment.
    stay = models.JSONField(_("staying"), default=list, blank=True)
    retreat_to = models.JSONField(_("retreats"), default=dict, blank=True)

    class Meta:
        db_table = "league_campaignbattle"  # kept from the league app
        verbose_name = _("campaign battle")
        verbose_name_plural = _("campaign battles")
        ordering = ["turn", "pk"]
        constraints = [models.UniqueConstraint(fields=["turn", "territory"], name="campaign_battle_once")]

    def __str__(self) -> str:
        return f"{self.turn} — {self.territory}"


class CampaignReveal(models.Model):
    FULL, WAR_ENGINES = "full", "war_engines"  # what the enemy sees: the name needs FULL

    """R12: an enemy detachment the side ``to_side`` has seen: ``full`` (its name and sheet: by
    battle, by infiltration on a 6, or its infiltrators captured) or ``war_engines`` only (R25 on
    a 5: the number and type of its war engines, not its name)."""

    detachment = models.ForeignKey(CampaignDetachment, on_delete=models.CASCADE,
                                   related_name="reveals")
    to_side = models.CharField(_("seen by"), max_length=4, choices=SIDE_CHOICES)
    source = models.CharField(_("how"), max_length=20, default="battle")
    level = models.CharField(_("what is seen"), max_length=12, default="full")
    turn = models.PositiveSmallIntegerField(_("turn"))

    class Meta:
        db_table = "league_campaignreveal"  # kept from the league app
        verbose_name = _("revealed detachment")
        verbose_name_plural = _("revealed detachments")
        ordering = ["detachment", "turn"]
        constraints = [models.UniqueConstraint(fields=["detachment", "to_side"], name="campaign_reveal_once")]

    def __str__(self) -> str:
        return f"{self.detachment} → {self.to_side}"


class CampaignScoreEntry(models.Model):
    """One line of the score ledger (R35–R40); a side's score is the sum of its lines."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="score_entries")
    turn = models.PositiveSmallIntegerField(_("turn"))
    side = models.CharField(_("side"), max_length=4, choices=SIDE_CHOICES)
    kind = models.CharField(_("kind"), max_length=20)
    points = models.IntegerField(_("points"))
    subject = models.CharField(_("territory or detachment"), max_length=200, blank=True)
    detail = models.JSONField(_("detail"), default=dict, blank=True)

    class Meta:
        db_table = "league_campaignscoreentry"  # kept from the league app
        verbose_name = _("campaign score entry")
        verbose_name_plural = _("campaign score entries")
        ordering = ["campaign", "turn", "pk"]

    def __str__(self) -> str:
        return f"{self.turn} {self.side} {self.kind} {self.points:+d}"
