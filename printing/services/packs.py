"""Mission packs: ask for a round's pack, gather the round into plain data, build and store the PDF.

A round's wall sheets (``MissionPack.kind``: pairings, find your table, standings, slips) are
asked for, built, stored and served the same way; only their content (``wall_sheets``) and
layout (``printing/wall.py``) differ.

The task (``events.tasks.build_mission_pack``) calls ``build_pack``: it renders in chunks,
reports progress after each one, and stores the PDF only when complete (a temporary file in
the same directory, then ``os.replace``), so a retry never serves a half-written file.

A worker may die mid-build (killed, out of memory): the broker delivers the task again, and
the pack's ``progress_at`` stops moving, so after MUSTER_PACK_STALE_SECONDS the pack is stale:
staff can retry it and a new request for the round supersedes it. Each build run owns the
pack through a token taken under the row lock (``attempt``); a run that lost it (retried,
superseded, taken over by a redelivery) stops at its next write and never stores its file.
"""
from __future__ import annotations

import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from campaigns.pack_sheets import render_turn_pack
from config.i18n import current_language, localized
from events.audit import Actor, record
from events.errors import Conflict, Invalid, NotFound
from events.models import Game, Player, Round, Tournament
from events.services.tournaments import require_staff
from missions import legality
from missions.models import Level, Mission, SpecialRule, Stratagem, StratagemCategory
from missions.services import exceptions_of
from printing import diagram
from printing.data import (
    Allowance,
    MissionBlock,
    PackContent,
    PackHeader,
    PairingLine,
    RollLine,
    RuleText,
    ScoreField,
    Side,
    TableSheet,
)
from printing.models import MissionPack, new_token
from printing.render import DEFAULT_CHUNK_TABLES, render_pack
from printing.services.sheet_boxes import SheetKit
from printing.wall import render_wall

logger = logging.getLogger(__name__)
Status = MissionPack.Status
Kind = MissionPack.Kind
T = TypeVar("T")
ACTIVE = (Status.PENDING, Status.RUNNING)
# A pack found running this many times (each earlier run died mid-build) fails instead of
# starting again: a pack that kills its worker must not be redelivered for ever.
MAX_RUNS = 3
ERROR_MAX = 2000
PARTS_FOLDER = "packs"
PART_NAME = re.compile(r"^\.pack-(\d+)-.*\.part$")


class PackError(Exception):
    """The round's data cannot be printed; the message is for the organisers."""


class LostOwnership(Exception):
    """This build run no longer owns its pack (retried, superseded or taken over)."""


def stale_seconds() -> int:
    return int(settings.MUSTER_PACK_STALE_SECONDS)


# --- asking for a pack -------------------------------------------------------------------------

@transaction.atomic
def request_pack(actor: Actor, tournament: Tournament, number: int,
                 kind: str = Kind.MISSION_PACK) -> MissionPack:
    """A pack for round ``number`` (its mission pack, or the wall sheet ``kind``), built in
    the background once this transaction commits.

    A double click gets the pack of that kind already under way rather than a second one; a
    stale pack (its worker died) is superseded by a fresh one.
    """
    require_staff(actor)
    if kind not in Kind.values:
        raise Invalid(_("No such printout."), "pack_kind_unknown")
    round_ = Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise NotFound(_("No such round."), "round_not_found")
    if kind == Kind.TURN_PACK and not hasattr(round_, "campaign_turn"):
        raise Invalid(_("Only a campaign turn has a turn pack."), "pack_kind_unknown")
    if round_.status == Round.Status.DRAFT:
        raise Conflict(_("Publish the round before printing its mission pack.")
                       if kind == Kind.MISSION_PACK else
                       _("Publish the round before printing its wall sheets."),
                       "round_not_published")
    # The round's lock serialises requests, so at most one live pack per round and kind.
    active = list(round_.mission_packs.select_for_update().filter(status__in=ACTIVE, kind=kind))
    live = next((pack for pack in active if not pack.stale), None)
    if live is not None:
        return live
    pack = MissionPack.objects.create(round=round_, kind=kind,
                                      requested_by=actor.user if actor.user_id else None)
    for old in active:
        _supersede(actor, old, pack)
    details = {"pack": pack.pk, "round": number}
    if kind != Kind.MISSION_PACK:
        details["kind"] = kind
    record(actor, "mission_pack_requested", tournament, round_, details)
    dispatch(pack)
    return pack


def _supersede(actor: Actor, old: MissionPack, new: MissionPack) -> None:
    """Fail a stale pack in favour of ``new``; clearing its token stops a run still alive."""
    now = timezone.now()
    old.status, old.attempt, old.finished_at, old.progress_at = Status.FAILED, "", now, now
    old.error = gettext("Stopped making progress; superseded by mission pack %(pack)d.") % {
        "pack": new.pk}
    old.save(update_fields=["status", "attempt", "finished_at", "progress_at", "error"])
    record(actor, "mission_pack_superseded", old.round.tournament, old.round,
           {"pack": old.pk, "by": new.pk})


@transaction.atomic
def retry_pack(actor: Actor, pack: MissionPack) -> MissionPack:
    """Start a failed or stale pack again (same row, new build)."""
    require_staff(actor)
    locked = MissionPack.objects.select_for_update().get(pk=pack.pk)
    if locked.status != Status.FAILED and not locked.stale:
        raise Conflict(_("Only a failed or stalled mission pack can be retried."), "pack_not_failed")
    was = locked.status
    # An empty token: a run of the stale build that is still alive stops at its next write.
    locked.status, locked.progress, locked.error, locked.attempt, locked.runs = (
        Status.PENDING, 0, "", "", 0)
    locked.progress_at, locked.started_at, locked.finished_at = timezone.now(), None, None
    locked.save(update_fields=["status", "progress", "error", "attempt", "runs", "progress_at",
                               "started_at", "finished_at"])
    round_ = Round.objects.select_related("tournament").get(pk=locked.round_id)
    record(actor, "mission_pack_retried", round_.tournament, round_, {"pack": locked.pk, "was": was})
    dispatch(locked)
    return locked


def dispatch(pack: MissionPack) -> None:
    """Queue the build after commit: the worker must see the pack row."""
    from events.tasks import build_mission_pack  # the task module imports this one

    pack_id = pack.pk
    transaction.on_commit(lambda: build_mission_pack.delay(pack_id))


# --- building it (the task's body) ---------------------------------------------------------------

def chunk_tables() -> int:
    return int(getattr(settings, "MUSTER_PACK_CHUNK_TABLES", DEFAULT_CHUNK_TABLES))


def build_pack(pack_id: int, chunk: int | None = None) -> str:
    """Render and store pack ``pack_id``; idempotent: a done pack with its file is left alone.

    Returns the final status ("missing" or "superseded" when there is nothing for this run
    to do). A failure is recorded on the pack, not raised.
    """
    sweep_parts()
    claimed = claim(pack_id)
    if isinstance(claimed, str):
        return claimed
    pack, attempt = claimed
    try:
        store_atomically(pack, _renderer(pack, chunk or chunk_tables(),
                                         _reporter(pack.pk, attempt)),
                         publish=_publisher(pack, attempt))
    except LostOwnership:
        logger.warning("mission pack %s: run %s lost the pack to a newer one", pack_id, attempt)
        return "superseded"
    except Exception as exc:  # recorded for the organisers; the worker stays up
        logger.exception("mission pack %s failed", pack_id)
        MissionPack.objects.filter(pk=pack.pk, attempt=attempt, status=Status.RUNNING).update(
            status=Status.FAILED, error=_error_text(exc), finished_at=timezone.now(),
            progress_at=timezone.now())
        return Status.FAILED
    return Status.DONE


def _renderer(pack: MissionPack, chunk: int,
              progress: Callable[[int, int], None]) -> Callable[[BinaryIO], int]:
    """What writes the pack's PDF: the round's mission pack, or one of its wall sheets."""
    if pack.kind == Kind.MISSION_PACK:
        content = pack_content(pack.round)
        return lambda out: render_pack(content, out, chunk_tables=chunk, progress=progress)
    if pack.kind == Kind.TURN_PACK:
        from campaigns.services.pack import turn_pack_content  # it imports this module

        turn = turn_pack_content(pack.round)
        return lambda out: render_turn_pack(turn, out, progress=progress)
    from printing.services import wall_sheets  # it reads this module's helpers

    sheet = wall_sheets.wall_content(pack.round, pack.kind)
    return lambda out: render_wall(sheet, out, chunk=chunk, progress=progress)


@transaction.atomic
def claim(pack_id: int) -> tuple[MissionPack, str] | str:
    """Make this run the pack's owner (a new token), or say why there is nothing to build.

    A running pack is taken over: the broker delivers a task again only when its worker died
    (or outlived the visibility timeout), so the build starts over from nothing.
    """
    pack = MissionPack.objects.select_for_update().filter(pk=pack_id).first()
    if pack is None:
        return "missing"
    if pack.status == Status.DONE and stored_path(pack) is not None:
        return Status.DONE
    if pack.status == Status.FAILED:
        return Status.FAILED  # a leftover delivery: a retry makes the pack pending first
    now = timezone.now()
    if pack.status == Status.RUNNING and pack.runs >= MAX_RUNS:
        MissionPack.objects.filter(pk=pack.pk).update(
            status=Status.FAILED, attempt="", finished_at=now, progress_at=now,
            error=gettext("The build stopped %(count)d times before finishing (the worker was "
                          "lost each time).") % {"count": pack.runs})
        return Status.FAILED
    attempt = new_token()
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.RUNNING, progress=0, error="", started_at=now, finished_at=None,
        progress_at=now, attempt=attempt, runs=F("runs") + 1)
    remove_parts(pack.pk)  # whatever an earlier run of this pack left is an orphan now
    pack = MissionPack.objects.select_related(
        "round__tournament__level", "round__tournament__game_system", "round__mission",
    ).get(pk=pack.pk)
    return pack, attempt


def _reporter(pack_id: int, attempt: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        # 100 is kept for "stored": the merge and the write come after the last chunk.
        moved = MissionPack.objects.filter(pk=pack_id, status=Status.RUNNING, attempt=attempt).update(
            progress=min(99, done * 100 // total), progress_at=timezone.now())
        if not moved:
            raise LostOwnership(pack_id)
    return report


def _publisher(pack: MissionPack, attempt: str) -> Callable[[Callable[[], None], int], None]:
    """Move the finished file into place only while this run still owns the pack."""
    def publish(move: Callable[[], None], pages: int) -> None:
        with transaction.atomic():
            owned = MissionPack.objects.select_for_update().filter(
                pk=pack.pk, status=Status.RUNNING, attempt=attempt).exists()
            if not owned:
                raise LostOwnership(pack.pk)
            move()
            now = timezone.now()
            MissionPack.objects.filter(pk=pack.pk).update(
                status=Status.DONE, progress=100, file=pack.file_name, pages=pages, error="",
                finished_at=now, progress_at=now)
    return publish


def fail_timed_out(pack_id: int) -> None:
    """The hard time limit killed the build: say so on the pack (the run wrote nothing)."""
    now = timezone.now()
    MissionPack.objects.filter(pk=pack_id, status=Status.RUNNING).update(
        status=Status.FAILED, attempt="", finished_at=now, progress_at=now,
        error=gettext("The build took too long and was stopped."))


def _error_text(exc: Exception) -> str:
    if isinstance(exc, SoftTimeLimitExceeded):
        return gettext("The build took too long and was stopped.")
    text = str(exc) if isinstance(exc, PackError) else f"{type(exc).__name__}: {exc}"
    return text[:ERROR_MAX]


def media_path(name: str) -> Path:
    return Path(settings.MEDIA_ROOT) / name


def stored_path(pack: MissionPack) -> Path | None:
    """The finished file, when there is one."""
    if not pack.file:
        return None
    path = media_path(pack.file.name)
    return path if path.is_file() else None


def store_atomically(pack: MissionPack, write: Callable[[BinaryIO], T],
                     publish: Callable[[Callable[[], None], T], None] | None = None) -> T:
    """Run ``write`` into a temporary file, then move it onto the pack's final path.

    The move is atomic (same directory), so readers see the old file or the whole new one.
    ``publish(move, result)``, when given, decides whether and when the move happens (the
    build moves only under the pack's row lock, while it still owns the pack).
    """
    final = media_path(pack.file_name)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, part = tempfile.mkstemp(dir=final.parent, prefix=f".pack-{pack.pk}-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            result = write(out)
            out.flush()
            os.fsync(out.fileno())

        def move() -> None:
            os.replace(part, final)

        if publish is None:
            move()
        else:
            publish(move, result)
    finally:
        Path(part).unlink(missing_ok=True)
    return result


def remove_parts(pack_id: int) -> None:
    """Drop every temporary file of this pack (called by the run that now owns it)."""
    for leftover in media_path(PARTS_FOLDER).glob(f".pack-{pack_id}-*.part"):
        leftover.unlink(missing_ok=True)


def sweep_parts() -> int:
    """Remove temporary files older than the stale limit whose pack is not being built.

    A build creates its file when it starts, so an old file of a live (not stale) running pack
    is kept. Returns how many were removed.
    """
    folder = media_path(PARTS_FOLDER)
    limit = time.time() - stale_seconds()
    old: dict[Path, int] = {}
    for path in folder.glob(".pack-*.part") if folder.is_dir() else ():
        match = PART_NAME.match(path.name)
        try:
            if match and path.stat().st_mtime < limit:
                old[path] = int(match.group(1))
        except FileNotFoundError:
            pass
    if not old:
        return 0
    building = {pack.pk for pack in MissionPack.objects.filter(
        pk__in=set(old.values()), status=Status.RUNNING) if not pack.stale}
    removed = 0
    for path, pack_id in old.items():
        if pack_id not in building:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


# --- gathering the round into plain data -----------------------------------------------------------

PURPOSES = {
    "mission": _("Mission"),
    "mission_special": _("Mission"),
    "roles": _("Attacker and defender"),
    "deployment": _("Deployment zone"),
    "stratagem_declaration": _("Stratagem declaration"),
    "dawn_dusk": _("Dawn & Dusk"),
    "first_turn": _("First turn"),
}
NIGHT = {
    "none": _("No night fighting"),
    "turn_1": _("Night fighting on turn 1"),
    "from_turn_6": _("Night fighting from turn 6"),
}
ROLES = {"attacker": _("attacker"), "defender": _("defender")}


class Catalogue:
    """The reference rows a pack reads, loaded once and named in the pack's language."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.rules = {r.slug: r for r in SpecialRule.objects.all()}
        self.categories = {c.slug: c.name for c in StratagemCategory.objects.all()}
        ordered = list(Stratagem.objects.select_related("category").order_by("category__order", "order"))
        self.stratagems = {s.slug: s.name for s in ordered}
        # (slug, "name (category)", category slug) in catalogue order: the game page's choices.
        self.stratagem_rows = [(s.slug, f"{s.name} ({s.category.name})", s.category.slug)
                               for s in ordered]
        self.labels = diagram.DiagramLabels(
            attacker=gettext("attacker"), defender=gettext("defender"), objective=gettext("objective"),
            entry=gettext("entry"), exit=gettext("exit"), road=gettext("road"))
        self._granted: dict[tuple[str, str | None], legality.Allowance] = {}
        self._allowances: dict[tuple[str, str | None], Allowance] = {}

    def granted(self, mission: Mission, role: str | None) -> legality.Allowance:
        """What this level and mission grant a player of ``role`` (computed once per pair)."""
        key = (mission.slug, role)
        if key not in self._granted:
            self._granted[key] = legality.allowance_for(self.level.stratagems_per_player, role,
                                                        exceptions_of(mission))
        return self._granted[key]

    def allowance(self, mission: Mission, role: str | None) -> Allowance:
        key = (mission.slug, role)
        if key not in self._allowances:
            self._allowances[key] = allowance_text(self.granted(mission, role), self.categories,
                                                   self.stratagems)
        return self._allowances[key]


def pack_content(round_: Round) -> PackContent:
    """Everything the round's pack prints, in the tournament's language.

    Cities of Death events print each game's mission; the other systems print the round's
    scenario. Either way the sheet then carries the boxes its system names (league/systems)."""
    tournament = round_.tournament
    games = list(round_.games.select_related("player_a", "player_b", "mission")
                 .order_by(F("table").asc(nulls_last=True), "pk"))
    with translation.override(tournament.language):
        catalogue = Catalogue(tournament.level) if tournament.rules.rolls_missions else None
        blocks = mission_blocks(round_, games, catalogue) if catalogue is not None else {}
        kit = SheetKit(round_, games)
        sheets = tuple(system_sheet(g, catalogue, kit) for g in games if not g.is_bye)
        return PackContent(
            header=pack_header(round_, games),
            pairings=tuple(pairing_line(g) for g in games),
            missions=blocks,
            sheets=sheets,
        )


def mission_blocks(round_: Round, games: list[Game],
                   catalogue: Catalogue) -> dict[str, MissionBlock]:
    """The shared block of each mission the round's tables play."""
    used = {g.mission.slug: g.mission for g in games if g.mission is not None}
    if round_.mission is not None:
        used.setdefault(round_.mission.slug, round_.mission)
    return {slug: mission_block(m, catalogue) for slug, m in used.items()}


def system_sheet(game: Game, catalogue: Catalogue | None, kit: SheetKit) -> TableSheet:
    """A table's sheet: its mission's (with a catalogue) or a scenario sheet, with the boxes
    its game system prints."""
    players = sheet_order(game)
    if catalogue is not None:
        sheet = table_sheet(game, catalogue, players)
    else:
        sheet = TableSheet(table=game.table, mission_key=None,
                           a=Side(players[0].name, players[0].club, players[0].faction),
                           b=Side(players[1].name, players[1].club, players[1].faction))
    parts = kit.sheet_parts(game, players)
    return replace(sheet, blocks=parts.blocks, back_blocks=parts.back_blocks, boxes=parts.boxes)


def pack_header(round_: Round, games: list[Game]) -> PackHeader:
    tournament = round_.tournament
    day = tournament.starts_on or timezone.localdate(round_.published_at or round_.created_at)
    names: list[str] = []
    for mission in [round_.mission] + [g.mission for g in games]:
        if mission is not None and mission.name not in names:
            names.append(mission.name)
    standard = tournament.turn_system == Tournament.TurnSystem.STANDARD
    return PackHeader(
        language=tournament.language, event=tournament.name, round_number=round_.number,
        level=tournament.level.name if tournament.level else "",
        date=date_format(day, "DATE_FORMAT"), missions=tuple(names),
        mission_rolls=dice_text(round_.rolls),
        system=tournament.game_system.name, points_limit=tournament.points_limit,
        turn_system="" if standard else str(tournament.get_turn_system_display()),
    )


def pairing_line(game: Game) -> PairingLine:
    a, b = game.player_a, game.player_b
    if b is None:
        return PairingLine(None, a.name, a.club)
    return PairingLine(game.table, a.name, a.club, b.name, b.club,
                       game.mission.name if game.mission else "")


def mission_block(mission: Mission, catalogue: Catalogue) -> MissionBlock:
    level = catalogue.level
    try:
        svg = diagram.table_diagram(mission.diagram, level.table_width_cm, level.table_depth_cm,
                                    catalogue.labels)
    except diagram.DiagramError as exc:
        raise PackError(gettext("The table diagram of mission %(mission)s cannot be drawn: %(reason)s")
                        % {"mission": mission.name, "reason": exc}) from exc
    rules = []
    for slug in mission.special_rules_by_level.get(level.slug, ()):
        rule = catalogue.rules.get(slug)
        rules.append(RuleText(rule.name, rule.summary) if rule else RuleText(slug, ""))
    return MissionBlock(
        key=mission.slug, name=mission.name, level=level.name, objective=mission.objective,
        deployment=mission.deployment, game_turns=game_length_text(mission),
        diagram_svg=svg, diagram_width_mm=diagram.width_mm(level.table_width_cm),
        table_size=f"{level.table_width_cm} × {level.table_depth_cm} cm", rules=tuple(rules),
        score_fields=tuple(ScoreField(localized_label(f), f.get("type", "count"))
                           for f in mission.outcome_fields),
        uses_victory_points=mission.uses_victory_points,
    )


def localized_label(field: Mapping[str, Any]) -> str:
    """An outcome field's label (catalogue JSON, not a model field) in the active language."""
    lang = current_language()
    return field.get(f"label_{lang}") or field.get("label_en") or field.get("name", "")


def game_length_text(mission: Mission) -> str:
    text = ngettext("%(count)d game turn.", "%(count)d game turns.", mission.game_turns) % {
        "count": mission.game_turns}
    note = localized(mission, "game_turns_note")
    return f"{text} {note}" if note else text


def allowance_text(granted: legality.Allowance, categories: Mapping[str, str],
                   stratagems: Mapping[str, str]) -> Allowance:
    """What a player may declare, in words, and one box per stratagem to write down."""
    lines = [ngettext("%(count)d stratagem", "%(count)d stratagems", granted.base)
             % {"count": granted.base}]
    boxes = [""] * granted.base
    for slug, count in granted.extras.items():
        name = categories.get(slug, slug)
        lines.append(gettext("+ %(count)d %(category)s only") % {"count": count, "category": name})
        boxes += [name] * count
    for slug, count in granted.free.items():
        name = stratagems.get(slug, slug)
        if count is None:
            lines.append(gettext("%(stratagem)s: as many as you like, outside the quota")
                         % {"stratagem": name})
        else:
            lines.append(gettext("%(stratagem)s: %(count)d outside the quota")
                         % {"stratagem": name, "count": count})
            boxes += [gettext("%(stratagem)s (free)") % {"stratagem": name}] * count
    for slug, count in granted.repeatable.items():
        if slug not in granted.free:
            lines.append(gettext("%(stratagem)s may be taken more than once")
                         % {"stratagem": stratagems.get(slug, slug)} if count is None else
                         gettext("%(stratagem)s may be taken up to %(count)d times")
                         % {"stratagem": stratagems.get(slug, slug), "count": count})
    for slug in sorted(granted.forbidden_categories):
        lines.append(gettext("No %(category)s stratagem") % {"category": categories.get(slug, slug)})
    return Allowance(tuple(lines), tuple(boxes))


def sheet_order(game: Game) -> list[Player]:
    """The sheet's columns: with roles the attacker takes the left one, so one form serves all."""
    players = [game.player_a, game.player_b]
    if game.roles.get(str(game.player_b_id)) == "attacker":
        players.reverse()
    return players


def table_sheet(game: Game, catalogue: Catalogue,
                players: list[Player] | None = None) -> TableSheet:
    """One table's Cities of Death sheet; ``players`` in column order (``sheet_order``)."""
    mission = game.mission
    if mission is None or game.player_b is None:
        raise PackError(gettext("Table %(table)s has no mission.") % {"table": game.table})
    players = players or sheet_order(game)
    names = {str(p.pk): p.name for p in players}
    sides = []
    for player in players:
        role = game.roles.get(str(player.pk)) if mission.roles else None
        sides.append(Side(player.name, player.club, player.faction,
                          str(ROLES.get(role, "")) if role else "",
                          catalogue.allowance(mission, role)))
    ids = (str(players[0].pk), str(players[1].pk))
    return TableSheet(table=game.table, mission_key=mission.slug, a=sides[0], b=sides[1],
                      rolls=roll_lines(game, ids, names))


def roll_lines(game: Game, ids: tuple[str, str], names: Mapping[str, str]) -> tuple[RollLine, ...]:
    """The game's rolls grouped by step, each with what it settled."""
    groups: dict[str, list[dict]] = {}
    for roll in game.rolls:
        key = "mission" if roll["purpose"].startswith("mission") else roll["purpose"]
        groups.setdefault(key, []).append(roll)
    lines = []
    for purpose, rolls in groups.items():
        mine = {pid: dice_text([r for r in rolls if r.get("player") == pid]) for pid in ids}
        shared = dice_text([r for r in rolls if r.get("player") not in ids])
        lines.append(RollLine(str(PURPOSES.get(purpose, purpose)), mine[ids[0]], mine[ids[1]],
                              shared, outcome_text(purpose, game, names)))
    if "first_turn" not in groups and game.pregame.get("goes_first"):
        lines.append(RollLine(str(PURPOSES["first_turn"]), shared=gettext("set by the mission"),
                              outcome=outcome_text("first_turn", game, names)))
    return tuple(lines)


def outcome_text(purpose: str, game: Game, names: Mapping[str, str]) -> str:
    decided = game.pregame

    def who(key: str) -> str:
        return names.get(str(decided.get(key)), "")

    if purpose == "mission":
        return game.mission.name if game.mission else ""
    if purpose == "roles":
        attacker = next((names[p] for p, r in game.roles.items() if r == "attacker" and p in names), "")
        return gettext("%(player)s attacks") % {"player": attacker} if attacker else ""
    if purpose == "deployment" and who("deployment_chooser"):
        return gettext("%(player)s picks the zone") % {"player": who("deployment_chooser")}
    if purpose == "stratagem_declaration" and who("declares_first"):
        return gettext("%(player)s declares first") % {"player": who("declares_first")}
    if purpose == "dawn_dusk":
        return str(NIGHT.get(decided.get("dawn_dusk") or "", ""))
    if purpose == "first_turn" and who("goes_first"):
        return gettext("%(player)s goes first") % {"player": who("goes_first")}
    return ""


def dice_text(rolls: list[dict]) -> str:
    """Stored rolls as printed: "D6: 3 · 5" (a tie rolled again), "2D6: 3+4=7"."""
    if not rolls:
        return ""
    shown = []
    for roll in rolls:
        dice = [str(d) for d in roll.get("dice", ())]
        single = len(dice) == 1 and str(roll.get("total")) == dice[0]
        shown.append(dice[0] if single else f"{'+'.join(dice)}={roll.get('total')}")
    return f"{rolls[0].get('expression', '')}: {' · '.join(shown)}"
