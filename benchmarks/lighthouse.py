"""Lighthouse (npm `lighthouse` 12.2.3, Debian's Chromium) over the player pages, on its mobile
preset (a mid-range phone on a slow 4G link, simulated): performance, accessibility and best
practices each >= 95, and every page under 60 KiB transferred.

Run from the repository root after `npm ci`: ``python benchmarks/lighthouse.py``. Builds the demo
site (``manage.py demo_data``, plus a league) in a throw-away SQLite database, serves it with
gunicorn (``DEBUG=false``, static files collected and compressed by whitenoise, as deployed)
and runs Lighthouse on each page in turn; a player's pages are opened with their session cookie.
Prints one line per page next to the goals; exits 1 when a page misses one (``--pages`` picks
pages by name, ``--keep`` keeps each report's JSON in a folder).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serving  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("MUSTER_CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices")
GOAL_SCORE = 95
GOAL_KIB = 60


def build_site() -> dict[str, tuple[str, str | None]]:
    """The demo site and a league; each page by name: its path and whose session opens it."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaigns.models import Campaign
    from events.demo import DEMO_SLUG
    from events.models import Game
    from tests.leagues.league_fixtures import build_league, ids, played

    call_command("collectstatic", "--noinput", verbosity=0)
    call_command("demo_data", stdout=io.StringIO())
    staff = get_user_model().objects.create_user("lighthouse-staff", is_staff=True)
    league = build_league(staff, 3, prefix="lighthouse")
    first, second, _third = ids(league)
    played(league, first, second, 2, first)
    game = (Game.objects.filter(round__tournament__slug=DEMO_SLUG, player_a__user__isnull=False)
            .select_related("player_a__user").order_by("table").first())
    player = game.player_a.user.username
    campaign = Campaign.objects.get(slug="demo-laitus-prime")
    side = campaign.sides.get(side="west").player.user.username
    return {
        "home": ("/", None),
        "event (Cities of Death)": (f"/tournaments/{DEMO_SLUG}/", None),
        "event (W40K Dynamics)": ("/tournaments/demo-dynamics/", None),
        "event (Warhammer Battle)": ("/tournaments/demo-nuln/", None),
        "event (Urban War)": ("/tournaments/demo-urban/", None),
        "standings": (f"/tournaments/{DEMO_SLUG}/?extras=without", None),
        "game page": (f"/games/{game.pk}/", player),
        "list page": (f"/tournaments/{DEMO_SLUG}/players/{game.player_a_id}/list/", player),
        "profile": ("/profile/", player),
        "log-in": ("/login/", None),
        "sign-up": ("/signup/", None),
        "campaign": (f"/campaigns/{campaign.slug}/", side),
        "projector": (f"/tournaments/{DEMO_SLUG}/projector/", None),
        "league": (f"/tournaments/{league.slug}/league/", league.users[second].username),
    }


def session_cookie(username: str) -> str:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def lighthouse(url: str, cookie: str | None, keep: Path | None, name: str) -> dict:
    """One Lighthouse run (mobile preset, the default); its JSON report."""
    with tempfile.TemporaryDirectory(prefix="muster-lighthouse-") as profile:
        command = [
            str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout",
            f"--only-categories={','.join(CATEGORIES)}", f"--chrome-path={CHROMIUM}",
            f"--chrome-flags=--headless=new --no-sandbox --user-data-dir={profile}",
            "--locale=en-GB",
        ]
        if cookie:
            command.append(f"--extra-headers={json.dumps({'Cookie': cookie})}")
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-3000:]}")
    if keep is not None:
        (keep / f"{name.replace(' ', '_').replace('(', '').replace(')', '')}.json").write_text(
            done.stdout)
    return json.loads(done.stdout)


def figures(report: dict) -> tuple[dict[str, int], float]:
    scores = {key: round((report["categories"][key]["score"] or 0) * 100) for key in CATEGORIES}
    kib = report["audits"]["total-byte-weight"]["numericValue"] / 1024
    return scores, kib


def failing_audits(report: dict) -> list[str]:
    """What cost the page points, for the pages that miss a goal."""
    weighted = {ref["id"] for key in CATEGORIES for ref in report["categories"][key]["auditRefs"]
                if ref["weight"] > 0}
    return [f"{audit_id} ({report['audits'][audit_id]['score']})" for audit_id in sorted(weighted)
            if report["audits"][audit_id]["score"] not in (None, 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", help="only these pages (by name, e.g. home league)")
    parser.add_argument("--keep", type=Path, help="keep each page's JSON report in this folder")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("lighthouse: skipped (run `npm ci` at the repository root first)")
        return 0
    data_dir = Path(tempfile.mkdtemp(prefix="muster-lighthouse-site-"))
    database_url = f"sqlite:///{data_dir / 'site.sqlite3'}"
    cache_url = "locmemcache://lighthouse"
    env = serving.server_env(database_url, cache_url, MUSTER_DATA_DIR=str(data_dir),
                             DEBUG="false", STATIC_ROOT=str(data_dir / "static"))
    # This process builds the site through the API's test client too ("testserver").
    os.environ.update(env, ALLOWED_HOSTS=f"{env['ALLOWED_HOSTS']},testserver")
    start = time.perf_counter()
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    pages = build_site()
    print(f"demo site built in {time.perf_counter() - start:.0f} s")
    if args.pages:
        pages = {name: page for name, page in pages.items()
                 if any(wanted.lower() in name.lower() for wanted in args.pages)}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    missed = []
    print(f"goals: {', '.join(CATEGORIES)} >= {GOAL_SCORE}; transferred < {GOAL_KIB} KiB "
          "(mobile preset)")
    with serving.Server(env, workers=2) as server:
        base = f"http://127.0.0.1:{server.port}"
        for name, (path, user) in pages.items():
            report = lighthouse(base + path, session_cookie(user) if user else None, args.keep,
                                name)
            scores, kib = figures(report)
            ok = all(score >= GOAL_SCORE for score in scores.values()) and kib < GOAL_KIB
            line = "  ".join(f"{key} {scores[key]:3d}" for key in CATEGORIES)
            print(f"{name:26s} {line}  {kib:5.1f} KiB  {'ok' if ok else 'MISSED'}", flush=True)
            if not ok:
                missed.append(name)
                print(f"    {', '.join(failing_audits(report))}")
    print(f"{len(pages) - len(missed)} of {len(pages)} pages meet the goals")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
