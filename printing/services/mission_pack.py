"""A round's mission pack as plain data (printing/data.py), in the tournament's language:
the cover and pairings, each mission's block, each table's sheet with its rolls and the boxes
its game system prints; ``register`` hands the mission pack's renderer to the pack builder.

The game page and the admin read the same words (``PURPOSES``, ``roll_lines``, ``dice_text``).
"""
from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, BinaryIO

from django.db.models import F
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.i18n import current_language, localized
from events import table_blocks
from events.models import Game, Player, Round, Tournament
from missions import legality
from missions.models import Level, Mission, SpecialRule, Stratagem, StratagemCategory
from missions.services import exceptions_of
from printing import diagram, draft_mark, renderers
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
from printing.models import MissionPack
from printing.render import render_pack
from printing.renderers import PackError
from printing.services.sheet_boxes import SheetKit

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
    scenario. Either way the sheet then carries the boxes its system names (events/systems)."""
    tournament = round_.tournament
    games = list(round_.games.select_related("player_a", "player_b", "mission")
                 .order_by(F("table").asc(nulls_last=True), "pk"))
    with translation.override(tournament.language):
        catalogue = Catalogue(tournament.level) if tournament.rules.rolls_missions else None
        blocks = mission_blocks(round_, games, catalogue) if catalogue is not None else {}
        kit = SheetKit(round_, games)
        sheets = tuple(system_sheet(g, catalogue, kit) for g in games if not g.is_bye)
        groups = table_blocks.of_round(round_)
        pairings = tuple(pairing_line(g) for g in games)
        if groups is not None:  # tables in blocks (team matches): each sheet names its block
            sheets = tuple(replace(sheet, block=block_label(groups, sheet.table)) for sheet in sheets)
            pairings = grouped_pairings(groups, games)
        return PackContent(
            header=pack_header(round_, games),
            pairings=pairings,
            missions=blocks,
            sheets=sheets,
        )


def block_label(groups: table_blocks.RoundBlocks, table: int) -> str:
    block = groups.of_table(table)
    return block.sheet_label if block else ""


def grouped_pairings(groups: table_blocks.RoundBlocks, games: list[Game]) -> tuple[PairingLine, ...]:
    """The cover's list in blocks: each block's title (and score) over its games, in block
    order, then the byes (as the projector and the results grid show them)."""
    lines: list[PairingLine] = []
    for block, block_games in groups.group(games, lambda g: g.table):
        if block is not None:
            lines.append(PairingLine(None, "", "", heading=block.title, detail=block.score))
        lines.extend(pairing_line(g) for g in block_games)
    return tuple(lines)


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


def mission_pack_renderer(pack: MissionPack, chunk: int,
                          progress: Callable[[int, int], None]) -> Callable[[BinaryIO], int]:
    """The pack as the round is when it builds: a draft round's (still unpublished when the
    worker reads it) carries the draft band on every page."""
    content = pack_content(pack.round)
    if pack.round.status != Round.Status.DRAFT:
        return lambda out: render_pack(content, out, chunk_tables=chunk, progress=progress)
    language = pack.round.tournament.language

    def write_draft(out: BinaryIO) -> int:
        plain = io.BytesIO()
        render_pack(content, plain, chunk_tables=chunk, progress=progress)
        return draft_mark.mark(plain.getvalue(), out, draft_mark.draft_words(language), language)
    return write_draft


def register() -> None:
    """The mission pack's renderer, for the pack builder (PrintingConfig.ready)."""
    renderers.register(MissionPack.Kind.MISSION_PACK, mission_pack_renderer)
