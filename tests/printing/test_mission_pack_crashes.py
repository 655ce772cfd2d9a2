"""A worker crash never leaves a mission pack stuck (issue #11, section 3).

Eager tests (everywhere) check the rules: a run owns its pack through a token, a stale pack can
be retried or superseded, orphaned temporary files go. ``worker`` tests SIGKILL a real Celery
worker (or its prefork pool child) mid-build and watch the pack complete.
"""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from celery.signals import after_task_publish
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from config.celery import app as celery_app
from config.celery import redelivery_problem
from events.audit import SYSTEM
from events.models import AuditEntry, Round
from printing import tasks
from printing.models import MissionPack
from printing.services import mission_pack, packs
from printing.services import pack_files as packs_files
from tests.printing.test_mission_packs import (
    check_pack_pdf,
    pack_files,
    paired_round,
    pdf_pages_text,
    request_through_api,
    sheet_players,
    staff_client,
)

Status = MissionPack.Status


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def make_stale(pack: MissionPack, status: str = Status.RUNNING, progress: int = 28) -> None:
    """As a pack whose worker died: it says running, and nothing has moved for too long."""
    long_ago = timezone.now() - timedelta(seconds=settings.MUSTER_PACK_INTERRUPTED_SECONDS + 1)
    MissionPack.objects.filter(pk=pack.pk).update(status=status, progress=progress,
                                                  progress_at=long_ago, attempt="dead", runs=1)


def old_file(path: Path, content: bytes = b"%PDF-1.7 half a file") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    past = time.time() - 2 * settings.MUSTER_PACK_INTERRUPTED_SECONDS
    os.utime(path, (past, past))
    return path


# --- configuration ----------------------------------------------------------------------------------

def test_tasks_are_redelivered_when_their_worker_dies_and_never_while_they_run():
    conf = celery_app.conf
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    visibility = conf.broker_transport_options["visibility_timeout"]
    assert visibility == settings.MUSTER_TASK_VISIBILITY_TIMEOUT
    assert conf.task_soft_time_limit < conf.task_time_limit < visibility
    assert redelivery_problem(conf) is None
    short = celery_app.conf.copy()
    short.broker_transport_options = {"visibility_timeout": conf.task_time_limit}
    assert "visibility_timeout" in redelivery_problem(short)


# --- staleness: retry and supersede (eager) ------------------------------------------------------------

@pytest.mark.django_db
def test_a_stale_pack_is_superseded_by_a_new_request(media, django_capture_on_commit_callbacks):
    round_ = paired_round(6)
    client = staff_client()
    stuck_id = request_through_api(client, round_).json()["id"]  # its task never runs here
    assert request_through_api(client, round_).json()["id"] == stuck_id  # a double click
    stuck = MissionPack.objects.get(pk=stuck_id)
    make_stale(stuck)
    state = client.get(f"/api/v1/mission-packs/{stuck_id}/").json()
    assert state["status"] == "running" and state["progress"] == 28 and state["stale"] is True
    assert "download_url" not in state
    assert client.get(f"/api/v1/mission-packs/{stuck_id}/download/").status_code == 409
    response = request_through_api(client, round_, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    fresh_id = response.json()["id"]
    assert fresh_id != stuck_id
    fresh = client.get(f"/api/v1/mission-packs/{fresh_id}/").json()
    assert fresh["status"] == "done" and fresh["stale"] is False
    stuck.refresh_from_db()
    assert stuck.status == Status.FAILED and str(fresh_id) in stuck.error and stuck.attempt == ""
    assert AuditEntry.objects.filter(action="mission_pack_superseded",
                                     data__pack=stuck_id, data__by=fresh_id).count() == 1
    # The dead run's task, delivered again later, leaves the superseded pack alone.
    assert tasks.build_mission_pack(stuck_id) == Status.FAILED
    assert pack_files(media, stuck) == []


@pytest.mark.django_db
def test_a_pending_pack_that_never_started_is_stale_too():
    round_ = paired_round(4)
    pack = packs.request_pack(SYSTEM, round_.tournament, 1)  # on_commit never fires here
    assert not pack.stale
    make_stale(pack, status=Status.PENDING, progress=0)
    pack.refresh_from_db()
    assert pack.stale
    assert packs.request_pack(SYSTEM, round_.tournament, 1).pk != pack.pk


@pytest.mark.django_db
def test_staff_retry_a_stale_pack_but_not_one_still_moving(
        client, media, django_capture_on_commit_callbacks):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_, status=Status.RUNNING, progress=28)
    with pytest.raises(packs.Conflict) as refused:
        packs.retry_pack(SYSTEM, pack)
    assert refused.value.code == "pack_not_failed"
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(boss)
    page = client.get(f"/admin/printing/missionpack/{pack.pk}/change/").content.decode()
    assert f"/missionpack/{pack.pk}/retry/" not in page and "setTimeout(poll" in page
    make_stale(pack)
    status = client.get(f"/admin/printing/missionpack/{pack.pk}/status/").json()
    assert status["stale"] is True and status["state"] == "interrupted"
    assert status["status_label"].startswith("interrupted: its worker was lost")
    listing = client.get("/admin/printing/missionpack/").content.decode()
    assert "pack-stale" in listing and "pack-interrupted" in listing
    page = client.get(f"/admin/printing/missionpack/{pack.pk}/change/").content.decode()
    # Still watched (the sweep starts it again), and staff may retry it now.
    assert f"/missionpack/{pack.pk}/retry/" in page and "setTimeout(poll" in page
    assert "var wasStale = true;" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/printing/missionpack/{pack.pk}/retry/")
    assert response.status_code == 302
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.progress == 100 and pack.runs == 1
    assert pack_files(media, pack) == [Path(pack.file.name).name]
    assert AuditEntry.objects.filter(action="mission_pack_retried", data__pack=pack.pk,
                                     data__was="running").count() == 1


@pytest.mark.django_db
def test_the_admin_action_retries_failed_and_stale_packs_only(
        media, django_capture_on_commit_callbacks):
    from django.contrib import admin

    from printing.admin import retry_packs
    from tests.printing.test_mission_packs import admin_request

    round_ = paired_round(4)
    failed = MissionPack.objects.create(round=round_, status=Status.FAILED, error="boom")
    stale = MissionPack.objects.create(round=round_)
    make_stale(stale)
    moving = MissionPack.objects.create(round=round_, status=Status.RUNNING, progress=50)
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    with django_capture_on_commit_callbacks(execute=True):
        retry_packs(admin.ModelAdmin(MissionPack, admin.site), admin_request(boss),
                    MissionPack.objects.all())
    states = dict(MissionPack.objects.values_list("pk", "status"))
    assert states == {failed.pk: Status.DONE, stale.pk: Status.DONE, moving.pk: Status.RUNNING}


# --- one owner per pack (eager) ---------------------------------------------------------------------

@pytest.mark.django_db
def test_a_redelivered_run_takes_over_and_the_old_run_never_writes(media):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    _, first = packs.claim(pack.pk)
    MissionPack.objects.filter(pk=pack.pk).update(progress=40)
    # The worker died; the broker delivers the task again: a new run starts over.
    _, second = packs.claim(pack.pk)
    pack.refresh_from_db()
    assert first != second and pack.attempt == second
    assert pack.status == Status.RUNNING and pack.progress == 0 and pack.runs == 2
    with pytest.raises(packs.LostOwnership):
        packs._reporter(pack.pk, first)(2, 5)
    with pytest.raises(packs.LostOwnership):  # the old run finished its file: not moved in
        packs.store_atomically(pack, lambda out: out.write(b"%PDF-1.7 old run") and 3,
                               publish=packs._publisher(pack, first))
    assert pack_files(media, pack) == []  # its upload was deleted, the row never named it
    pack.refresh_from_db()
    assert pack.status == Status.RUNNING and pack.progress == 0
    content = mission_pack.pack_content(round_)
    packs.store_atomically(pack, lambda out: mission_pack.render_pack(content, out),
                           publish=packs._publisher(pack, second))
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.progress == 100
    final = media / pack.file.name
    assert pack_files(media, pack) == [final.name]
    check_pack_pdf(final.read_bytes(), round_)


@pytest.mark.django_db
def test_a_pack_that_keeps_killing_its_worker_fails_visibly_then_retries(
        media, django_capture_on_commit_callbacks):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, runs=packs.MAX_RUNS)
    assert tasks.build_mission_pack(pack.pk) == Status.FAILED
    pack.refresh_from_db()
    assert pack.status == Status.FAILED and f"{packs.MAX_RUNS} times" in pack.error
    with django_capture_on_commit_callbacks(execute=True):
        packs.retry_pack(SYSTEM, pack)
    pack.refresh_from_db()
    assert pack.status == Status.DONE and pack.runs == 1


@pytest.mark.django_db
def test_a_build_past_its_time_limit_fails_with_a_readable_message(media):
    round_ = paired_round(4)
    pack = MissionPack.objects.create(round=round_)
    assert packs._error_text(SoftTimeLimitExceeded()) == "The build took too long and was stopped."
    MissionPack.objects.filter(pk=pack.pk).update(status=Status.RUNNING, progress=60)
    # What the worker's main process runs when the hard limit killed the pool child.
    tasks.build_mission_pack.on_failure(TimeLimitExceeded(1200), "id", (pack.pk,), {}, None)
    pack.refresh_from_db()
    assert pack.status == Status.FAILED and pack.error == "The build took too long and was stopped."


@pytest.mark.django_db
def test_the_sweep_deletes_old_files_no_pack_names_and_keeps_the_rest(media):
    round_ = paired_round(4)
    done, deleted_soon = (MissionPack.objects.create(round=round_) for _ in range(2))
    folder = media / "packs"
    hour_ago = time.time() - packs_files.ORPHAN_SECONDS - 60
    named = aged(folder / f"pack-{done.pk}-named.pdf", hour_ago)
    MissionPack.objects.filter(pk=done.pk).update(status=Status.DONE, file=f"packs/{named.name}")
    kept = [named,
            aged(folder / f"pack-{done.pk}-uploading.pdf", time.time() - 60),  # not switched yet
            old_file(folder / f"pack-{deleted_soon.pk}-young-orphan.pdf")]
    gone = [aged(folder / f"pack-{done.pk}-never-switched.pdf", hour_ago),
            aged(folder / f".pack-{done.pk}-c.part", hour_ago),  # an older version's leftover
            aged(folder / "pack-999999-lost.pdf", hour_ago)]
    assert packs.sweep_orphans() == 3
    assert [p.exists() for p in kept] == [True, True, True]
    assert [p.exists() for p in gone] == [False, False, False]
    assert packs.sweep_orphans() == 0
    packs.sweep()  # the periodic sweep runs it, and survives a store it cannot list
    assert named.exists()


def aged(path: Path, when: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%PDF-1.7")
    os.utime(path, (when, when))
    return path


# --- a real worker killed mid-build (CI) ---------------------------------------------------------------

# 60 tables in chunks of 1: 62 progress steps (each a write), so the kill lands mid-build even
# though drawing a sheet's texts takes well under a millisecond.
PLAYERS = 120
WORKER_ENV = {"MUSTER_PACK_CHUNK_TABLES": "1"}


def poll(what: str, check: Callable[[], bool], timeout: float = 90,
         probe: Callable[[], None] | None = None) -> None:
    """Wait until ``check()`` holds; ``probe()`` runs at each turn (the deadline only guards)."""
    deadline = time.monotonic() + timeout
    while not check():
        if probe is not None:
            probe()
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what} after {timeout} s")
        time.sleep(0.02)


def state(pack_id: int) -> tuple[str, int]:
    return tuple(MissionPack.objects.filter(pk=pack_id).values_list("status", "progress")[0])


def mid_build(pack_id: int) -> bool:
    status, progress = state(pack_id)
    return status == Status.RUNNING and 0 < progress < 100


def never_partial(client: APIClient, pack_id: int) -> Callable[[], None]:
    """A download asked for while the pack is built must answer 409, never a part of the file."""
    def probe() -> None:
        response = client.get(f"/api/v1/mission-packs/{pack_id}/download/")
        if response.status_code == 200:  # only once done: then it is the whole file
            assert MissionPack.objects.get(pk=pack_id).status == Status.DONE
            check_whole_pack(b"".join(response.streaming_content), round_of(pack_id))
        else:
            assert response.status_code == 409
    return probe


def check_whole_pack(pdf: bytes, round_: Round) -> None:
    """Every page there: the pairings (two pages at this size), then one sheet per table."""
    assert pdf.rstrip().endswith(b"%%EOF")
    pages = pdf_pages_text(pdf)
    tables = sheet_players(round_)
    assert len(pages) > len(tables) + 1
    for page, (table, a, b) in zip(pages[-len(tables):], tables, strict=True):
        assert str(table) in [line.strip() for line in page.splitlines()]
        assert a in page and b in page


def round_of(pack_id: int) -> Round:
    return MissionPack.objects.select_related("round").get(pk=pack_id).round


def boot_worker_to_kill(workers, media: Path, pool: str = "solo", **env: str):
    """The worker the test will kill, started first: it boots (seconds) while the test builds
    its round, and takes the pack's task once it is asked for."""
    return workers.start(pool=pool, MEDIA_ROOT=str(media), **WORKER_ENV, **env)


def kill_mid_build(workers, worker, client: APIClient, round_: Round, pool: str = "solo") -> int:
    """Ask for the pack through the API, let the worker get into it, then SIGKILL the build."""
    pack_id = request_through_api(client, round_).json()["id"]
    poll("the build to be under way", lambda: mid_build(pack_id))
    if pool == "prefork":  # the pool child runs the task; the worker itself stays up
        children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
        assert len(children) == 1
        os.kill(int(children[0]), signal.SIGKILL)
    else:
        workers.kill(worker)
    return pack_id


def give_back_unacknowledged(visibility: float) -> None:
    """What a worker whose visibility timeout is ``visibility`` s does at its next restore:
    kombu's own ``restore_visible`` puts every task delivered longer ago than that and never
    acknowledged back on its queue. Run here rather than by one more worker (a boot costs
    seconds)."""
    options = {**celery_app.conf.broker_transport_options, "visibility_timeout": visibility}
    with celery_app.connection_for_write(transport_options=options) as connection:
        connection.default_channel.qos.restore_visible(num=100)


def assert_whole_pack(client: APIClient, media: Path, pack_id: int, round_: Round) -> None:
    pack = MissionPack.objects.get(pk=pack_id)
    download = client.get(client.get(f"/api/v1/mission-packs/{pack_id}/").json()["download_url"])
    assert download.status_code == 200
    pdf = b"".join(download.streaming_content)
    check_whole_pack(pdf, round_)
    assert len(pdf_pages_text(pdf)) == pack.pages
    assert pack_files(media, pack) == [Path(pack.file.name).name]  # no temporary file left


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_killed_worker_leaves_a_stale_pack_that_staff_retry(restartable_workers, media, settings,
                                                            client):
    worker = boot_worker_to_kill(restartable_workers, media)
    round_ = paired_round(PLAYERS, seed=11)
    api = staff_client()
    pack_id = kill_mid_build(restartable_workers, worker, api, round_)
    # A new worker with the default visibility timeout: the dead task is not delivered again
    # within this test, so only the retry can finish the pack. Nor does its sweep take the pack
    # (60 s without a sign of life there): it boots while the pack goes stale.
    restartable_workers.start(MEDIA_ROOT=str(media), **WORKER_ENV)
    stuck = state(pack_id)
    assert stuck[0] == Status.RUNNING
    assert api.get(f"/api/v1/mission-packs/{pack_id}/download/").status_code == 409
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 1  # here only: the workers keep 60 s
    poll("the pack to count as stale",
         lambda: api.get(f"/api/v1/mission-packs/{pack_id}/").json()["stale"])
    assert state(pack_id) == stuck  # nothing moved since the kill
    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.org", "pw"))
    assert client.post(f"/admin/printing/missionpack/{pack_id}/retry/").status_code == 302
    poll("the retried pack", lambda: state(pack_id)[0] in (Status.DONE, Status.FAILED),
         probe=never_partial(api, pack_id))
    assert state(pack_id) == (Status.DONE, 100)
    assert_whole_pack(api, media, pack_id, round_)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_killed_worker_task_is_delivered_again_and_the_pack_completes(restartable_workers, media):
    worker = boot_worker_to_kill(restartable_workers, media)
    round_ = paired_round(PLAYERS, seed=12)
    api = staff_client()
    pack_id = kill_mid_build(restartable_workers, worker, api, round_)
    assert state(pack_id)[0] == Status.RUNNING
    # Redis gives the unacknowledged task to the next worker once the visibility timeout is
    # over; a short one here so the test does not wait half an hour.
    restartable_workers.start(MEDIA_ROOT=str(media), MUSTER_TASK_VISIBILITY_TIMEOUT="3",
                              **WORKER_ENV)
    poll("the redelivered build", lambda: state(pack_id)[0] in (Status.DONE, Status.FAILED),
         probe=never_partial(api, pack_id))
    pack = MissionPack.objects.get(pk=pack_id)
    assert (pack.status, pack.progress) == (Status.DONE, 100)
    assert pack.runs >= 2  # the second run took the pack over; nobody retried it
    assert not AuditEntry.objects.filter(action="mission_pack_retried").exists()
    assert_whole_pack(api, media, pack_id, round_)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_killed_pool_child_task_is_given_back_and_the_pack_completes(restartable_workers, media):
    worker = boot_worker_to_kill(restartable_workers, media, pool="prefork")
    round_ = paired_round(PLAYERS, seed=13)
    api = staff_client()
    pack_id = kill_mid_build(restartable_workers, worker, api, round_, pool="prefork")
    # The worker saw its child die: the task goes back to the queue at once (no retry, no wait
    # for the visibility timeout) and a new child builds the pack from the start.
    poll("the rebuilt pack", lambda: state(pack_id)[0] in (Status.DONE, Status.FAILED),
         probe=never_partial(api, pack_id))
    pack = MissionPack.objects.get(pk=pack_id)
    assert (pack.status, pack.progress, pack.runs) == (Status.DONE, 100, 2)
    assert_whole_pack(api, media, pack_id, round_)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_killed_worker_pack_is_interrupted_then_rebuilt_by_the_sweep(restartable_workers, media,
                                                                     settings):
    """Issue #23 (5): no heartbeat for the threshold, the organiser reads "interrupted"; the
    next worker's sweep builds the pack again, nobody clicks; the dead run's task, given back
    by the broker later, finds it done."""
    # Small thresholds; the workers' own sweeps and builds go to the test's queue.
    quick = {"MUSTER_PACK_HEARTBEAT_SECONDS": "0.5", "MUSTER_PACK_INTERRUPTED_SECONDS": "3",
             "MUSTER_TASK_QUEUE": restartable_workers.queue}
    worker = boot_worker_to_kill(restartable_workers, media, **quick)
    round_ = paired_round(PLAYERS, seed=14)
    api = staff_client()
    published: list[tuple[str, str]] = []

    def note(sender=None, headers=None, **kwargs) -> None:
        published.append((sender, headers["id"]))
    after_task_publish.connect(note, weak=False)
    try:
        pack_id = kill_mid_build(restartable_workers, worker, api, round_)
    finally:
        after_task_publish.disconnect(note)
    (dead_task,) = [task_id for name, task_id in published if name == packs.BUILD_TASK]
    settings.MUSTER_PACK_INTERRUPTED_SECONDS = 3
    answer = api.get(f"/api/v1/mission-packs/{pack_id}/").json()
    assert (answer["status"], answer["state"], answer["stale"]) == ("running", "running", False)
    stuck = state(pack_id)
    poll("the pack to be reported interrupted", timeout=15,
         check=lambda: api.get(f"/api/v1/mission-packs/{pack_id}/").json()["state"] == "interrupted")
    answer = api.get(f"/api/v1/mission-packs/{pack_id}/").json()
    assert answer["stale"] is True and answer["status"] == "running"
    assert "worker was lost" in answer["state_label"]
    assert state(pack_id) == stuck  # no worker: nothing moved
    # A new worker with the default visibility timeout: the broker keeps the dead task for
    # 30 min, so only the sweep can build the pack again within this test. It builds in the
    # usual chunks (quicker: fewer progress writes).
    restartable_workers.start(MEDIA_ROOT=str(media), **quick)
    poll("the rebuilt pack", lambda: state(pack_id)[0] in (Status.DONE, Status.FAILED),
         probe=never_partial(api, pack_id), timeout=60)
    pack = MissionPack.objects.get(pk=pack_id)
    assert (pack.status, pack.progress, pack.runs) == (Status.DONE, 100, 2)
    restarted = AuditEntry.objects.get(action="mission_pack_restarted")
    assert restarted.actor is None and restarted.data["pack"] == pack_id
    assert not AuditEntry.objects.filter(action="mission_pack_retried").exists()
    assert_whole_pack(api, media, pack_id, round_)
    # The broker gives the dead run's task back, as a worker with a short visibility timeout
    # does at its next restore; the running worker finds the pack done and leaves it (not
    # failed, not built twice, one file).
    give_back_unacknowledged(visibility=1)
    assert celery_app.AsyncResult(dead_task).get(timeout=30) == Status.DONE
    pack.refresh_from_db()
    assert (pack.status, pack.runs) == (Status.DONE, 2)
    assert_whole_pack(api, media, pack_id, round_)
