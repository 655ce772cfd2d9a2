"""Two nodes on one machine (issue #27, shared/deploy-v1.md): nginx round-robin in front of two
gunicorn processes, two Celery workers, each process on an empty MEDIA_ROOT of its own, one
PostgreSQL, one Redis, and moto's S3 server as the object store (tests/twonode/cluster.py).

Slow (a few minutes: every process is real), so ``make test`` leaves it out; .ci/run runs it as
a step of its own:

    MUSTER_TWO_NODES=1 .venv/bin/python -m pytest tests/twonode -p no:xdist -m twonode

It needs PostgreSQL (DATABASE_URL; the cluster uses the database ``<name>_twonode``), Redis
(CACHE_URL and CELERY_BROKER_URL, both emptied: give it databases of its own) and nginx.
"""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator

import psycopg
import pytest

from tests.nginx_proxy import NGINX
from tests.twonode.cluster import NODES, Cluster, call, get

pytestmark = [
    pytest.mark.twonode,
    pytest.mark.skipif(os.environ.get("MUSTER_TWO_NODES") != "1",
                       reason="the two-node test runs from .ci/run (MUSTER_TWO_NODES=1)"),
]
# Short enough for a test, long enough for a busy 2-core machine to keep beating.
QUICK_PACKS = {"MUSTER_PACK_HEARTBEAT_SECONDS": "1", "MUSTER_PACK_INTERRUPTED_SECONDS": "5"}
RETRIED = {502, 503, 504}


def cluster_urls() -> tuple[str, str, str]:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        pytest.skip("the two-node test needs PostgreSQL (DATABASE_URL)")
    if not (os.environ.get("CACHE_URL") and os.environ.get("CELERY_BROKER_URL")):
        pytest.skip("the two-node test needs Redis (CACHE_URL, CELERY_BROKER_URL)")
    if shutil.which(NGINX) is None and not os.path.exists(NGINX):
        pytest.skip(f"the two-node test needs nginx ({NGINX})")
    return (f"{database.rstrip('/')}_twonode", os.environ["CACHE_URL"],
            os.environ["CELERY_BROKER_URL"])


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    database, cache, broker = cluster_urls()
    nodes = Cluster(database, cache, broker, extra_env=QUICK_PACKS)
    try:
        nodes.start()
        yield nodes
    finally:
        nodes.stop()


@pytest.fixture(scope="module")
def event(cluster: Cluster) -> dict:
    """A published round of 120 players (60 tables: a pack long enough to kill a worker in)."""
    return json.loads(cluster.python("tests.twonode.seed", "120"))


def staff(event: dict) -> dict[str, str]:
    return {"Authorization": f"Token {event['token']}"}


def rows(cluster: Cluster, sql: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(cluster.database_url) as connection:
        return connection.execute(sql, params).fetchall()


def nodes_seen(cluster: Cluster, path: str, times: int = 6, **headers: str) -> Counter:
    return Counter(get(cluster.proxy_port, path, headers)[1]["x-muster-node"]
                   for _ in range(times))


# --- both nodes answer -----------------------------------------------------------------------------

def test_both_nodes_answer_their_deep_check_through_the_proxy(cluster: Cluster):
    answers = [get(cluster.proxy_port, "/healthz/?deep=1") for _ in range(6)]
    assert {status for status, _h, _b in answers} == {200}, answers
    assert {json.loads(body)["node"] for _s, _h, body in answers} == set(NODES)
    assert Counter(headers["x-muster-node"] for _s, headers, _b in answers) == {
        "node-a": 3, "node-b": 3}  # round-robin


# --- packs: built by either worker, downloaded through either node --------------------------------

def request_pack(cluster: Cluster, event: dict, kind: str | None = None) -> int:
    path = (f"/api/v1/tournaments/{event['slug']}/rounds/{event['round']}/"
            + ("mission-pack/" if kind is None else "wall-sheets/"))
    status, _h, body = call(cluster.proxy_port, "POST", path, {} if kind is None else
                            {"kind": kind}, staff(event))
    assert status == 202, body
    return json.loads(body)["id"]


def wait_done(cluster: Cluster, event: dict, pack_id: int, timeout: float = 180) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _h, body = get(cluster.proxy_port, f"/api/v1/mission-packs/{pack_id}/",
                               staff(event))
        state = json.loads(body)
        if state["status"] in ("done", "failed"):
            assert state["status"] == "done", state
            return state
        time.sleep(0.3)
    raise AssertionError(f"pack {pack_id} not done in {timeout} s: {state}")


def download_through_each_node(cluster: Cluster, event: dict, pack_id: int) -> dict[str, bytes]:
    """The pack's bytes as each node hands them out (a 302 to the store's signed URL)."""
    got: dict[str, bytes] = {}
    for _ in range(6):
        status, headers, _body = get(cluster.proxy_port,
                                     f"/api/v1/mission-packs/{pack_id}/download/", staff(event))
        assert status == 302, status
        assert headers["location"].startswith(cluster.s3_endpoint)
        assert "X-Amz-Signature=" in headers["location"]
        with urllib.request.urlopen(headers["location"], timeout=30) as answer:
            assert answer.headers["Content-Type"] == "application/pdf"
            assert "attachment" in answer.headers["Content-Disposition"]
            got.setdefault(headers["x-muster-node"], answer.read())
    return got


def test_a_pack_built_by_either_worker_downloads_identically_through_both_nodes(
        cluster: Cluster, event: dict):
    # Three at once: each worker (solo, prefetching one task) takes one.
    ids = [request_pack(cluster, event, kind) for kind in ("pairings", "find_table", "standings")]
    for pack_id in ids:
        wait_done(cluster, event, pack_id)
    builders = dict(rows(cluster, "SELECT id, heartbeat_by FROM league_missionpack "
                                  "WHERE id = ANY(%s)", (ids,)))
    worker_pids = {process.popen.pid for process in cluster.worker_processes}
    built_by = {int(builders[pack_id].rsplit(":", 1)[1]) for pack_id in ids}
    assert built_by <= worker_pids and len(built_by) == 2, (builders, worker_pids)
    for pack_id in ids:
        copies = download_through_each_node(cluster, event, pack_id)
        assert set(copies) == set(NODES)
        assert copies["node-a"] == copies["node-b"]
        assert copies["node-a"].startswith(b"%PDF-")
        name = rows(cluster, "SELECT file FROM league_missionpack WHERE id = %s", (pack_id,))[0][0]
        stored = cluster.s3().get_object(Bucket="muster-two-nodes", Key=name)["Body"].read()
        assert stored == copies["node-a"]
    # Nothing on any process's own disk: the store holds every pack.
    assert not [path for path in cluster.root.glob("*/media/**/*") if path.is_file()]


def test_a_worker_killed_mid_pack_ends_with_the_pack_done_and_one_stored_object(
        cluster: Cluster, event: dict):
    pack_id = request_pack(cluster, event)
    deadline = time.monotonic() + 120
    builder = ""
    while time.monotonic() < deadline:
        status, progress, builder = rows(cluster, "SELECT status, progress, heartbeat_by FROM "
                                                  "league_missionpack WHERE id = %s", (pack_id,))[0]
        if status == "running" and 5 <= progress < 90:
            break
        assert status != "done", "the pack was done before the kill: make it longer"
        time.sleep(0.05)
    pid = int(builder.rsplit(":", 1)[1])
    victim = next(p for p in cluster.worker_processes if p.popen.pid == pid)
    victim.kill(signal.SIGKILL)  # mid-render: no file uploaded, a heartbeat that stops
    cluster.worker_processes.remove(victim)
    # The orchestrator starts a new worker; its start-up sweeps restart the interrupted pack.
    cluster.start_worker("worker-3")
    state = wait_done(cluster, event, pack_id)
    runs, name = rows(cluster, "SELECT runs, file FROM league_missionpack WHERE id = %s",
                      (pack_id,))[0]
    assert runs == 2 and state["progress"] == 100
    assert cluster.stored_objects(f"packs/pack-{pack_id}-") == [name]
    copies = download_through_each_node(cluster, event, pack_id)
    assert copies["node-a"] == copies["node-b"]


# --- shared limits -----------------------------------------------------------------------------------

def test_failed_log_ins_spread_over_both_nodes_meet_one_limit(cluster: Cluster):
    answers = [call(cluster.proxy_port, "POST", "/api/v1/auth/token/",
                    {"username": f"guess-{i}", "password": "wrong"}) for i in range(31)]
    statuses = [status for status, _h, _b in answers]
    nodes = Counter(headers["x-muster-node"] for _s, headers, _b in answers[:30])
    assert set(nodes) == set(NODES)  # both nodes counted in the same Redis
    assert set(statuses[:30]) == {400} and statuses[30] == 429, [
        (status, headers["x-muster-node"], body[:80]) for status, headers, body in answers]


# --- a web node killed mid-burst -------------------------------------------------------------------

def fire_reports(cluster: Cluster, games: list[list], outcome: dict[int, tuple[int, int]]) -> None:
    """Player A reports each game; an answer lost with its node is asked again (as a client
    whose request failed does), never more than 10 times."""
    for game, a, b, token, _token_b in games:
        body = {"result": {"winner": a}, "victory_points": {str(a): 1200, str(b): 800},
                "stratagems": {}}
        for attempt in range(1, 11):  # noqa: B007  (the tries are counted)
            try:
                status, _h, _b = call(cluster.proxy_port, "POST", f"/api/v1/games/{game}/report/",
                                      body, {"Authorization": f"Token {token}"})
            except (OSError, http.client.HTTPException):  # cut off, or half an answer
                status = 0
            if status not in RETRIED and status != 0:
                break
            time.sleep(0.2)
        outcome[game] = (status, attempt)


def test_a_web_node_killed_mid_burst_loses_no_report_and_duplicates_none(
        cluster: Cluster, event: dict):
    games = event["games"]
    outcome: dict[int, tuple[int, int]] = {}
    threads = [threading.Thread(target=fire_reports, args=(cluster, games[i::4], outcome))
               for i in range(4)]
    for thread in threads:
        thread.start()
    while len(outcome) < len(games) // 3:
        time.sleep(0.01)
    cluster.web["node-a"].kill(signal.SIGKILL)  # master and workers, mid-burst
    answered_before_the_kill = len(outcome)
    for thread in threads:
        thread.join(timeout=120)
    assert len(outcome) == len(games) and answered_before_the_kill < len(games) * 2 // 3
    assert {status for status, _attempts in outcome.values()} == {200}, outcome
    ids = [game for game, *_rest in games]
    assert dict(rows(cluster, "SELECT id, status FROM league_game WHERE id = ANY(%s)",
                     (ids,))) == dict.fromkeys(ids, "reported")
    # One open report per game: a retried request whose first try was committed only replaced
    # the player's own identical report.
    open_reports = rows(cluster, "SELECT game_id, count(*) FROM league_report WHERE game_id = "
                                 "ANY(%s) AND status = 'reported' GROUP BY game_id", (ids,))
    assert dict(open_reports) == dict.fromkeys(ids, 1)
    retried = sum(attempts > 1 for _status, attempts in outcome.values())
    total = rows(cluster, "SELECT count(*) FROM league_report WHERE game_id = ANY(%s)", (ids,))
    assert len(ids) <= total[0][0] <= len(ids) + retried
    cluster.start_web("node-a")
    # nginx leaves a failed server out for its fail_timeout (3 s): node-a comes back after it.
    seen: set[str] = set()
    deadline = time.monotonic() + 20
    while seen != set(NODES) and time.monotonic() < deadline:
        seen |= set(nodes_seen(cluster, "/healthz/"))
        time.sleep(0.5)
    assert seen == set(NODES)


# --- a release with a migration pending ------------------------------------------------------------

def test_with_a_migration_pending_both_nodes_answer_503_on_the_deep_check(cluster: Cluster):
    cluster.restart_web(**cluster.release_ahead())
    for node, port in cluster.ports.items():
        status, headers, body = get(port, "/healthz/?deep=1")
        assert (status, headers["x-muster-node"]) == (503, node)
        assert json.loads(body)["checks"]["migrations"] == "pending"
        assert get(port, "/healthz/")[0] == 200  # alive, not ready
    assert get(cluster.proxy_port, "/healthz/?deep=1")[0] == 503
