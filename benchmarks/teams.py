"""Issue #26's speed goals for a team event of 64 teams of 8 (512 players), through gunicorn on
PostgreSQL: pairing a team round through the API in at most 250 ms; 64 drafts' commits arriving
at once (16 clients) answered at p95 <= 100 ms, with no commit lost or duplicated.

Run from the repository root: ``python benchmarks/teams.py [--repeats N] [--concurrency N]``
(PostgreSQL on 127.0.0.1, database ``muster_seasons2_teams``, rebuilt on every run; Redis
database 10 as the cache and 11 as the broker, emptied: the letters are queued as a production
server queues them, and no worker sends them). Builds the event (created through
the API, players, accounts and API tokens in bulk, the teams through the registration service),
starts gunicorn with 3 sync workers (deploy/gunicorn.conf.py's default) behind nginx as deployed
(``--direct``: without it; gunicorn then lingers on each closed connection until the Python
clients have read it), then

1. times ``POST /api/v1/tournaments/{slug}/rounds/`` (round 1: 32 team matches) ``--repeats``
   times, the round deleted between calls (the last one is kept); and, on a second event of the
   same teams with ``"draft": "none"`` (games made at once), round 2 after round 1's 256 games
   were confirmed with random victory points (the team Swiss then pairs within scores and
   avoids rematches);
2. rolls off every match (``.../draft/roll/``, not timed) and fires the 64 captains' defender
   commits at once from ``--concurrency`` clients (the goal's burst);
3. fires the 64 attackers' commits twice each at once (a client that retries), 128 requests:
   exactly one 201 per team is expected, the other a 409 ``draft_already_committed``.

After each burst it counts the stored moves: one per team and phase (none lost, none twice),
and prints the CPU time a commit cost gunicorn's workers, PostgreSQL's server processes and the
clients (a loaded machine stretches the times, much less the CPU). Prints figures next to the
goals with the machine's load; asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import serving  # noqa: E402

TEAMS, SIZE = 64, 8
GOAL_PAIR_MS = 250
GOAL_COMMIT_P95_MS = 100
DATABASE = "muster_seasons2_teams"
CACHE = f"{serving.REDIS}/10"
BROKER = f"{serving.REDIS}/11"


def api(token: str, method: str, path: str, body: dict | None = None) -> serving.Call:
    return serving.Call(method, f"/api/v1{path}", {"Authorization": f"Token {token}",
                                                   "Content-Type": "application/json"},
                        json.dumps(body).encode() if body is not None else None)


def call(port: int, request: serving.Call, expected: int) -> dict:
    status, body = serving.request(port, request)
    if status != expected:
        raise RuntimeError(f"{request.method} {request.path}: {status} {body[:400]!r}")
    return json.loads(body) if body else {}


def build_people(count: int) -> tuple[str, list[str]]:
    """A staff account and 512 players' accounts with API tokens: (staff token, player tokens)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    User = get_user_model()
    staff = User.objects.create_user("bench-staff", is_staff=True)
    users = User.objects.bulk_create(User(username=f"bench-{i}") for i in range(count * SIZE))
    tokens = Token.objects.bulk_create(Token(user=u, key=Token.generate_key()) for u in [staff, *users])
    return tokens[0].key, [t.key for t in tokens[1:]]


def build_teams(slug: str, count: int) -> dict[int, dict]:
    """Players registered in bulk (accounts bench-0…), then the 64 teams through the service:
    team id -> {"captain": user index, "members": [player ids]}."""
    from django.contrib.auth import get_user_model

    from events.audit import Actor
    from events.models import Player, Tournament
    from teams.services.registration import register_team

    tournament = Tournament.objects.get(slug=slug)
    staff = Actor(user=get_user_model().objects.get(username="bench-staff"))
    users = list(get_user_model().objects.filter(username__startswith="bench-")
                 .exclude(username="bench-staff").order_by("pk"))
    players = Player.objects.bulk_create(
        Player(tournament=tournament, user=u, name=f"Player {i}", club=f"club{i % 40}",
               faction=f"faction{i % 12}") for i, u in enumerate(users))
    teams = {}
    for t in range(count):
        members = [p.pk for p in players[t * SIZE:(t + 1) * SIZE]]
        team = register_team(staff, tournament, name=f"Team {t}", captain=members[0], members=members)
        teams[team.pk] = {"captain": t * SIZE, "members": members}
    return teams


def pair_round(port: int, staff: str, slug: str, repeats: int, number: int = 1,
               ) -> tuple[list[float], dict]:
    from events.models import Round

    times, body = [], {}
    for attempt in range(repeats):
        if attempt:
            Round.objects.filter(tournament__slug=slug, number=number).delete()
        start = time.perf_counter()
        body = call(port, api(staff, "POST", f"/tournaments/{slug}/rounds/", {}), 201)
        times.append((time.perf_counter() - start) * 1000)
    return times, body


def settle_round(slug: str, seed: int = 26) -> int:
    """Every game of the last round confirmed with random victory points (0-20 each; the
    higher wins, equal: a draw), in bulk: round 2 is then paired on real scores."""
    import random

    from events.models import Game

    rng = random.Random(seed)
    games = list(Game.objects.filter(round__tournament__slug=slug, player_b__isnull=False))
    for game in games:
        a, b = rng.randint(0, 20), rng.randint(0, 20)
        game.victory_points = {str(game.player_a_id): a, str(game.player_b_id): b}
        game.winner_id = game.player_a_id if a > b else game.player_b_id if b > a else None
        game.status = Game.Status.CONFIRMED
    Game.objects.bulk_update(games, ["victory_points", "winner", "status"], batch_size=500)
    return len(games)


def moves(phase: str) -> Counter:
    from teams.models import DraftMove

    return Counter(DraftMove.objects.filter(phase=phase).values_list("match_id", "team_id"))


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.1f} (1 min) / {five:.1f} (5 min), {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--teams", type=int, default=TEAMS, help="fewer for a quick check")
    parser.add_argument("--cache", default=CACHE, help="e.g. locmemcache://bench for a quick check")
    parser.add_argument("--direct", action="store_true",
                        help="fire at gunicorn itself, not through nginx as deployed")
    args = parser.parse_args()

    url = serving.database(DATABASE, fresh=True)
    if args.cache.startswith("redis"):
        serving.flush_redis(args.cache)
    serving.flush_redis(BROKER)
    # Letters and warm-ups queued in a broker, as a production server does (no worker takes
    # them here: the broker's database is emptied at the end).
    os.environ["CELERY_BROKER_URL"] = BROKER
    serving.setup_django(url, args.cache)
    staff, tokens = build_people(args.teams)
    env = serving.server_env(url, args.cache)
    with contextlib.ExitStack() as stack:
        stack.callback(serving.flush_redis, BROKER)
        server = stack.enter_context(serving.Server(env, workers=args.workers, ready_path="/api/v1/tournaments/"))
        port = server.port if args.direct else stack.enter_context(serving.Nginx(server.port)).port
        created = call(port, api(staff, "POST", "/tournaments/", {
            "name": "Bench teams", "chart": "w40k4-standard", "points_limit": 1500,
            "level": "gamma", "rounds": 5, "on_six": "reroll", "format": "team",
            "team": {"size": SIZE}}), 201)
        slug = created["slug"]
        call(port, api(staff, "POST", f"/tournaments/{slug}/status/", {"status": "registration_open"}), 200)
        teams = build_teams(slug, args.teams)
        # Lists locked before timing, as an organiser does before round 1.
        call(port, api(staff, "POST", f"/tournaments/{slug}/status/", {"status": "lists_locked"}), 200)
        print(f"{args.teams} teams of {SIZE} ({args.teams * SIZE} players); gunicorn {args.workers} workers"
              f"{'' if args.direct else ' behind nginx'}; {load()}")

        times, body = pair_round(port, staff, slug, args.repeats)
        matches = body["team_matches"]
        print(f"pair a team round (POST .../rounds/, {len(matches)} matches): median "
              f"{statistics.median(times):.0f} ms, best {min(times):.0f} ms, worst {max(times):.0f} ms "
              f"over {len(times)} calls (goal <= {GOAL_PAIR_MS} ms); {load()}")

        second = call(port, api(staff, "POST", "/tournaments/", {
            "name": "Bench teams at once", "chart": "w40k4-standard", "points_limit": 1500,
            "level": "gamma", "rounds": 5, "on_six": "reroll", "format": "team",
            "team": {"size": SIZE, "draft": "none"}}), 201)["slug"]
        call(port, api(staff, "POST", f"/tournaments/{second}/status/", {"status": "registration_open"}), 200)
        build_teams(second, args.teams)
        call(port, api(staff, "POST", f"/tournaments/{second}/status/", {"status": "lists_locked"}), 200)
        call(port, api(staff, "POST", f"/tournaments/{second}/rounds/", {}), 201)
        games = settle_round(second)
        times2, _body = pair_round(port, staff, second, args.repeats, number=2)
        print(f"pair round 2 after {games} confirmed games (draft none): median "
              f"{statistics.median(times2):.0f} ms, best {min(times2):.0f} ms, worst {max(times2):.0f} ms "
              f"over {len(times2)} calls (goal <= {GOAL_PAIR_MS} ms); {load()}")

        for match in matches:  # the roll-off, first team wins: both then commit a defender
            call(port, api(staff, "POST", f"/team-matches/{match['id']}/draft/roll/", {"dice": [6, 1]}), 201)

        def commit(match: dict, team: int, phase: str, players: list[int]) -> serving.Call:
            token = tokens[teams[team]["captain"]]
            return api(token, "POST", f"/team-matches/{match['id']}/draft/", {"phase": phase, "players": players})

        sides = [(m, team) for m in matches for team in m["teams"] if team is not None]
        defenders = [commit(m, team, "defender", teams[team]["members"][:1]) for m, team in sides]
        workers, own = server.worker_pids(), time.process_time()
        backends = serving.database_backends(DATABASE)
        cpu, db_cpu = serving.cpu_seconds(workers), serving.cpu_seconds(backends)
        summary = serving.run_load(port, defenders, concurrency=args.concurrency)
        app_ms = (serving.cpu_seconds(workers) - cpu) * 1000 / len(defenders)
        db_ms = (serving.cpu_seconds(backends) - db_cpu) * 1000 / len(defenders)
        client_ms = (time.process_time() - own) * 1000 / len(defenders)
        stored = moves("defender")
        print(f"{len(defenders)} defender commits at once ({args.concurrency} clients): {summary.line()}; "
              f"CPU per commit {app_ms:.1f} ms in gunicorn, {db_ms:.1f} ms in PostgreSQL, {client_ms:.1f} ms "
              f"in the clients; "
              f"statuses {dict(summary.statuses)}; goal p95 <= {GOAL_COMMIT_P95_MS} ms; stored "
              f"{sum(stored.values())} moves, {sum(1 for n in stored.values() if n > 1)} twice, "
              f"{len(sides) - len(stored)} lost; {load()}")

        attackers = [commit(m, team, "attackers", teams[team]["members"][1:3]) for m, team in sides]
        summary = serving.run_load(port, [c for c in attackers for _ in (0, 1)],
                                   concurrency=args.concurrency, ok=lambda s: s in (201, 409))
        stored = moves("attackers")
        print(f"{len(attackers)} attackers' commits sent twice each at once: {summary.line()}; "
              f"statuses {dict(summary.statuses)} (expected {{201: {len(attackers)}, 409: "
              f"{len(attackers)}}}); stored {sum(stored.values())} moves, "
              f"{sum(1 for n in stored.values() if n > 1)} twice, {len(sides) - len(stored)} lost; {load()}")


if __name__ == "__main__":
    main()
