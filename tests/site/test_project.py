"""The project shell: settings from the environment, deploy checks, compose file, error pages."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from config.ratelimit import parse_rates
from config.secret import load_or_create_secret_key

ROOT = Path(__file__).resolve().parents[2]


def test_secret_key_is_generated_once_and_private(tmp_path):
    path = tmp_path / "secret_key"
    first = load_or_create_secret_key(path)
    assert len(first) >= 50
    assert load_or_create_secret_key(path) == first
    assert path.stat().st_mode & 0o077 == 0


def test_no_secret_key_in_the_code():
    settings_text = (ROOT / "config" / "settings.py").read_text()
    assert "SECRET_KEY = \"" not in settings_text and "SECRET_KEY = '" not in settings_text


def test_rate_limit_spec_parsing():
    assert parse_rates("off") is None
    rates = parse_rates("signup=5/minute")
    assert (rates["signup"].requests, rates["signup"].seconds) == (5, 60)
    assert rates["login"].requests == 30  # untouched default


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "SECRET_KEY"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_is_clean_with_production_values(tmp_path):
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="false", HTTPS="true", SECRET_KEY="x" * 20 + "production-secret-key-with-variety-1234567890",
        ALLOWED_HOSTS="muster.example.org", MUSTER_DATA_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_without_https(tmp_path):
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", DEBUG="false", HTTPS="false",
        MUSTER_DATA_DIR=str(tmp_path),
    )
    assert result.returncode != 0
    assert "SECURE_SSL_REDIRECT" in result.stdout + result.stderr


def test_docker_compose_runs_the_four_services_with_one_configuration():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "migrate", "web", "worker"}
    web, worker = services["web"], services["worker"]
    assert web["environment"] == worker["environment"]
    assert web["environment"]["DATABASE_URL"].startswith("postgres://")
    assert web["environment"]["CELERY_BROKER_URL"].startswith("redis://redis")
    assert "gunicorn" in web["command"]
    assert worker["command"][:6] == ["nice", "-n", "10", "celery", "-A", "config"]  # below web
    assert (ROOT / "Dockerfile").exists()


@pytest.mark.django_db
def test_unknown_api_path_is_json_404(client):
    response = client.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_unknown_page_is_html_404_in_french(client, settings):
    settings.DEBUG = False
    response = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    assert "text/html" in response["Content-Type"]
    assert "Cette page n&#x27;existe pas." in response.content.decode()


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/v1/charts/", "/api/v1/lists/validate/", "/api/v1/accounts/", "/api/v1/auth/token/"):
        assert path in text
    assert client.get("/api/docs/").status_code == 200


def make_run_command() -> str:
    """What `make run` puts before `manage.py runserver` (its environment and Python), read
    from `make -n`, which prints the recipe and runs nothing."""
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "MAKEFLAGS")}
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    line = next(line for line in dry.stdout.splitlines() if " manage.py runserver " in line)
    return line.split(" manage.py ")[0]


def test_make_run_shows_the_project_404_page(tmp_path):
    """A newcomer's mistyped address gets the site's page, not Django's technical 404."""
    code = ("from django.test import Client; r = Client().get('/nowhere/'); "
            "print(r.status_code); print(r.content.decode())")
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    result = subprocess.run(
        ["bash", "-c", f'{make_run_command()} manage.py shell -c "$CODE"'], cwd=ROOT,
        env={**env, "CODE": code, "MUSTER_DATA_DIR": str(tmp_path)},
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "\n404\n" in f"\n{result.stdout}"
    assert "This page does not exist." in result.stdout
    assert "Using the URLconf" not in result.stdout and "DEBUG = True" not in result.stdout


@pytest.mark.django_db
def test_api_docs_need_no_network(client):
    """Swagger UI's files come from the project's static files (drf-spectacular-sidecar), not
    from a CDN: /api/docs/ works at a venue without Internet."""
    page = client.get("/api/docs/").content.decode()
    urls = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(url.endswith("swagger-ui-bundle.js") for url in urls)
    # A CDN host starts a word ("cdn.jsdelivr.net", "//cdnjs…"); the page's random CSRF token
    # may hold the letters "cdn" inside it.
    assert re.search(r"\bcdn", page, re.IGNORECASE) is None and "//" not in "".join(urls)
    for url in urls:
        assert url.startswith("/static/"), url
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"".join(response.streaming_content if response.streaming else [response.content])


@pytest.mark.django_db
def test_home_page_lists_the_charts(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Standard force organisation chart" in html and "w40k4-standard" not in html


WARMED = """
import sys
import config.wsgi
from django.utils.translation import trans_real
print(sorted(m for m in ("teams.api", "events.api.rounds", "campaigns.api") if m in sys.modules))
print(sorted(set(trans_real._translations) & {"en", "fr"}))
"""


def test_a_web_worker_loads_the_views_and_catalogues_before_its_first_request(tmp_path):
    # PostgreSQL on a closed port: the warm-up touches no database, so a worker starts while it is down.
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "SECRET_KEY"}}
    result = subprocess.run(
        [sys.executable, "-c", WARMED], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**clean, "DATABASE_URL": "postgres://postgres@127.0.0.1:9/none", "MUSTER_DATA_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["['campaigns.api', 'events.api.rounds', 'teams.api']", "['en', 'fr']"]
