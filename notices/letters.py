"""The letters the notices dispatcher sends, registered by the contexts that own them.

A context that owns a kind of notice registers the builder of that kind's letters from its
``AppConfig.ready()``: ``register(kind, builder)``, where ``builder(object_id, stamp)`` returns
the ``Letter`` list to send (events: rounds, reports, lists; venue: registrations; campaigns:
phases, battles, choices...). A context whose games' reports are written in its own words
registers a report writer (``register_report_writer``), asked first by the report letters.
So ``notices`` imports no context: the arrows point from the contexts to it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.urls import reverse

from notices import texts


@dataclass(frozen=True)
class Letter:
    """One e-mail to write: to whom, under which key, and how (called in their language).
    ``tournament`` is the event row the notice is filed under (its ``pk`` and ``language``)."""

    tournament: Any
    recipient: Any  # the account
    key: str
    compose: Callable[[], texts.Letter | texts.Mail] = field(compare=False)


Builder = Callable[[int, str], list[Letter]]
# (report, settled) -> the report's letters in the context's words, or None when not its game.
ReportWriter = Callable[[Any, bool], "list[Letter] | None"]

_BUILDERS: dict[str, Builder] = {}
_REPORT_WRITERS: list[ReportWriter] = []


def register(kind: str, builder: Builder) -> None:
    """``builder`` writes the letters of notices of ``kind``; registered once per kind."""
    known = _BUILDERS.get(str(kind))
    if known is not None and known is not builder:
        raise ValueError(f"notice kind {kind!r} is registered twice")
    _BUILDERS[str(kind)] = builder


def builder_of(kind: str) -> Builder | None:
    """The builder of a kind's letters, or None when no context registered it."""
    return _BUILDERS.get(str(kind))


def register_report_writer(writer: ReportWriter) -> None:
    """``writer(report, settled)`` writes a game report's letters for the games it owns."""
    if writer not in _REPORT_WRITERS:
        _REPORT_WRITERS.append(writer)


def report_letters(report: Any, *, settled: bool) -> list[Letter] | None:
    """A report's letters from the first writer that owns its game, or None (none does)."""
    for writer in _REPORT_WRITERS:
        letters = writer(report, settled)
        if letters is not None:
            return letters
    return None


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (``SITE_URL``) and ``path``."""
    return settings.SITE_URL.rstrip("/") + path


def profile_link() -> str:
    return absolute(reverse("profile"))


def stamp_of(moment) -> str:
    """A moment as a key part, exact to the microsecond whatever the database returns."""
    return str(int(moment.timestamp() * 1_000_000))
