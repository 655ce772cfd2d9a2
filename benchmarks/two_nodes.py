"""A round's end through nginx on two nodes next to one node, in the same run, and the pack
download through the proxy (issue #27 item 7).

Run from the repository root: ``python benchmarks/two_nodes.py`` (PostgreSQL on 127.0.0.1,
database ``muster_bench_two_nodes``, rebuilt on every run; Redis databases 4 and 5 as cache and
broker, emptied; nginx; moto's S3 server in this process). Starts the cluster of
tests/twonode/cluster.py: two gunicorn nodes (2 sync workers each, each on its own empty
MEDIA_ROOT), two Celery workers, MEDIA_STORAGE=s3; a second nginx sends everything to node-a
alone. Seeds two events of ``--players`` players through the services, then fires the
round-end burst of benchmarks/round_end.py (player A's report of every game, then player B's
confirmation, ``--concurrency`` clients) through the one-node proxy on the first event and
through the two-node proxy on the second. Then a worker builds a mission pack, and
``--downloads`` downloads go through the proxy: the node's 302 to the signed URL, then the bytes
from the store.

On one machine (two cores here) both nodes, both workers, PostgreSQL, Redis, nginx, the store
and the clients share the same CPUs: the figures show that two nodes serve correctly and what
the proxy and the store cost, not how much capacity a second machine adds. Prints figures;
asserts nothing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import serving  # noqa: E402
from tests.twonode.cluster import Cluster, call, get  # noqa: E402


def report_calls(games: list[list]) -> list[serving.Call]:
    return [serving.Call("POST", f"/api/v1/games/{game}/report/",
                         {"Authorization": f"Token {token_a}", "Content-Type": "application/json"},
                         json.dumps({"result": {"winner": a},
                                     "victory_points": {str(a): 1200, str(b): 800},
                                     "stratagems": {}}).encode())
            for game, a, b, token_a, _token_b in games]


def confirm_calls(games: list[list]) -> list[serving.Call]:
    return [serving.Call("POST", f"/api/v1/games/{game}/confirm/",
                         {"Authorization": f"Token {token_b}", "Content-Type": "application/json"},
                         b"{}")
            for game, _a, _b, _token_a, token_b in games]


def burst(port: int, label: str, games: list[list], concurrency: int) -> None:
    for kind, calls in (("reports", report_calls(games)), ("confirmations", confirm_calls(games))):
        figures = serving.run_load(port, calls, concurrency, ok=lambda status: status == 200)
        print(f"  {label:<10} {len(calls):>4} {kind:<13} {figures.line()}")
        if figures.errors:
            print(f"    statuses: {dict(figures.statuses)}")


def build_pack(cluster: Cluster, event: dict) -> int:
    auth = {"Authorization": f"Token {event['token']}"}
    status, _h, body = call(cluster.proxy_port, "POST", f"/api/v1/tournaments/{event['slug']}/"
                            f"rounds/{event['round']}/mission-pack/", {}, auth)
    pack_id = json.loads(body)["id"]
    start = time.perf_counter()
    while True:
        state = json.loads(get(cluster.proxy_port, f"/api/v1/mission-packs/{pack_id}/", auth)[2])
        if state["status"] in ("done", "failed"):
            break
        time.sleep(0.2)
    print(f"mission pack of {len(event['games'])} tables: {state['status']}, {state.get('pages')} "
          f"pages, {time.perf_counter() - start:.1f} s from request to done (worker, S3 upload)")
    return pack_id


def downloads(cluster: Cluster, event: dict, pack_id: int, count: int) -> None:
    auth = {"Authorization": f"Token {event['token']}"}
    redirects, fetches, nodes, digests, size = [], [], Counter(), set(), 0
    for _ in range(count):
        start = time.perf_counter()
        status, headers, _b = get(cluster.proxy_port, f"/api/v1/mission-packs/{pack_id}/download/",
                                  auth)
        middle = time.perf_counter()
        with urllib.request.urlopen(headers["location"], timeout=60) as answer:
            body = answer.read()
        redirects.append((middle - start) * 1000)
        fetches.append((time.perf_counter() - middle) * 1000)
        nodes[headers["x-muster-node"]] += 1
        digests.add(hashlib.sha256(body).hexdigest())
        size = len(body)
    redirects.sort()
    fetches.sort()

    def p(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, round(q / 100 * len(values)))]

    print(f"pack download through the proxy, {count} times ({size / 1024:.0f} KiB): "
          f"302 from the node p50 {p(redirects, 50):.1f} ms, p95 {p(redirects, 95):.1f} ms; "
          f"bytes from the store p50 {p(fetches, 50):.1f} ms, p95 {p(fetches, 95):.1f} ms; "
          f"nodes {dict(nodes)}; {len(digests)} distinct content(s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="players per event")
    parser.add_argument("--concurrency", type=int, default=8, help="clients at once")
    parser.add_argument("--downloads", type=int, default=40)
    parser.add_argument("--database", default="muster_bench_two_nodes")
    parser.add_argument("--cache", default=f"{serving.REDIS}/4")
    parser.add_argument("--broker", default=f"{serving.REDIS}/5")
    args = parser.parse_args()
    start = time.perf_counter()
    cluster = Cluster(f"{serving.POSTGRES}/{args.database}", args.cache, args.broker,
                      extra_env={"MUSTER_RATE_LIMITS": "off"})
    try:
        cluster.start()
        events = [json.loads(cluster.python("tests.twonode.seed", str(args.players), str(seed)))
                  for seed in (1, 2)]
        one_node = cluster.start_proxy(("node-a",))
        print(f"cluster up and two events of {args.players} players seeded in "
              f"{time.perf_counter() - start:.0f} s; {args.concurrency} clients at once")
        for port, event in ((one_node, events[0]), (cluster.proxy_port, events[1])):
            serving.run_load(port, report_calls(event["games"][:4]), 4)  # warm every worker
            serving.run_load(port, confirm_calls(event["games"][:4]), 4)
        burst(one_node, "one node", events[0]["games"][4:], args.concurrency)
        burst(cluster.proxy_port, "two nodes", events[1]["games"][4:], args.concurrency)
        downloads(cluster, events[0], build_pack(cluster, events[0]), args.downloads)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
