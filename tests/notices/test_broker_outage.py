"""A broker outage delays the work queued after a commit, and loses none of it (#23 item 2).

With the broker down, a result report and a wall-sheet request answer their success (the rows
are saved), the opponent's notice and the pack's build are kept as rows; once the broker is back
the sweeps queue them. The broker is a Redis of the test's own, on a free port: down (nothing
listening), then started, then stopped. Without a broker (the embedded mode) nothing changes.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from config.celery import app as celery_app
from events.audit import Actor
from events.models import Game
from events.services import results
from notices import outbox
from notices.models import Notice, QueuedNotice
from printing.models import MissionPack
from printing.services import packs
from tests.browser.events import open_event, register, user
from tests.notices.test_notices import publish
from tests.site.own_redis import OwnRedis
from tests.tournament_fixtures import client_for

QUEUE = "outage-test"


def waiting(server: OwnRedis) -> int:
    """Tasks waiting on the test's queue."""
    return server.client().llen(QUEUE)


def forget_connections() -> None:
    """Drop the app's broker pools and its result backend (cached per thread): the next task
    connects again with the settings then in force."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app._backend_cache = None
    vars(celery_app._local).pop("backend", None)


@pytest.fixture
def broker(monkeypatch) -> Iterator[OwnRedis]:
    """The Celery app pointed at a broker of the test's own, down until the test starts it.

    Celery reads CELERY_BROKER_URL (and _READ_/_WRITE_URL, CELERY_RESULT_BACKEND) from the
    environment before its settings, so the run's own broker (CI's) is moved there too;
    everything is given back afterwards, the result backend included."""
    broker = OwnRedis()
    conf = celery_app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_always_eager,
             conf.task_default_queue, conf.broker_connection_timeout,
             conf.task_publish_retry_policy)
    monkeypatch.setenv("CELERY_BROKER_URL", broker.url)
    for name in ("CELERY_BROKER_READ_URL", "CELERY_BROKER_WRITE_URL", "CELERY_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    conf.broker_url = broker.url
    conf.result_backend = None
    conf.task_always_eager = False
    conf.task_default_queue = QUEUE
    conf.broker_connection_timeout = 1
    conf.task_publish_retry_policy = {"max_retries": 1, "interval_start": 0,
                                      "interval_step": 0.1, "interval_max": 0.1}
    forget_connections()  # connections are made again to the new address
    yield broker
    broker.stop()
    (conf.broker_url, conf.result_backend, conf.task_always_eager, conf.task_default_queue,
     conf.broker_connection_timeout, conf.task_publish_retry_policy) = saved
    forget_connections()  # the environment is given back (monkeypatch) before the next use


def age(*querysets, field: str) -> None:
    """Move the rows' creation past the sweeps' grace time."""
    past = timezone.now() - timedelta(minutes=5)
    for rows in querysets:
        rows.update(**{field: past})


@pytest.mark.django_db
def test_a_report_and_a_wall_sheet_succeed_while_the_broker_is_down_and_are_queued_after(
        broker, staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Outage", language="en")
    a, b = (register(event, user(name.lower()), name) for name in ("Alice", "Bob"))
    celery_app.conf.task_always_eager = True  # publishing the round: not what is tested
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    celery_app.conf.task_always_eager = False
    game = round_.games.get()
    QueuedNotice.objects.all().delete()
    mailoutbox.clear()

    body = {"result": {"winner": a.pk}}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(a.user).post(f"/api/v1/games/{game.pk}/report/", body,
                                           format="json")
    assert response.status_code in (200, 201), response.content
    assert Game.objects.get(pk=game.pk).status == Game.Status.REPORTED  # saved
    notice = QueuedNotice.objects.get()  # kept, not lost: the broker never had it
    assert notice.task == outbox.SEND_NOTICES and notice.queued_at is None
    assert not Notice.objects.filter(kind=Notice.Kind.RESULT_REPORTED).exists()
    assert not mailoutbox

    staff = client_for(get_user_model().objects.create_user("desk", is_staff=True))
    url = f"/api/v1/tournaments/{event.slug}/rounds/1/wall-sheets/"
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(url, {"kind": "pairings"}, format="json")
    assert response.status_code == 202, response.content
    pack = MissionPack.objects.get(pk=response.json()["id"])
    assert pack.status == MissionPack.Status.PENDING and pack.queued_at is None

    # Still down: the sweeps queue nothing and keep the rows.
    age(QueuedNotice.objects.all(), field="created_at")
    age(MissionPack.objects.all(), field="requested_at")
    assert outbox.sweep() == 0 and packs.sweep() == 0
    assert QueuedNotice.objects.get().queued_at is None

    broker.start()
    assert outbox.sweep() == 1 and packs.sweep() == 1
    assert QueuedNotice.objects.get().queued_at is not None
    pack.refresh_from_db()
    assert pack.queued_at is not None and pack.status == MissionPack.Status.PENDING
    assert waiting(broker) == 2  # the notice and the build, waiting for a worker
    assert outbox.sweep() == 0 and packs.sweep() == 0  # queued once, not at every sweep


@pytest.mark.django_db
def test_in_the_embedded_mode_the_notice_is_sent_at_once_and_leaves_no_row(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Embedded", language="en")
    a, b = (register(event, user(name.lower()), name) for name in ("Alice", "Bob"))
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    earlier = set(QueuedNotice.objects.values_list("pk", flat=True))  # never committed here
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(a.user).post(f"/api/v1/games/{round_.games.get().pk}/report/",
                                           {"result": {"winner": a.pk}}, format="json")
    assert response.status_code in (200, 201), response.content
    (message,) = mailoutbox
    assert message.to == ["bob@example.org"]
    assert set(QueuedNotice.objects.values_list("pk", flat=True)) == earlier  # sent: row gone


@pytest.mark.django_db
def test_the_sweep_command_sends_what_an_outage_left_in_the_embedded_mode(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Cron", language="en")
    a, b = (register(event, user(name.lower()), name) for name in ("Alice", "Bob"))
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    QueuedNotice.objects.all().delete()
    mailoutbox.clear()
    # The report's notice, as a broker outage left it: a row, never queued.
    results.report(Actor(user=a.user), round_.games.get().pk, results.ResultInput(winner=a.pk))
    age(QueuedNotice.objects.all(), field="created_at")
    out = io.StringIO()
    call_command("sweep_queue", stdout=out)
    assert "league.sweep_notices: 1\n" in out.getvalue()
    (message,) = mailoutbox
    assert message.to == ["bob@example.org"]
    assert not QueuedNotice.objects.exists()
