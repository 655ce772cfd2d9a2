"""A pack whose worker died is shown as interrupted and started again by the sweep (issue #23,
item 5): the heartbeat's rules, eagerly. The real worker killed mid-build is in
test_mission_pack_crashes.py (``test_killed_worker_pack_is_interrupted_then_rebuilt_by_the_sweep``).
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

import config.celery
import events.admin  # noqa: F401  (registers the admin before the URLs load)
from campaigns.models import Campaign
from events.audit import SYSTEM
from events.models import AuditEntry
from printing import heartbeat, tasks
from printing.heartbeat import Heartbeat, beat, owner_alive, this_process
from printing.models import MissionPack
from printing.services import packs
from tests.printing.test_mission_packs import pack_files, paired_round, staff_client

Status = MissionPack.Status


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def running(round_, *, progress_age: float, beat_age: float | None, runs: int = 1,
            by: str = "elsewhere:1", kind: str = MissionPack.Kind.MISSION_PACK) -> MissionPack:
    """A running pack whose last progress and last heartbeat are that many seconds old."""
    pack = MissionPack.objects.create(round=round_, kind=kind)
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.RUNNING, progress=8, attempt="dead", runs=runs, progress_at=ago(progress_age),
        heartbeat_at=None if beat_age is None else ago(beat_age), heartbeat_by=by)
    pack.refresh_from_db()
    return pack


# --- interrupted: no heartbeat nor progress for the threshold ------------------------------------

@pytest.mark.django_db
def test_a_pack_is_interrupted_only_when_neither_heartbeat_nor_progress_moved(settings):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    round_ = paired_round(4)
    long_chunk = running(round_, progress_age=600, beat_age=10)  # one chunk takes minutes
    dead = running(round_, progress_age=600, beat_age=61)
    never_beat = running(round_, progress_age=61, beat_age=None)
    assert [p.interrupted for p in (long_chunk, dead, never_beat)] == [False, True, True]
    assert long_chunk.stale is False and dead.stale is True  # the older name, same meaning
    assert (long_chunk.state, dead.state) == ("running", "interrupted")
    assert dead.status_label.startswith("interrupted: its worker was lost")
    MissionPack.objects.filter(pk=dead.pk).update(status=Status.DONE)
    dead.refresh_from_db()
    assert not dead.interrupted and dead.state == "done"


@pytest.mark.django_db
def test_the_api_says_interrupted_and_keeps_its_fields(media, settings):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    round_ = paired_round(4)
    dead = running(round_, progress_age=600, beat_age=61)
    live = running(round_, progress_age=600, beat_age=1)
    client = staff_client()
    answer = client.get(f"/api/v1/mission-packs/{dead.pk}/").json()
    assert {"id", "kind", "status", "progress", "stale"} <= answer.keys()
    assert (answer["status"], answer["progress"], answer["stale"], answer["state"]) == (
        "running", 8, True, "interrupted")
    assert "starts again by itself" in answer["state_label"]
    answer = client.get(f"/api/v1/mission-packs/{live.pk}/").json()
    assert (answer["stale"], answer["state"], answer["state_label"]) == (False, "running", "running")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    with translation.override("en"):  # the request's French does not outlive it
        answer = client.get(f"/api/v1/mission-packs/{dead.pk}/").json()
    assert answer["state_label"].startswith("interrompu\u00a0: ")


# --- the heartbeat ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_only_the_run_that_owns_the_pack_beats(media):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    _, first = packs.claim(pack.pk)
    MissionPack.objects.filter(pk=pack.pk).update(heartbeat_at=ago(30), heartbeat_by="")
    assert beat(pack.pk, first) is True
    pack.refresh_from_db()
    assert pack.heartbeat_at > ago(5) and pack.heartbeat_by == this_process()
    _, second = packs.claim(pack.pk)  # taken over (restarted, redelivered)
    MissionPack.objects.filter(pk=pack.pk).update(heartbeat_at=ago(30))
    assert beat(pack.pk, first) is False  # the run that lost its token writes nothing
    pack.refresh_from_db()
    assert pack.heartbeat_at < ago(29) and pack.attempt == second


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_heartbeat_thread_beats_until_its_run_loses_the_pack():
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, attempt="mine",
                                                  heartbeat_at=ago(100))
    with Heartbeat(pack.pk, "mine", every=0.02) as beating:
        deadline = time.monotonic() + 10
        while MissionPack.objects.get(pk=pack.pk).heartbeat_at < ago(50):
            assert time.monotonic() < deadline, "no heartbeat"
            time.sleep(0.01)
        MissionPack.objects.filter(pk=pack.pk).update(attempt="theirs")  # restarted meanwhile
        beating._thread.join(timeout=10)
        assert not beating._thread.is_alive() and beating.lost  # stopped on its own


def test_a_building_process_is_alive_unless_gone_or_this_one(settings):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    host = socket.gethostname()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()

    def pack(by: str, beat_age: float = 1) -> MissionPack:
        return MissionPack(status=Status.RUNNING, heartbeat_by=by, progress_at=ago(beat_age),
                           heartbeat_at=ago(beat_age))
    assert owner_alive(pack(f"{host}:{os.getppid()}"))  # another live process here
    assert owner_alive(pack("another-host:1"))  # elsewhere, beating
    assert not owner_alive(pack("another-host:1", beat_age=61))  # elsewhere, silent
    assert not owner_alive(pack(f"{host}:{gone.pid}"))  # killed (pid gone)
    assert not owner_alive(pack(this_process()))  # this process runs one build at a time
    assert not owner_alive(pack(""))


def test_a_killed_process_its_parent_has_not_reaped_is_dead():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        child.kill()
        deadline = time.monotonic() + 5
        while not heartbeat._zombie(child.pid):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert not owner_alive(MissionPack(status=Status.RUNNING, progress_at=timezone.now(),
                                           heartbeat_by=f"{socket.gethostname()}:{child.pid}"))
    finally:
        child.wait()


# --- a redelivered task ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_second_delivery_leaves_a_pack_a_live_process_builds(media):
    round_ = paired_round(4)
    pack = running(round_, progress_age=1, beat_age=1, by=f"{socket.gethostname()}:{os.getppid()}")
    assert tasks.build_mission_pack(pack.pk) == "busy"
    pack.refresh_from_db()
    assert (pack.status, pack.attempt, pack.runs) == (Status.RUNNING, "dead", 1)
    # Its process died: the next delivery takes it over at once (a prefork child was lost).
    MissionPack.objects.filter(pk=pack.pk).update(heartbeat_by=f"{socket.gethostname()}:0")
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.runs == 2
    # The dead run's task, given back by the broker after the rebuild: nothing to do.
    assert tasks.build_mission_pack(pack.pk) == Status.DONE
    pack.refresh_from_db()
    assert pack.runs == 2 and pack_files(media, pack) == [Path(pack.file.name).name]


# --- the sweep starts interrupted packs again ----------------------------------------------------

@pytest.mark.django_db
def test_the_sweep_restarts_interrupted_packs_only(media, settings,
                                                   django_capture_on_commit_callbacks):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    round_ = paired_round(4)
    dead = running(round_, progress_age=600, beat_age=61)
    live = running(round_, progress_age=600, beat_age=5)
    done = MissionPack.objects.create(round=round_, status=Status.DONE, progress_at=ago(600))
    failed = MissionPack.objects.create(round=round_, status=Status.FAILED, progress_at=ago(600))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_packs() == 0  # what it counts: pending packs queued again
    states = dict(MissionPack.objects.values_list("pk", "status"))
    assert states == {dead.pk: Status.DONE, live.pk: Status.RUNNING, done.pk: Status.DONE,
                      failed.pk: Status.FAILED}
    dead.refresh_from_db()
    assert dead.runs == 2 and dead.progress == 100  # same row, a second run
    restarted = AuditEntry.objects.get(action="mission_pack_restarted")
    assert restarted.actor is None and restarted.data == {"pack": dead.pk, "progress": 8, "runs": 1}
    assert pack_files(media, dead) == [Path(dead.file.name).name]


@pytest.mark.django_db
def test_a_restarted_pack_waits_for_a_worker_and_is_not_restarted_twice(
        settings, django_capture_on_commit_callbacks):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    round_ = paired_round(4)
    dead = running(round_, progress_age=600, beat_age=61)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert packs.restart_interrupted() == 1
        assert packs.restart_interrupted() == 0
    # queued once, after the commit
    assert [c.__qualname__ for c in queued].count("dispatch.<locals>.<lambda>") == 1
    dead.refresh_from_db()
    assert (dead.status, dead.attempt, dead.progress, dead.runs) == (Status.PENDING, "", 0, 1)
    assert not dead.interrupted and dead.heartbeat_at is None


@pytest.mark.django_db
def test_a_pack_lost_too_many_times_fails_instead(settings, django_capture_on_commit_callbacks):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    round_ = paired_round(4)
    doomed = running(round_, progress_age=600, beat_age=61, runs=packs.MAX_RUNS)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        assert packs.restart_interrupted() == 0
    assert queued == []
    doomed.refresh_from_db()
    assert doomed.status == Status.FAILED and f"{packs.MAX_RUNS} times" in doomed.error
    assert not AuditEntry.objects.filter(action="mission_pack_restarted").exists()


@pytest.mark.django_db
def test_a_starting_worker_sweeps_now_and_once_its_predecessors_packs_count_as_interrupted(
        monkeypatch, settings):
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    sent = []
    monkeypatch.setattr(config.celery, "queue",
                        lambda name, countdown=None: sent.append((name, countdown)))
    config.celery._sweep_on_start()
    assert sent == [(name, None) for name in config.celery.SWEEPS] + [
        (name, 61.0) for name in config.celery.SWEEPS]


def test_a_heartbeat_too_slow_for_the_threshold_is_reported():
    assert config.celery.heartbeat_problem(15, 60) is None
    assert "more than half" in config.celery.heartbeat_problem(40, 60)


# --- turn packs: the same rows, the same rules ---------------------------------------------------

@pytest.mark.django_db
def test_an_interrupted_turn_pack_shows_so_on_the_cockpit_and_is_rebuilt(
        staff_user, media, settings, django_capture_on_commit_callbacks):
    from tests.campaigns.test_campaign_turn_pack import Players, battle_turn

    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 60
    p = Players(staff_user)
    slug = battle_turn(p)["slug"]
    campaign = Campaign.objects.get(slug=slug)
    with django_capture_on_commit_callbacks(execute=False):  # its worker never finishes it
        pack = packs.request_pack(SYSTEM, campaign.tournament, 1, MissionPack.Kind.TURN_PACK)
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.RUNNING, progress=8, attempt="dead", runs=1, progress_at=ago(600),
        heartbeat_at=ago(61), heartbeat_by="elsewhere:1")
    staff_user.is_superuser = True
    staff_user.save()
    desk = Client()
    desk.force_login(staff_user)
    cockpit = reverse("admin:campaigns_campaign_change", args=[campaign.pk])
    assert "interrupted: its worker was lost" in desk.get(cockpit).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_packs()
    pack.refresh_from_db()
    assert (pack.status, pack.runs) == (Status.DONE, 2)
    assert "interrupted" not in desk.get(cockpit).content.decode()
