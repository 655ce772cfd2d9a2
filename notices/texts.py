"""The words of the e-mail notices: plain text, in the active language (the caller sets the
recipient's through ``translation.override``), links absolute."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.typography import elide

Letter = tuple[str, str]  # subject, body


@dataclass(frozen=True)
class Image:
    """A picture shown inside an HTML e-mail, referred to as ``cid:<cid>``."""

    cid: str
    png: bytes
    filename: str


@dataclass(frozen=True)
class Mail:
    """An e-mail with an HTML alternative and inline images beside its plain text."""

    subject: str
    body: str
    html: str = ""
    images: tuple[Image, ...] = field(default=())


@dataclass(frozen=True)
class Table:
    """What a player needs to know about one game of theirs, names already resolved."""

    event: str
    round: str  # as the event's format names it: "Round 3", "Week 3" (events.formats.round_name)
    table: int | None
    me: str
    opponent: str | None  # None: a bye
    link: str


def elided(written: Letter | Mail) -> Letter | Mail:
    """A written letter with "de" elided before the names put into its sentences ("victoire
    d'Alix", "les organisateurs d'Open de Lyon"), in French: every context's letters, once, here."""
    if isinstance(written, Mail):
        return replace(written, subject=elide(written.subject), body=elide(written.body),
                       html=elide(written.html))
    title, body = written
    return elide(title), elide(body)


def subject(event: str, text: str) -> str:
    # One line, as mail headers need; the event first so a player's inbox groups them.
    return f"[{event}] {text}".replace("\n", " ").replace("\r", " ")[:200]


def footer(profile_link: str) -> str:
    return _("You receive this e-mail because you play in this event. To stop these e-mails, "
             "untick “E-mail notices” on your profile: %(link)s") % {"link": profile_link}


def where(table: Table) -> str:
    if table.opponent is None:
        return _("%(round)s: you have a bye.") % {"round": table.round}
    return _("%(round)s, table %(table)s, against %(opponent)s.") % {
        "round": table.round, "table": table.table, "opponent": table.opponent}


def round_published(table: Table, *, mission: str, scenario: str, role: str,
                    profile_link: str) -> Letter:
    """Your table, your opponent and what the round is played with (a rolled mission, or the
    organisers' scenario for systems without missions)."""
    if table.opponent is None:
        title = _("%(round)s: you have a bye") % {"round": table.round}
    else:
        title = _("%(round)s: table %(table)s against %(opponent)s") % {
            "round": table.round, "table": table.table, "opponent": table.opponent}
    # Translators: %(round)s is "Round 3" or "Week 3", as the event's format names it.
    lines = [_("%(round)s of %(event)s is published.") % {"round": table.round,
                                                         "event": table.event},
             "", where(table)]
    if mission:
        lines.append(_("Mission: %(mission)s") % {"mission": mission})
    if role:
        lines.append(_("Your role: %(role)s") % {"role": role})
    if scenario:
        lines += ["", _("Scenario:"), scenario]
    lines += ["", _("Your game: %(link)s") % {"link": table.link}, "", footer(profile_link)]
    return subject(table.event, title), "\n".join(lines)


def result_text(winner: str | None, i_won: bool, victory_points: Mapping[str, int | None]) -> str:
    """"Result: Alice won" and the victory points by player name, in table order."""
    if winner is None:
        text = _("Result: a draw")
    elif i_won:
        text = _("Result: you won")
    else:
        text = elide(_("Result: %(name)s won") % {"name": winner})
    points = [f"{name} {vp}" for name, vp in victory_points.items() if vp is not None]
    if points:
        text += "\n" + _("Victory points: %(points)s") % {"points": " – ".join(points)}
    return text


def result_reported(table: Table, result: str, *, disputed: bool, profile_link: str) -> Letter:
    """The opponent's report: confirm or dispute it, or (it contradicts yours) it is disputed."""
    if disputed:
        title = _("%(round)s: %(opponent)s reported a different result") % {
            "round": table.round, "opponent": table.opponent}
        intro = _("%(opponent)s reported a result of your game that differs from yours. The game "
                  "is now disputed: an organiser will settle it.") % {"opponent": table.opponent}
        action = _("Your game: %(link)s") % {"link": table.link}
    else:
        title = _("%(round)s: %(opponent)s reported your result") % {
            "round": table.round, "opponent": table.opponent}
        intro = _("%(opponent)s reported the result of your game.") % {"opponent": table.opponent}
        action = _("Confirm it or dispute it on your game's page: %(link)s") % {"link": table.link}
    lines = [intro, "", where(table), result, "", action, "", footer(profile_link)]
    return subject(table.event, title), "\n".join(lines)


def dispute_settled(table: Table, result: str, *, profile_link: str) -> Letter:
    title = _("%(round)s: an organiser settled your game") % {"round": table.round}
    lines = [_("An organiser settled the disputed result of your game."), "", where(table),
             result, "", _("Your game: %(link)s") % {"link": table.link}, "", footer(profile_link)]
    return subject(table.event, title), "\n".join(lines)


def lists_locked(event: str, player: str, list_state: str | None, list_link: str,
                 profile_link: str) -> Letter:
    """``list_state``: "valid", "invalid" or None (no list)."""
    states = {
        "valid": _("Your list is valid."),
        "invalid": _("Your list has problems: an organiser may ask you to change it."),
        None: _("You have not submitted a list: contact an organiser."),
    }
    lines = [_("The organisers of %(event)s locked the lists: they can no longer be changed "
               "without an organiser.") % {"event": event},
             "", _("Registered as %(name)s.") % {"name": player}, states[list_state],
             _("Your list: %(link)s") % {"link": list_link}, "", footer(profile_link)]
    return subject(event, _("The lists are locked")), "\n".join(lines)


def invitation(event: str, player: str, link: str, days: int) -> Letter:
    lines = [_("The organisers of %(event)s registered you as %(name)s.") % {"event": event,
                                                                             "name": player},
             "",
             _("Follow this link, log in or create an account, and confirm: your registration is "
               "then linked to your account, so you can see your games and report your results."),
             link, "",
             ngettext("The link is valid for %(days)s day. If you were not expecting this e-mail, "
                      "ignore it.",
                      "The link is valid for %(days)s days. If you were not expecting this e-mail, "
                      "ignore it.", days) % {"days": days}]
    return subject(event, _("Link your registration to your account")), "\n".join(lines)


@dataclass(frozen=True)
class Registration:
    """What the registration e-mail says, names and links resolved, the date already written
    in the recipient's language ("" when the event has none)."""

    event: str
    player: str
    date: str
    code: str  # as shown: groups of four
    event_link: str
    profile_link: str


@dataclass(frozen=True)
class RegistrationWords:
    """The registration e-mail's sentences, shared by its plain text and its HTML part."""

    subject: str
    intro: str
    when: str
    code_label: str
    code: str
    qr_help: str
    event_line: str
    event_link: str
    profile_line: str
    profile_link: str
    footer: str

    @property
    def body(self) -> str:
        lines = [self.intro]
        if self.when:
            lines.append(self.when)
        lines += ["", f"{self.code_label}: {self.code}", self.qr_help, "",
                  f"{self.event_line} {self.event_link}", f"{self.profile_line} {self.profile_link}",
                  "", self.footer]
        return "\n".join(lines)


def registered(r: Registration) -> RegistrationWords:
    """The confirmation a player gets once registered: the event, its date, their check-in code
    (its QR code comes with the e-mail) and where to find the event and their profile."""
    return RegistrationWords(
        subject=subject(r.event, _("You are registered")),
        intro=_("You are registered for %(event)s as %(name)s.") % {"event": r.event,
                                                                     "name": r.player},
        when=_("Date: %(date)s") % {"date": r.date} if r.date else "",
        code_label=_("Your check-in code"), code=r.code,
        qr_help=_("Show the QR code of this e-mail at the door, or give the code: the organisers "
                  "scan or type it to check you in."),
        event_line=_("The event:"), event_link=r.event_link,
        profile_line=_("Your profile (your games, your code, your e-mail settings):"),
        profile_link=r.profile_link, footer=footer(r.profile_link))
