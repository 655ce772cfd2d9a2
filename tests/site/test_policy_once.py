"""The Content-Security-Policy of an answer no view adjusted is built once per process
(config/security_headers.py): the same header as django-csp builds, rebuilt when the settings'
policy changes, and never used where a nonce or a view's own policy is in play."""
from __future__ import annotations

import pytest
from csp.utils import build_policy

from config import security_headers

pytestmark = pytest.mark.django_db
CSP = "Content-Security-Policy"


@pytest.fixture
def builds(monkeypatch) -> list[str]:
    """Each policy the middleware's own fast path builds."""
    built: list[str] = []

    def counted(*args, **kwargs) -> str:
        built.append(policy := build_policy(*args, **kwargs))
        return policy

    monkeypatch.setattr(security_headers, "build_policy", counted)
    return built


def test_api_answers_carry_the_settings_policy_built_once(client, builds):
    answers = [client.get("/api/v1/tournaments/") for _ in range(3)]
    assert {a[CSP] for a in answers} == {build_policy()}
    assert "default-src 'self'" in answers[0][CSP] and "nonce" not in answers[0][CSP]
    assert len(builds) == 1


def test_a_changed_policy_is_built_again(client, builds, settings):
    first = client.get("/api/v1/tournaments/")[CSP]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    second = client.get("/api/v1/tournaments/")[CSP]  # the same middleware, a new policy
    assert first != second == "default-src 'none'"
    assert len(builds) == 2


def test_a_page_with_a_nonce_gets_its_own_policy(client, builds):
    page = client.get("/api/docs/")  # Swagger UI's inline start-up carries the nonce
    assert "'nonce-" in page[CSP]
    assert builds == []  # django-csp's own path built it, with the nonce
