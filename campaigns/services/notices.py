"""The e-mail notices of an Epic 40,000 campaign, sent by notices/services.py like every
other notice (the same ``Notice`` claim, queue, language and opt-out): a phase or a turn open,
the battles generated, a battle reported or settled, a choice waiting after a battle, a
detachment to place, a turn closed.

Each letter goes to a side's player and says only what that side may see (R12): detachment
names pass through the campaign page's ``Reader`` (campaigns/rows.py), the rule the page
and the map follow, built from the side's ``CampaignReveal`` rows. A builder reads a fixed set
of rows whatever the size of the armies; the words are written in ``compose``, in the
recipient's language (campaigns/notice_texts.py)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from campaigns import notice_texts as texts
from campaigns.engine import map as grid
from campaigns.models import (
    Campaign,
    CampaignBattle,
    CampaignDetachment,
    CampaignOrder,
    CampaignScoreEntry,
    CampaignSide,
    CampaignTurn,
)
from campaigns.notice_reads import (
    campaign_of,
    letter_head,
    page_link,
    phase_still_open,
    readers_of,
    side_label,
    to_players,
    turn_of,
)
from campaigns.rows import Reader, allowance_rows
from campaigns.services import battles as campaign_battles
from campaigns.services import campaign as campaigns
from campaigns.services import declarations as campaign_declarations
from campaigns.services import placement as campaign_placement
from campaigns.words import RELOCATIONS, SCORE_KINDS, SIDES, VICTORY_REASONS, phase_name, word
from events.models import Report
from notices import letters as registry
from notices.letters import Letter
from notices.models import Notice

Kind = Notice.Kind
BATTLES_PHASE = campaign_battles.BATTLES_PHASE


# A phase open, a turn open ------------------------------------------------------------------------

def phase_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """``stamp`` is "<turn>:<phase>"; an empty phase is the turn itself opening. A phase the
    organisers moved past before the task ran has nothing left to announce."""
    number, _sep, phase = stamp.partition(":")
    campaign, turn = phase_still_open(campaign_id, number, phase)
    if campaign is None or turn is None:
        return []
    sides = campaigns.sides_of(campaign)
    state = campaigns.state_of(campaign, turn)
    initiative = (turn.initiative or {}).get(phase, {})

    def compose(side: str) -> texts.Letter:
        head = letter_head(campaign, turn.number, "#orders")
        left = [texts.Allowance(str(a["label"]), a["left"], a["limit"], tuple(a["commanders"]))
                for a in allowance_rows(state, side)]
        if not phase:
            return texts.turn_open(head, allowances=left)
        rolls = [_("%(side)s %(die)s + %(modifier)s = %(score)s") % {
            "side": word(SIDES, r["side"]), "die": r["die"], "modifier": r["modifier"],
            "score": r["score"]} for r in initiative.get("rolls", [])]
        winner = initiative.get("winner", "")
        due = campaign_declarations.deadline_of(turn, phase)
        when = date_format(timezone.localtime(due), "DATETIME_FORMAT") if due else ""
        return texts.phase_open(head, phase=phase_name(phase), rolls=rolls, deadline=when,
                                winner=side_label(sides, winner), i_won=winner == side,
                                allowances=left)

    return to_players(campaign, sides, f"{turn.number}:{phase}", compose)


# The battles of a turn ----------------------------------------------------------------------------

def _sheet(campaign: Campaign, battle: CampaignBattle, reader: Reader, side: str,
           sides: Mapping[str, CampaignSide]) -> texts.BattleSheet:
    """The campaign page's battle sheet (campaign_page.battle_rows) as the reader sees it."""
    place = grid.territory(battle.territory)
    mine = "attacker" if side == battle.attacker else "defender" if side == battle.defender else ""
    # G13: an undefended territory is taken unseen: the defender learns who took it, not with what.
    sees_attackers = battle.contested or side == battle.attacker
    return texts.BattleSheet(
        territory=battle.territory,
        where=_("%(side)s line %(line)s") % {"side": word(SIDES, place.home_side),
                                             "line": place.line},
        mine=mine, contested=battle.contested,
        attacker=side_label(sides, battle.attacker),
        attackers=tuple(reader.names(battle.attacker, battle.attackers)) if sees_attackers else (),
        attacker_points=battle.attacker_points, defender=side_label(sides, battle.defender),
        deployed=tuple(reader.names(battle.defender, battle.defender_deployed)),
        reserves=tuple(reader.names(battle.defender, battle.defender_reserves)),
        defender_points=battle.defender_points, fortifications=battle.fortifications,
        at_stake=(int(battle.at_stake.get("attacker", 0)), int(battle.at_stake.get("defender", 0))),
        isolated=tuple(n for n in battle.isolated
                       if reader.knows(battle.attacker, n) or reader.knows(battle.defender, n)),
        link=page_link(campaign, f"#battle-{battle.pk}"))


def battles_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """Every battle involves both sides (a campaign has two): each player gets the turn's
    battles, once they are generated and while the turn is open."""
    campaign = campaign_of(campaign_id)
    turn = turn_of(campaign, stamp) if campaign is not None else None
    if turn is None or turn.closed_at is not None or turn.phase != BATTLES_PHASE:
        return []
    fights = list(turn.battles.order_by("pk"))
    if not fights:
        return []
    sides = campaigns.sides_of(campaign)
    readers = readers_of(campaign, sides)

    def compose(side: str) -> texts.Letter:
        sheets = [_sheet(campaign, b, readers[side], side, sides) for b in fights]
        return texts.battles(letter_head(campaign, turn.number, "#battles"), sheets)

    return to_players(campaign, sides, str(turn.number), compose)


# A battle's report, its settlement, and the choices after it --------------------------------------

def _battle_of(game_id: int) -> CampaignBattle | None:
    return CampaignBattle.objects.select_related("game", "turn__campaign__tournament").filter(
        game_id=game_id).first()


def _result(battle: CampaignBattle, report: Report, reader: Reader, side: str,
            sides: Mapping[str, CampaignSide]) -> texts.BattleResult:
    game = battle.game
    winner = (battle.attacker if report.winner_id == game.player_a_id
              else battle.defender if report.winner_id == game.player_b_id else None)
    facts = (report.outcome or {}).get("campaign", {})
    attacking = set(battle.attackers)

    def shown(names: Sequence[str]) -> tuple[str, ...]:
        return tuple(reader.names(battle.attacker if n in attacking else battle.defender, [n])[0]
                     for n in names)

    return texts.BattleResult(side_label(sides, winner) if winner else None, winner == side,
                              shown(facts.get("swept", ())), shown(facts.get("destroyed", ())))


def report_letters(report: Report, *, settled: bool) -> list[Letter]:
    """A player's report of a battle tells the opponent (confirm or dispute, or it contradicts
    theirs); a staff settlement tells both. The caller (notices) checked the report's state."""
    battle = _battle_of(report.game_id)
    if battle is None:
        return []
    campaign = battle.turn.campaign
    sides = campaigns.sides_of(campaign)
    readers = readers_of(campaign, sides)
    by_side = {row.player_id: side for side, row in sides.items()}
    reporter = by_side.get(report.by_player_id)
    recipients = grid.SIDES if settled else tuple(s for s in grid.SIDES if s != reporter)

    def compose(side: str) -> texts.Letter:
        head = letter_head(campaign, battle.turn.number, f"#battle-{battle.pk}")
        result = _result(battle, report, readers[side], side, sides)
        if settled:
            return texts.battle_settled(head, territory=battle.territory, result=result)
        return texts.battle_reported(
            head, territory=battle.territory, opponent=sides[reporter].player.name, result=result,
            disputed=report.status == Report.Status.DISPUTED)

    return to_players(campaign, sides, str(report.pk), compose, recipients)


def choice_letters(report_id: int, stamp: str) -> list[Letter]:
    """R32 once a battle's result is confirmed (by ``report``): the winner (G12: the defender
    after a draw) chooses who stays, the beaten defender where each detachment retreats when
    there is more than one nearest friendly territory. Nothing when nothing is to choose."""
    latest = Report.objects.filter(game__reports=report_id, status=Report.Status.CONFIRMED
                                   ).order_by("-confirmed_at", "-pk").first()
    if latest is None or latest.pk != report_id:
        return []  # gone, or settled again since: that settlement has its own notice
    battle = _battle_of(latest.game_id)
    if battle is None or battle.turn.closed_at is not None or not battle.contested:
        return []
    result = campaign_battles.battle_result(battle)
    if result is None:
        return []
    campaign = battle.turn.campaign
    winner = campaign_battles.winner_side(battle)
    keeper = winner if winner is not None else battle.defender
    eligible = [n for n in (battle.attackers if keeper == battle.attacker
                            else battle.defender_reserves) if n not in result.destroyed]
    options: dict[str, tuple[str, ...]] = {}
    if winner == battle.attacker and not battle.retreat_to:
        options = campaign_battles.retreat_choices(campaign, battle.turn, battle)
    asks = {keeper} if eligible and not battle.stay else set()
    if any(len(codes) > 1 for codes in options.values()):
        asks.add(battle.defender)
    if not asks:
        return []
    sides = campaigns.sides_of(campaign)

    def compose(side: str) -> texts.Letter:
        head = letter_head(campaign, battle.turn.number, f"#battle-{battle.pk}")
        if side == keeper:  # own detachments only: the keeper's
            return texts.choose_stay(head, territory=battle.territory, won=winner == side,
                                     eligible=eligible)
        return texts.choose_retreat(head, territory=battle.territory,
                                    options=sorted(options.items()))

    return to_players(campaign, sides, str(report_id), compose, tuple(asks))


# Placement ------------------------------------------------------------------------------------------

def placement_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """R11: the side to place next, after the other side's placement number ``stamp``. A later
    placement made meanwhile has its own notice."""
    campaign = campaign_of(campaign_id)
    if campaign is None or campaign.status not in campaigns.SETTING_UP:
        return []
    rows = list(CampaignDetachment.objects.filter(side__campaign=campaign).select_related("side"))
    latest = max((r.placed_order for r in rows if r.placed_order is not None), default=None)
    due = campaign_placement.next_placer(campaign, rows)
    if due is None or str(latest) != stamp:
        return []
    left = [r.name for r in rows
            if r.side.side == due and campaign_placement.starts_on_map(r) and not r.location]
    sides = campaigns.sides_of(campaign)

    def compose(side: str) -> texts.Letter:
        return texts.placement(letter_head(campaign, 0, ""), left=left)

    return to_players(campaign, sides, stamp, compose, (due,))


# The turn closed ----------------------------------------------------------------------------------

def _summary(campaign: Campaign, turn: CampaignTurn, entries: Sequence[CampaignScoreEntry],
             reader: Reader, sides: Mapping[str, CampaignSide]) -> texts.TurnSummary:
    """The turn report as the campaign page gives it (campaign_page.turn_reports, ledger)."""
    report = turn.report or {}
    changes = [_("%(territory)s: %(from)s → %(to)s") % {
        "territory": c["territory"], "from": word(SIDES, c["from"]), "to": word(SIDES, c["to"])}
        for c in report.get("control_changes", [])]
    lines = []
    for e in entries:
        subject = e.subject
        if subject and subject not in grid.TERRITORIES and not reader.knows(e.side, subject):
            subject = ""  # R12: a hidden detachment's loss is told by its points only
        what = word(SCORE_KINDS, e.kind) + (f" ({subject})" if subject else "")
        lines.append(f"{word(SIDES, e.side)}: {e.points:+d} {what}")
    sectors = [_("%(side)s: die %(die)s, modifier %(modifier)s, result %(modified)s, "
                 "%(delta)+d points") % {"side": word(SIDES, side), **values}
               for side, values in report.get("other_sectors", {}).items()]
    moves = []
    for r in report.get("relocations", []):
        if reader.knows(r["side"], r["detachment"]):
            where = f" → {r['to']}" if r.get("to") else ""
            moves.append(f"{r['detachment']}: {word(RELOCATIONS, r['reason'])}{where}")
    scores = report.get("scores", {})
    totals = _("Score: %(scores)s (victory at %(target)s)") % {
        "scores": ", ".join(f"{word(SIDES, s)} {scores[s]}" for s in grid.SIDES if s in scores),
        "target": campaign.victory_score}
    victory = report.get("victory")
    won = (_("%(side)s wins: %(reason)s.") % {
        "side": side_label(sides, victory["side"]),
        "reason": word(VICTORY_REASONS, victory["reason"])}) if victory else ""
    return texts.TurnSummary(tuple(changes), tuple(lines), tuple(sectors), tuple(moves),
                             tuple(report.get("isolated_next_turn", [])), totals, won)


def closed_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """Both players: the closed turn's report, and the next turn open (or the victory)."""
    campaign = campaign_of(campaign_id)
    turn = turn_of(campaign, stamp) if campaign is not None else None
    if turn is None or turn.closed_at is None:
        return []
    entries = list(campaign.score_entries.filter(turn=turn.number).order_by("pk"))
    sides = campaigns.sides_of(campaign)
    readers = readers_of(campaign, sides)

    def compose(side: str) -> texts.Letter:
        head = letter_head(campaign, turn.number, f"#turn-report-{turn.number}")
        return texts.turn_closed(head, _summary(campaign, turn, entries, readers[side], sides))

    return to_players(campaign, sides, str(turn.number), compose)


# Declaring (G11) and surrender (R35) -------------------------------------------------------------

def declare_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """``stamp`` "<turn>:<phase>:<moment>": alternating, the side whose turn it is now (nothing
    if the phase moved on or the turn passed back meanwhile); sealed attacks revealed
    ("<turn>:attacks:revealed"), both players with the count of attacks against them."""
    number, phase, moment = (stamp.split(":") + ["", ""])[:3]
    campaign, turn = phase_still_open(campaign_id, number, phase)
    if campaign is None or turn is None:
        return []
    sides = campaigns.sides_of(campaign)
    if moment == "revealed":
        attacks = turn.orders.filter(kind="attack", status=CampaignOrder.ACCEPTED)
        against = {side: attacks.exclude(side=side).count() for side in grid.SIDES}

        def compose_revealed(side: str) -> texts.Letter:
            return texts.attacks_revealed(letter_head(campaign, turn.number, "#orders"),
                                          against_me=against[side])

        return to_players(campaign, sides, stamp, compose_revealed)
    declaring = campaign_declarations.declarations_view(campaign, turn)
    due = declaring["next"]
    if due is None:
        return []

    def compose(side: str) -> texts.Letter:
        return texts.your_turn_to_declare(letter_head(campaign, turn.number, "#orders"),
                                          phase=phase_name(phase),
                                          opponent=side_label(sides, grid.enemy(side)))

    return to_players(campaign, sides, stamp, compose, (due,))


def surrender_letters(campaign_id: int, stamp: str) -> list[Letter]:
    """Both players: ``stamp`` is the side that surrendered (R35)."""
    campaign = campaign_of(campaign_id)
    if campaign is None or stamp not in grid.SIDES or not campaign.winner:
        return []
    sides = campaigns.sides_of(campaign)

    def compose(side: str) -> texts.Letter:
        return texts.surrendered(letter_head(campaign, campaign.current_turn, ""),
                                 loser=side_label(sides, stamp), winner=side_label(sides, campaign.winner),
                                 mine=side == stamp)

    return to_players(campaign, sides, stamp, compose)


LETTERS: dict[str, Callable[[int, str], list[Letter]]] = {
    Kind.CAMPAIGN_DECLARE: declare_letters,
    Kind.CAMPAIGN_SURRENDER: surrender_letters,
    Kind.CAMPAIGN_PHASE: phase_letters,
    Kind.CAMPAIGN_BATTLES: battles_letters,
    Kind.CAMPAIGN_CHOICE: choice_letters,
    Kind.CAMPAIGN_PLACEMENT: placement_letters,
    Kind.CAMPAIGN_TURN_CLOSED: closed_letters,
}



def register() -> None:
    """Hand the campaign's letters to the notices dispatcher (CampaignsConfig.ready); a battle's
    reports are written here too (``report_letters``)."""
    for kind, builder in LETTERS.items():
        registry.register(kind, builder)
    registry.register_report_writer(lambda report, settled: report_letters(report, settled=settled))
