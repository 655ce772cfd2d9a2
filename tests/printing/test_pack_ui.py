"""“Print the pack” on the round's admin page and the organiser's desk (#24 item 3): a draft
round's pack is printed too, marked as a draft on every page, and the build never runs inside
the request (embedded mode: a thread of its own after the commit; with a broker: the worker).

The eager tests whose on-commit callbacks run inside the test's transaction build inline (the
build thread's own connection could not see uncommitted rows: config.celery.queue); the one
that proves the request does not wait commits for real (``transaction=True``).
"""
from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

import config.celery
import events.admin  # noqa: F401  (registers the admin before the URLs load)
from armylists.models import Chart
from events.audit import SYSTEM
from events.models import AuditEntry, Round
from events.services import rounds, tournaments
from missions.models import Level
from printing.models import MissionPack
from printing.services import packs
from tests.printing.test_mission_packs import pdf_pages_text

Status = MissionPack.Status
BAND = {"en": "DRAFT — pairings may change", "fr": "BROUILLON — les appariements peuvent changer"}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def draft_round(players: int = 4, language: str = "en") -> Round:
    """Round 1 of a fresh event, paired as a draft (unpublished)."""
    tournament = tournaments.create_tournament(
        SYSTEM, name="Draft Cup", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="alpha"), rounds=3, seed=3,
        language=language)
    tournaments.transition(SYSTEM, tournament, "registration_open")
    for i in range(players):
        tournaments.register_player(SYSTEM, tournament, name=f"Warlord{i:02d} Xq",
                                    club=f"Club{i:02d}", faction="Orks")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    round_ = rounds.pair_next_round(SYSTEM, tournament, draft=True)
    assert round_.status == Round.Status.DRAFT
    return round_


def pack_url(round_: Round) -> str:
    return reverse("admin:league_round_pack", args=[round_.pk])


def pdf_of(client, pack: MissionPack) -> bytes:
    response = client.get(f"/api/v1/mission-packs/{pack.pk}/download/")
    assert response.status_code == 200
    return b"".join(response.streaming_content)


# --- the buttons ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_round_page_and_the_desk_offer_print_the_pack(admin_client):
    round_ = draft_round()
    action = f'action="{pack_url(round_)}"'
    for page in (reverse("admin:league_round_change", args=[round_.pk]),
                 reverse("admin:league_tournament_change", args=[round_.tournament_id])):
        html = admin_client.get(page).content.decode()
        assert action in html and "csrfmiddlewaretoken" in html
        assert "Print the pack of round 1 (marked as a draft)" in html
    rounds.publish_round(SYSTEM, round_.tournament, 1)
    html = admin_client.get(reverse("admin:league_round_change", args=[round_.pk])).content.decode()
    assert action in html and "Print the pack of round 1<" in html
    assert admin_client.get(pack_url(round_)).status_code == 405  # a POST only
    assert not MissionPack.objects.exists()


@pytest.mark.django_db
def test_print_the_pack_needs_the_organisers_permission(client):
    round_ = draft_round()
    helper = get_user_model().objects.create_user("helper", is_staff=True)
    client.force_login(helper)
    assert client.post(pack_url(round_)).status_code == 403
    html = client.get(reverse("admin:league_round_change", args=[round_.pk]))
    assert pack_url(round_) not in html.content.decode()
    assert not MissionPack.objects.exists()


# --- a draft round's pack ---------------------------------------------------------------------

@pytest.mark.django_db
def test_a_draft_pack_from_the_desk_says_draft_on_every_page_in_the_events_language(
        admin_client, media, django_capture_on_commit_callbacks):
    round_ = draft_round(language="fr")
    desk = reverse("admin:league_tournament_change", args=[round_.tournament_id])
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(pack_url(round_), {"next": desk})
    pack = MissionPack.objects.get(round=round_)
    assert response.status_code == 302
    assert response.url == reverse("admin:printing_missionpack_change", args=[pack.pk])
    assert AuditEntry.objects.filter(action="mission_pack_requested").count() == 1
    pack.refresh_from_db()
    assert pack.status == Status.DONE, pack.error
    pages = pdf_pages_text(pdf_of(admin_client, pack))
    assert len(pages) == pack.pages >= 3  # the cover, the pairings, a sheet per table
    for text in pages:
        assert text.count(BAND["fr"]) == 2, text  # the top and the bottom band
    assert BAND["en"] not in "".join(pages)

    # Published, the same round prints without the band (a new pack: the draft one is done).
    rounds.publish_round(SYSTEM, round_.tournament, 1)
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(pack_url(round_))
    final = MissionPack.objects.exclude(pk=pack.pk).get(round=round_)
    assert final.status == Status.DONE, final.error
    text = "".join(pdf_pages_text(pdf_of(admin_client, final)))
    assert "BROUILLON" not in text and "Warlord00 Xq" in text


@pytest.mark.django_db
def test_the_api_prints_a_draft_rounds_pack_but_not_its_wall_sheets():
    """api-v1.md: staff's POST .../mission-pack/ answers 202, with no refusal documented for a
    draft round; the wall sheets, which hang for the players, still wait for publication."""
    round_ = draft_round()
    staff = APIClient()
    staff.force_authenticate(get_user_model().objects.create_user("to", is_staff=True))
    url = f"/api/v1/tournaments/{round_.tournament.slug}/rounds/1/mission-pack/"
    answer = staff.post(url, {}, format="json")
    assert answer.status_code == 202 and answer.json()["status"] == "pending"
    with pytest.raises(packs.Conflict) as refused:
        packs.request_pack(SYSTEM, round_.tournament, 1, MissionPack.Kind.PAIRINGS)
    assert refused.value.code == "round_not_published"


# --- never built in the request ---------------------------------------------------------------

@pytest.fixture
def gated_build(monkeypatch):
    """The real build, held at its start until the test opens the gate; records the thread it
    ran in. Inside the request (the old eager mode) it does not wait: the test then fails on
    the pack being done already rather than hanging."""
    gate, started, ran_in = threading.Event(), threading.Event(), []
    build = packs.build_pack

    def held(pack_id: int, chunk: int | None = None) -> str:
        ran_in.append(threading.current_thread().name)
        started.set()
        if threading.current_thread() is not threading.main_thread():
            assert gate.wait(30), "the gate was never opened"
        return build(pack_id, chunk)
    monkeypatch.setattr(packs, "build_pack", held)
    return gate, started, ran_in


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_request_returns_before_the_build_which_then_completes(
        admin_client, media, gated_build, django_assert_max_num_queries):
    gate, started, ran_in = gated_build
    round_ = draft_round()
    with django_assert_max_num_queries(20):  # the request's own: the build has its connection
        response = admin_client.post(pack_url(round_))
    pack = MissionPack.objects.get(round=round_)
    assert response.status_code == 302 and response.url.endswith(f"/missionpack/{pack.pk}/change/")
    assert pack.status == Status.PENDING and pack.progress == 0  # not built yet
    assert started.wait(30) and ran_in == ["eager league.build_mission_pack"]  # its own thread
    page = admin_client.get(response.url).content.decode()
    assert reverse("admin:printing_missionpack_status", args=[pack.pk]) in page  # it polls
    gate.set()
    assert config.celery.wait_aside(60), "the build thread did not finish"
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.progress == 100, pack.error
    status = admin_client.get(reverse("admin:printing_missionpack_status", args=[pack.pk])).json()
    assert status["status"] == "done" and "download_url" in status
    assert BAND["en"] in pdf_pages_text(pdf_of(admin_client, pack))[0]
