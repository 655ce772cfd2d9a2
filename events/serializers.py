"""API shapes for tournaments, players, rounds, games, reports and standings."""
from datetime import UTC, datetime

from django.conf import settings as django_settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armylists.models import Chart, GameSystem
from armylists.serializers import ListBodySerializer
from campaigns.state_serializers import CampaignReportSerializer
from events import formats
from events.models import TIEBREAK_CHOICES, WEIGHTS, Game, Player, Round, Tournament
from events.systems.config import ConfigError, event_config
from missions.models import Level
from missions.serializers import MissionSerializer

MAX_SEED = 2**31 - 1


class InstantField(serializers.DateTimeField):
    """A moment in the server's time zone, or in UTC where that zone's offset has seconds.

    Before standard time (1891 in Paris) the time-zone database gives local mean time,
    +00:09:21, which RFC 3339 (the schema's ``date-time``) cannot write."""

    def to_representation(self, value: datetime | None) -> str | None:
        if value is None:
            return None
        text = _local_or_utc(value).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text


def _local_or_utc(value: datetime) -> datetime:
    local = timezone.localtime(value)
    offset = local.utcoffset()
    return local if offset is not None and offset.seconds % 60 == 0 else value.astimezone(UTC)


class TournamentSerializer(serializers.ModelSerializer):
    """Create (staff) and read a tournament; reference data by slug."""

    game_system = serializers.SlugRelatedField(
        slug_field="slug", queryset=GameSystem.objects.all(), required=False,
        # api-v1-systems: an event created without game_system (MUSTER_DEFAULT_GAME_SYSTEM)
        default=serializers.CreateOnlyDefault(
            lambda: GameSystem.objects.get(slug=django_settings.MUSTER_DEFAULT_GAME_SYSTEM)))
    chart = serializers.SlugRelatedField(slug_field="slug", queryset=Chart.objects.all())
    level = serializers.SlugRelatedField(slug_field="slug", queryset=Level.objects.all(),
                                         required=False, allow_null=True)
    scoring = serializers.JSONField(required=False)
    advanced_rules = serializers.JSONField(required=False)
    settings = serializers.JSONField(required=False)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAK_CHOICES), required=False, max_length=5
    )
    club_weight = serializers.ChoiceField(choices=WEIGHTS, required=False)
    faction_weight = serializers.ChoiceField(choices=WEIGHTS, required=False)
    list_deadline = InstantField(required=False, allow_null=True)
    player_count = serializers.SerializerMethodField()
    format = serializers.CharField(required=False, default=serializers.CreateOnlyDefault(formats.DEFAULT),
                                   max_length=16)

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "status", "game_system", "chart", "points_limit", "level", "rounds",
            "on_six", "missions", "scoring", "turn_system", "advanced_rules", "settings", "starts_on", "list_deadline", "lists_published", "require_check_in",
            "win_points", "draw_points", "loss_points", "bye_points", "tiebreaks", "bye_priority",
            "club_weight", "faction_weight", "language", "seed", "player_count", "format",
        ]
        read_only_fields = ["slug", "status", "player_count"]

    def validate_tiebreaks(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("A tiebreaker is listed twice."))
        return value

    def get_fields(self) -> dict:
        """The registered formats' settings, each under its format's name (events/formats.py)."""
        fields = super().get_fields()
        for event_format in formats.with_settings():
            fields[event_format.name] = format_settings_field(event_format)
        return fields

    def validate_format(self, value: str) -> str:
        if formats.get(value) is None:
            raise serializers.ValidationError(
                _("Unknown format %(format)s; the formats are: %(names)s.")
                % {"format": value, "names": ", ".join(formats.names())})
        return value

    def validate(self, attrs: dict) -> dict:
        """The system fields together (events/systems/config.py), as the model's clean reads them;
        the format's settings only under the chosen format."""
        attrs = _format_settings(attrs, self)
        try:
            return {**attrs, **event_config(attrs["game_system"], attrs.get("chart"), attrs)}
        except ConfigError as exc:
            raise serializers.ValidationError(exc.errors) from None

    def get_player_count(self, tournament: Tournament) -> int:
        """Annotated by the API's query; counted when the row comes from a service."""
        annotated = getattr(tournament, "player_count", None)
        return tournament.players.count() if annotated is None else annotated


def format_settings_field(event_format: formats.EventFormat) -> serializers.Serializer:
    """The format's settings serializer as a field: written as given, read from the format."""
    return _format_settings_class(event_format)(required=False, allow_null=True)


# Format name -> (the registered format, its field class): a tournament serializer lists its
# fields for every tournament it reads or writes, and DRF's metaclass gathers a new class's
# declared fields each time. Kept with its format: one registered anew (tests) gets its own.
_FORMAT_SETTINGS_CLASSES: dict[str, tuple[formats.EventFormat, type]] = {}


def _format_settings_class(event_format: formats.EventFormat) -> type:
    cached = _FORMAT_SETTINGS_CLASSES.get(event_format.name)
    if cached is not None and cached[0] is event_format:
        return cached[1]

    class FormatSettings(event_format.settings):
        def get_attribute(self, instance: Tournament) -> Tournament | None:
            return instance if instance.format == event_format.name else None

        def to_representation(self, instance: Tournament) -> dict | None:
            return event_format.read(instance) if event_format.read else None

    FormatSettings.__name__ = event_format.settings.__name__
    _FORMAT_SETTINGS_CLASSES[event_format.name] = (event_format, FormatSettings)
    return FormatSettings


def _format_settings(attrs: dict, serializer: serializers.Serializer) -> dict:
    """Refuse another format's settings; a format whose settings were left out gets defaults."""
    chosen = attrs.get("format", formats.DEFAULT)
    for event_format in formats.with_settings():
        if event_format.name != chosen and attrs.get(event_format.name) is not None:
            raise serializers.ValidationError({event_format.name: [
                _("These settings belong to the format %(format)s.") % {"format": event_format.name}]})
    event_format = formats.get(chosen)
    if event_format and event_format.settings and attrs.get(chosen) is None:
        defaults = event_format.settings(data={}, context=serializer.context)
        if not defaults.is_valid():
            raise serializers.ValidationError({chosen: defaults.errors})
        attrs[chosen] = defaults.validated_data
    return attrs


class TournamentCreateSerializer(TournamentSerializer):
    """The creation body: a tournament opens registration at once unless it is a draft."""

    status = serializers.ChoiceField(
        choices=[Tournament.Status.DRAFT, Tournament.Status.REGISTRATION_OPEN],
        default=Tournament.Status.REGISTRATION_OPEN, write_only=True)

    class Meta(TournamentSerializer.Meta):
        read_only_fields = ["slug", "player_count"]


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)


class PublishListsSerializer(serializers.Serializer):
    published = serializers.BooleanField(default=True)


class PlayerSerializer(serializers.ModelSerializer):
    """A registration; the account name only for staff and the player (it is a log-in)."""

    username = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "club", "faction", "checked_in", "dropped", "username"]
        read_only_fields = ["id", "checked_in", "dropped", "username"]

    def get_username(self, player: Player) -> str | None:
        user = getattr(self.context.get("request"), "user", None)
        mine = user is not None and user.is_authenticated and user.pk == player.user_id
        if player.user is None or not (mine or getattr(user, "is_staff", False)):
            return None
        return player.user.username


class RegisterSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    faction = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    username = serializers.CharField(max_length=150, required=False)


class PlayerUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    faction = serializers.CharField(max_length=120, required=False, allow_blank=True)
    checked_in = serializers.BooleanField(required=False)
    dropped = serializers.BooleanField(required=False)


class PlayerListBodySerializer(ListBodySerializer):
    """A tournament list: the tournament gives the chart and the points limit."""


class UnlockSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
    role = serializers.ChoiceField(choices=["", "attacker", "defender"], required=False, default="")


class PairSerializer(serializers.Serializer):
    draft = serializers.BooleanField(default=False)


class ScenarioSerializer(serializers.Serializer):
    scenario = serializers.CharField(max_length=5000, allow_blank=True, trim_whitespace=False)


class RepairSerializer(serializers.Serializer):
    confirm = serializers.IntegerField()


class PlayerIdMapField(serializers.DictField):
    """A JSON object keyed by player id (JSON keys are strings)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return {int(key): item for key, item in value.items()}
        except (TypeError, ValueError):
            raise serializers.ValidationError(_("Keys must be player ids.")) from None


class ResultSerializer(serializers.Serializer):
    winner = serializers.IntegerField(allow_null=True, required=False, default=None)
    outcome = serializers.DictField(required=False)


class ReportSerializer(serializers.Serializer):
    result = ResultSerializer()
    # A game system's own result facts (api-v1-systems "What a report carries beyond v1").
    outcome = serializers.DictField(required=False)
    victory_points = PlayerIdMapField(
        child=serializers.IntegerField(min_value=0, max_value=1_000_000), required=False, default=dict)
    stratagems = PlayerIdMapField(
        child=serializers.ListField(child=serializers.SlugField(max_length=80), max_length=20),
        required=False, default=dict)
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")
    # An Epic 40,000 campaign battle's swept and destroyed detachments (api-v1-systems).
    campaign = CampaignReportSerializer(required=False)


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


def mission_data(mission, cache: dict | None = None) -> dict | None:
    """A mission's public shape, serialised once per mission when a cache is given."""
    if mission is None:
        return None
    if cache is None:
        return MissionSerializer(mission).data
    if mission.pk not in cache:
        cache[mission.pk] = MissionSerializer(mission).data
    return cache[mission.pk]


def game_data(game: Game, problems_text, missions: dict | None = None) -> dict:
    """A game as api-v1 shows it inside a round."""
    data = {
        "id": game.pk,
        "table": game.table,
        "players": list(game.player_ids),
        "mission": mission_data(game.mission, missions),
        "roles": dict(game.roles),
        "list_problems": [{**p, "message": problems_text(p)} for p in game.list_problems],
        "deviations": list(game.deviations),
        "status": game.status,
        "mission_rolls": [r["total"] for r in game.rolls if r["purpose"].startswith("mission")],
        "pregame": {**game.pregame, "rolls": [r for r in game.rolls
                                               if not r["purpose"].startswith("mission")]},
    }
    if game.status == Game.Status.CONFIRMED and not game.is_bye:
        data["result"] = {"winner": game.winner_id, "victory_points": game.victory_points}
        data["outcome"] = dict(game.outcome)
    return data


def _text_once(problems_text):
    """``problems_text`` computed once per kind of problem: the sentence names no player, and a
    large round flags the same few (code, role, chart) many times."""
    texts: dict[tuple, str] = {}

    def text(problem: dict) -> str:
        key = tuple(sorted((k, v) for k, v in problem.items() if k != "player"))
        if key not in texts:
            texts[key] = problems_text(problem)
        return texts[key]
    return text


def round_data(round_: Round, games, problems_text) -> dict:
    missions: dict = {}
    problems_text = _text_once(problems_text)
    return {
        "number": round_.number,
        "status": round_.status,
        "mission": MissionSerializer(round_.mission).data if round_.mission else None,
        "rolls": [r["total"] for r in round_.rolls],
        "scenario": round_.scenario,
        "dice_log": list(round_.rolls),
        "games": [game_data(g, problems_text, missions) for g in games],
        "pairing": round_.pairing,
    }
