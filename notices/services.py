"""E-mail notices: the services queue them after their commit, the task queue sends them.

Each ``queue_*`` is called inside the service's transaction and only registers an
``on_commit`` hook: a refused or rolled-back action sends nothing, and the task reads the
committed rows. ``send`` (run by ``league.send_notices``) works out the recipients, skips
players without an account, without an address or who turned notices off, and claims a
``Notice`` row per recipient before sending: the row's unique constraint makes a task delivered
twice, or run by two workers, send each e-mail once. A send that fails marks its row failed,
and a later retry may claim it again. A worker that dies between the claim and the send leaves
the row "sending": that e-mail is not sent (at most once, never twice). An Epic 40,000
campaign's letters (phases, battles, choices, placement, turn close, and its battles' reports)
are written by campaigns/services/notices.py and sent the same way.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.mime.image import MIMEImage
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation

from accounts.models import Profile
from campaigns.models import Campaign
from events.messages import role_name
from events.models import Game, Player, PlayerList, Report, Round, Tournament
from events.systems import NOT_FOR_EVENTS
from notices import texts as texts
from notices.models import Notice
from venue.checkin_codes import shown

Kind = Notice.Kind
logger = logging.getLogger(__name__)


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (``SITE_URL``) and ``path``."""
    return settings.SITE_URL.rstrip("/") + path


def stamp_of(moment) -> str:
    """A moment as a key part, exact to the microsecond whatever the database returns."""
    return str(int(moment.timestamp() * 1_000_000))


# Queueing (inside the services' transactions) -----------------------------------------------

def queue_round_published(round_: Round) -> None:
    """Each player of a round just published: table, opponent, mission or scenario. A round
    published again after a re-pairing is a new event (its new publication time)."""
    _queue(Kind.ROUND_PUBLISHED, round_.pk, stamp_of(round_.published_at))


def queue_report(game: Game, report: Report) -> None:
    """Called as ``report`` is stored, before the game's status moves: a player's report tells
    the opponent; a staff report on a disputed game tells both players it is settled."""
    if report.by_player_id is not None:
        _queue(Kind.RESULT_REPORTED, report.pk)
    elif game.status == Game.Status.DISPUTED:
        _queue(Kind.DISPUTE_SETTLED, report.pk)


def queue_status(tournament: Tournament, target: str, step_id: int) -> None:
    """After a lifecycle step: locking the lists tells every player. Each lock is its own
    notice, keyed by the audit entry of that step (unique, unlike a clock reading)."""
    if target == Tournament.Status.LISTS_LOCKED:
        _queue(Kind.LISTS_LOCKED, tournament.pk, str(step_id))


def queue_registered(player: Player) -> None:
    """A player just registered (or a walk-in's registration just linked to an account): the
    confirmation with their check-in code. Players without an account have no address yet."""
    if player.user_id is not None:
        _queue(Kind.REGISTERED, player.pk)


# An Epic 40,000 campaign (campaigns/services/notices.py writes these letters) -------------

def queue_campaign_phase(campaign: Campaign, number: int, phase: str) -> None:
    """Both players: a phase of turn ``number`` is open (its initiative rolled); an empty
    ``phase`` is the turn itself opening (the campaign's start)."""
    _queue(Kind.CAMPAIGN_PHASE, campaign.pk, f"{number}:{phase}")


def queue_campaign_battles(campaign: Campaign, number: int) -> None:
    """Both players: the battles of turn ``number``, just generated."""
    _queue(Kind.CAMPAIGN_BATTLES, campaign.pk, str(number))


def queue_turn_closed(campaign: Campaign, number: int) -> None:
    """Both players: the report of turn ``number``, just closed."""
    _queue(Kind.CAMPAIGN_TURN_CLOSED, campaign.pk, str(number))


def queue_placement(campaign: Campaign, placer: str, following: str | None, placed: int) -> None:
    """The other side's player, when it becomes their turn to place a detachment (R11);
    ``placed`` numbers the placement just made."""
    if following is not None and following != placer:
        _queue(Kind.CAMPAIGN_PLACEMENT, campaign.pk, str(placed))


def queue_campaign_declare(campaign: Campaign, number: int, phase: str, moment: str) -> None:
    """One player: it is their turn to declare an order (alternating mode), or the sealed
    attacks are out and reactions may be declared (``moment`` "revealed"). ``moment`` tells one
    such event from the next (the phase's order count, a side ready)."""
    _queue(Kind.CAMPAIGN_DECLARE, campaign.pk, f"{number}:{phase}:{moment}")


def queue_campaign_surrender(campaign: Campaign, side: str) -> None:
    """Both players: ``side`` surrendered and the campaign is over (R35)."""
    _queue(Kind.CAMPAIGN_SURRENDER, campaign.pk, side)


def queue_confirmed(game: Game, report: Report) -> None:
    """A game's result just confirmed by ``report``: a campaign battle's choices (who stays,
    where to retreat) now wait on its players. Other events' games queue nothing (no query:
    the game's system is loaded with it)."""
    if game.round.tournament.game_system.kind in NOT_FOR_EVENTS:
        _queue(Kind.CAMPAIGN_CHOICE, report.pk)


def queue_invitation(player: Player, email: str) -> None:
    """The invitation to link a walk-in's registration to an account (venue.services.invitations)."""
    stamp = stamp_of(timezone.now())
    transaction.on_commit(partial(_deliver_invitation, player.pk, email, stamp), robust=True)


def _queue(kind: str, object_id: int, stamp: str = "") -> None:
    # robust: the action is committed already; a broker that cannot be reached is logged
    # instead of turning a done action into an error page.
    transaction.on_commit(partial(_deliver, str(kind), object_id, stamp), robust=True)


def _deliver(kind: str, object_id: int, stamp: str) -> None:
    from events import tasks  # the tasks module imports the services

    tasks.send_notices.delay(kind, object_id, stamp)


def _deliver_invitation(player_id: int, email: str, stamp: str) -> None:
    from events import tasks

    tasks.send_invitation.delay(player_id, email, stamp)


# Sending (in the task queue) ---------------------------------------------------------------

@dataclass(frozen=True)
class Letter:
    """One e-mail to write: to whom, under which key, and how (called in their language)."""

    tournament: Tournament
    recipient: Any  # the account
    key: str
    compose: Callable[[], texts.Letter | texts.Mail] = field(compare=False)


@dataclass
class Outcome:
    sent: int = 0
    skipped: int = 0
    failed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"sent": self.sent, "skipped": self.skipped, "failed": self.failed}


def send(kind: str, object_id: int, stamp: str = "") -> Outcome:
    """Send the notices of one event; safe to run any number of times."""
    builder = letters_of(kind)
    if builder is None:
        raise ValueError(f"unknown notice kind {kind!r}")
    letters = builder(object_id, stamp)
    outcome = Outcome()
    if not letters:
        return outcome
    preferences = _preferences(letter.recipient.pk for letter in letters)
    with get_connection() as connection:  # one connection to the mail server for the batch
        for letter in letters:
            language, wanted = preferences.get(letter.recipient.pk, ("", True))
            if not wanted or not letter.recipient.email:
                outcome.skipped += 1
                continue
            language = language or letter.tournament.language or settings.LANGUAGE_CODE
            _send_one(connection, kind, letter, language, letter.recipient.email, outcome)
    return outcome


def letters_of(kind: str) -> Callable[[int, str], list[Letter]] | None:
    """The builder of a kind's letters; a campaign's read the campaign services, which queue
    through this module: imported when a campaign notice is sent."""
    if kind in LETTERS:
        return LETTERS[kind]
    from campaigns.services.notices import LETTERS as CAMPAIGN_LETTERS

    return CAMPAIGN_LETTERS.get(kind)


def _send_one(connection, kind: str, letter: Letter, language: str, address: str,
              outcome: Outcome) -> None:
    notice = claim(letter.tournament.pk, letter.recipient.pk, kind, letter.key)
    if notice is None:
        outcome.skipped += 1  # sent (or being sent) by an earlier delivery
        return
    _send_claimed(notice, letter, language, address, outcome, connection)


def _send_claimed(notice: Notice, letter: Letter, language: str, address: str,
                  outcome: Outcome, connection=None) -> None:
    """Write and send a claimed notice in ``language``; the row records how it went."""
    try:
        with translation.override(language):
            written = letter.compose()
        message(written, address, connection).send()
    except Exception as exc:  # noqa: BLE001  (any mail error: recorded, the task retries)
        logger.warning("notice %s (%s) failed: %s", notice.kind, notice.key, exc)
        Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.FAILED,
                                                   error=str(exc)[:500], language=language)
        outcome.failed += 1
        return
    Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.SENT, sent_at=timezone.now(),
                                               language=language)
    outcome.sent += 1


def message(written: texts.Letter | texts.Mail, address: str, connection=None) -> EmailMessage:
    """The e-mail to send: plain text, or with an HTML part and its inline images (a
    multipart/related message whose images the HTML shows through ``cid:`` links)."""
    if not isinstance(written, texts.Mail):
        subject, body = written
        return EmailMessage(subject, body, None, [address], connection=connection)
    mail = EmailMultiAlternatives(written.subject, written.body, None, [address],
                                  connection=connection)
    if written.html:
        mail.attach_alternative(written.html, "text/html")
    if written.images:
        mail.mixed_subtype = "related"  # the images belong to the HTML, not beside it
    for image in written.images:
        part = MIMEImage(image.png, "png")
        part.add_header("Content-ID", f"<{image.cid}>")
        part.add_header("Content-Disposition", "inline", filename=image.filename)
        mail.attach(part)
    return mail


def claim(tournament_id: int, recipient_id: int | None, kind: str, key: str) -> Notice | None:
    """The notice row, newly taken by this run, or None when another run has it (sent, or being
    sent). The insert is the claim: the database's uniqueness lets only one run through. A
    failed notice is taken back by a conditional update, which only one run can win as well."""
    try:
        with transaction.atomic():
            return Notice.objects.create(tournament_id=tournament_id, recipient_id=recipient_id,
                                         kind=kind, key=key)
    except IntegrityError:
        pass
    whom = {"recipient__isnull": True} if recipient_id is None else {"recipient_id": recipient_id}
    rows = Notice.objects.filter(tournament_id=tournament_id, kind=kind, key=key, **whom)
    if rows.filter(status=Notice.Status.FAILED).update(status=Notice.Status.SENDING, error=""):
        return rows.first()
    return None


def _preferences(user_ids: Iterable[int]) -> dict[int, tuple[str, bool]]:
    """Account -> (language, notices wanted); accounts without a profile want them."""
    rows = Profile.objects.filter(user_id__in=set(user_ids)).values_list(
        "user_id", "language", "notices")
    return {user_id: (language, notices) for user_id, language, notices in rows}


def profile_link() -> str:
    return absolute(reverse("profile"))


def _table(event: Tournament, game: Game, me: Player, them: Player | None) -> texts.Table:
    return texts.Table(event=event.name, round=game.round.number, table=game.table, me=me.name,
                       opponent=them.name if them else None,
                       link=absolute(reverse("game", args=[game.pk])))


def _sides(game: Game) -> list[tuple[Player, Player | None]]:
    if game.player_b is None:
        return [(game.player_a, None)]
    return [(game.player_a, game.player_b), (game.player_b, game.player_a)]


def _round_letters(round_id: int, stamp: str) -> list[Letter]:
    round_ = Round.objects.select_related("tournament", "mission").filter(pk=round_id).first()
    if (round_ is None or round_.status == Round.Status.DRAFT or round_.published_at is None
            or stamp_of(round_.published_at) != stamp):
        return []  # unpublished since, or published again (that publication has its own task)
    event = round_.tournament
    # Tables with an account holder only, without the dice logs: a letter reads neither.
    games = (round_.games.select_related("round", "mission", "player_a__user", "player_b__user")
             .filter(Q(player_a__user__isnull=False) | Q(player_b__user__isnull=False))
             .defer("rolls", "pregame", "deviations", "list_problems", "declarations"))
    key = f"{round_.pk}@{stamp}"
    letters = []
    for game in games:
        for me, them in _sides(game):
            if me.user is None:
                continue
            compose = partial(_compose_round, event, round_, game, me, them)
            letters.append(Letter(event, me.user, key, compose))
    return letters


def _compose_round(event: Tournament, round_: Round, game: Game, me: Player,
                   them: Player | None) -> texts.Letter:
    mission = game.mission or round_.mission
    role = game.roles.get(str(me.pk), "") if game.roles else ""
    return texts.round_published(
        _table(event, game, me, them), mission=mission.name if mission else "",
        scenario=round_.scenario, role=str(role_name(role)) if role else "",
        profile_link=profile_link())


def _report(report_id: int) -> Report | None:
    return Report.objects.select_related(
        "game__round__tournament__game_system", "game__player_a__user", "game__player_b__user",
        "game__winner").filter(pk=report_id).first()


def _result(game: Game, winner_id: int | None, victory_points: dict[str, int],
            me: Player) -> str:
    names = {p.pk: p.name for p in (game.player_a, game.player_b) if p is not None}
    points = {names[pid]: victory_points.get(str(pid)) for pid in game.player_ids}
    winner = names.get(winner_id) if winner_id else None
    return texts.result_text(winner, winner_id == me.pk, points)


def _reported_letters(report_id: int, stamp: str) -> list[Letter]:
    report = _report(report_id)
    if report is None or report.by_player_id is None or report.status not in (
            Report.Status.REPORTED, Report.Status.DISPUTED):
        return []  # confirmed or replaced meanwhile: nothing left to act on
    game = report.game
    event = game.round.tournament
    if event.game_system.kind in NOT_FOR_EVENTS:
        return _campaign_report_letters(report, settled=False)
    letters = []
    for me, them in _sides(game):
        if me.pk == report.by_player_id or them is None or me.user is None:
            continue

        def compose(me: Player = me, them: Player = them) -> texts.Letter:
            result = _result(game, report.winner_id, report.victory_points, me)
            return texts.result_reported(_table(event, game, me, them), result,
                                         disputed=report.status == Report.Status.DISPUTED,
                                         profile_link=profile_link())

        letters.append(Letter(event, me.user, str(report.pk), compose))
    return letters


def _settled_letters(report_id: int, stamp: str) -> list[Letter]:
    report = _report(report_id)
    if report is None or report.game.status != Game.Status.CONFIRMED:
        return []
    game = report.game
    event = game.round.tournament
    if event.game_system.kind in NOT_FOR_EVENTS:
        return _campaign_report_letters(report, settled=True)
    letters = []
    for me, them in _sides(game):
        if me.user is None:
            continue

        def compose(me: Player = me, them: Player | None = them) -> texts.Letter:
            result = _result(game, game.winner_id, game.victory_points, me)
            return texts.dispute_settled(_table(event, game, me, them), result,
                                         profile_link=profile_link())

        letters.append(Letter(event, me.user, str(report.pk), compose))
    return letters


def _campaign_report_letters(report: Report, *, settled: bool) -> list[Letter]:
    """A campaign battle's report, in the campaign's words, linking to the battle on the
    campaign page (where its campaign facts are reported and confirmed)."""
    from campaigns.services import notices as campaign_notices

    return campaign_notices.report_letters(report, settled=settled)


LOCKED_OR_LATER = (Tournament.Status.LISTS_LOCKED, Tournament.Status.RUNNING)


def _locked_letters(tournament_id: int, stamp: str) -> list[Letter]:
    event = Tournament.objects.filter(pk=tournament_id).first()
    if event is None or event.status not in LOCKED_OR_LATER:
        return []  # reopened before the task ran
    players = event.players.filter(dropped=False, user__isnull=False).select_related("user")
    valid = dict(PlayerList.objects.filter(player__tournament=event, role="")
                 .values_list("player_id", "army_list__valid"))
    key = f"{event.pk}@{stamp}"
    letters = []
    for player in players:
        state = None if player.pk not in valid else ("valid" if valid[player.pk] else "invalid")
        link = absolute(reverse("player_list", args=[event.slug, player.pk]))
        compose = partial(texts.lists_locked, event.name, player.name, state, link,
                          profile_link())
        letters.append(Letter(event, player.user, key, compose))
    return letters


QR_CID = "check-in-qr@muster"


def _registered_letters(player_id: int, stamp: str) -> list[Letter]:
    player = Player.objects.select_related("tournament", "user").filter(pk=player_id).first()
    if (player is None or player.user is None or player.dropped
            or player.tournament.status == Tournament.Status.FINISHED):
        return []  # gone, unlinked, dropped or over meanwhile: nothing left to confirm
    event = player.tournament
    return [Letter(event, player.user, str(player.pk), partial(_compose_registered, event, player))]


def _compose_registered(event: Tournament, player: Player) -> texts.Mail:
    """In the recipient's language (active here): the words, and the QR code of the same link
    as the one on their profile (the organisers' check-in page with the code filled in)."""
    from venue.qr import qr_png
    from venue.services import checkin  # checkin -> tournaments -> this module

    words = texts.registered(texts.Registration(
        event=event.name, player=player.name,
        date=formats.date_format(event.starts_on, "DATE_FORMAT") if event.starts_on else "",
        code=shown(player.checkin_code),
        event_link=absolute(reverse("tournament", args=[event.slug])),
        profile_link=profile_link()))
    png = qr_png(absolute(checkin.desk_path(player)))
    size = int.from_bytes(png[16:20], "big")  # the PNG header's width (the image is square)
    html = render_to_string("league/email/registered.html", {
        "words": words, "cid": QR_CID, "size": size, "language": translation.get_language()})
    return texts.Mail(words.subject, words.body, html,
                      (texts.Image(QR_CID, png, "check-in.png"),))


LETTERS: dict[str, Callable[[int, str], list[Letter]]] = {
    Kind.ROUND_PUBLISHED: _round_letters,
    Kind.RESULT_REPORTED: _reported_letters,
    Kind.DISPUTE_SETTLED: _settled_letters,
    Kind.LISTS_LOCKED: _locked_letters,
    Kind.REGISTERED: _registered_letters,
}


def send_invitation(player_id: int, email: str, stamp: str) -> Outcome:
    """The invitation e-mail of a walk-in (no account yet: the claim has no recipient)."""
    from venue.services import invitations

    outcome = Outcome()
    player = Player.objects.select_related("tournament").filter(pk=player_id).first()
    if player is None or player.user_id is not None or not email:
        outcome.skipped += 1  # linked meanwhile: the invitation has no object any more
        return outcome
    event = player.tournament
    notice = claim(event.pk, None, Kind.INVITATION, f"{player.pk}@{stamp}")
    if notice is None:
        outcome.skipped += 1
        return outcome
    link = absolute(reverse("invitation", args=[invitations.make_token(player, email)]))
    language = event.language or settings.LANGUAGE_CODE
    letter = Letter(event, None, notice.key, partial(
        texts.invitation, event.name, player.name, link, settings.MUSTER_INVITATION_DAYS))
    _send_claimed(notice, letter, language, email, outcome)
    return outcome

