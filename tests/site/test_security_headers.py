"""Content-Security-Policy and Permissions-Policy on every kind of page (config/security_headers.py).

Each page is read the way a browser would: the policy from its header, then every inline
<script> and <style> must carry that response's nonce, and no tag may carry an inline event
handler or a javascript: link. The players' pages carry no style attribute either; the admin
alone may (its documented concession). tests/browser/test_csp.py checks the same pages in
Chromium, which reports what the policy refused."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from config.security_headers import permissions_policy, with_sources
from events.demo import DEMO_SLUG
from events.models import Game, Player, Round, Tournament
from printing.models import MissionPack
from tests.site.demo_world import FirstRun, first_demo_run

pytestmark = pytest.mark.django_db

CSP = "Content-Security-Policy"
PERMISSIONS = "Permissions-Policy"
OFF = ("camera", "microphone", "geolocation", "payment", "usb")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# Never read by a browser under the policy: packs and sheets are PDFs (WeasyPrint), e-mails are mail.
NOT_SERVED = ("packs/",)
NONCE_ATTRIBUTE = 'nonce="{{ request.csp_nonce }}"'
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\ssrc=)[^>]*>")
STYLE_ELEMENT = re.compile(r"<style\b[^>]*>")
HANDLER = re.compile(r"<[a-zA-Z][^>]*?\son[a-z]+\s*=|javascript:", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*?\sstyle\s*=")


@dataclass
class Inline:
    """What a page holds inline, as the browser's CSP check sees it."""

    nonces: list[str | None] = field(default_factory=list)  # one per inline <script> and <style>
    handlers: list[str] = field(default_factory=list)  # onclick=..., href="javascript:..."
    styled: list[str] = field(default_factory=list)  # tags with a style attribute


class InlineReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = Inline()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if (tag == "script" and "src" not in named) or tag == "style":
            self.found.nonces.append(named.get("nonce"))
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.found.handlers.append(f"<{tag} {name}={value!r}>")
        if "style" in named:
            self.found.styled.append(f"<{tag} style={named['style']!r}>")


def inline(html: str) -> Inline:
    reader = InlineReader()
    reader.feed(html)
    return reader.found


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


def header_nonce(policy: dict[str, list[str]]) -> str | None:
    nonces = {s[len("'nonce-"):-1] for s in policy["script-src"] if s.startswith("'nonce-")}
    assert len(nonces) <= 1
    return nonces.pop() if nonces else None


def check_page(client: Client, url: str, *, admin_page: bool = False) -> Inline:
    """The page answers 200 with both headers and a policy its inline parts satisfy."""
    response = client.get(url)
    assert response.status_code == 200, url
    assert all(f"{feature}=()" in response[PERMISSIONS] for feature in OFF), url
    policy = directives(response[CSP])
    for directive in ("script-src", "style-src"):
        assert policy[directive][0] == "'self'", (url, policy)
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(policy[directive]), (url, policy)
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"], url
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'self'"], url
    assert policy["form-action"] == ["'self'"] and policy["img-src"] == ["'self'", "data:"], url
    nonce = header_nonce(policy)
    if nonce is not None:
        assert f"'nonce-{nonce}'" in policy["style-src"], url
    found = inline(response.content.decode())
    assert found.nonces == [nonce] * len(found.nonces), (url, nonce, found.nonces)
    assert found.handlers == [], (url, found.handlers)
    if admin_page:
        assert policy["style-src-attr"] == ["'unsafe-inline'"], url
    else:
        assert "style-src-attr" not in policy and found.styled == [], (url, found.styled)
    return found


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory, django_db_setup, django_db_blocker) -> Iterator[FirstRun]:
    """One `demo_data` run for the module's pages (a run costs seconds; the pages only read)."""
    yield from first_demo_run(tmp_path_factory.mktemp("demo-site"), django_db_blocker)


@pytest.fixture
def demo(demo_site) -> Tournament:
    return Tournament.objects.get(slug=DEMO_SLUG)


def player_client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


# Both tests on the demo site run on one worker (make test: --dist loadgroup): one run.
@pytest.mark.xdist_group("security_headers_demo")
def test_player_pages_have_a_strict_policy_their_inline_parts_satisfy(demo, client):
    me = Player.objects.get(tournament=demo, user__username="demo-player")
    game = Game.objects.filter(Q(player_a=me) | Q(player_b=me)).first()
    campaign = Campaign.objects.get(slug="demo-laitus-prime")
    for url in ["/", reverse("login"), reverse("signup"), f"/tournaments/{demo.slug}/",
                f"/tournaments/{demo.slug}/projector/", f"/campaigns/{campaign.slug}/"]:
        check_page(client, url)
    player = player_client("demo-player")
    for url in [f"/games/{game.pk}/", f"/tournaments/{demo.slug}/players/{me.pk}/list/",
                reverse("profile")]:
        check_page(player, url)
    # A side's player sees the campaign with its map (an SVG, sized by the stylesheet).
    side = player_client(campaign.sides.get(side="west").player.user.username)
    check_page(side, f"/campaigns/{campaign.slug}/")
    assert 'class="campaign-map"' in side.get(f"/campaigns/{campaign.slug}/").content.decode()
    # The language menu sends its form from static/muster.js, not from an onchange attribute.
    assert 'data-submit-on-change' in client.get("/").content.decode()


def test_each_response_has_a_nonce_of_its_own(client):
    first, second = (directives(client.get("/api/docs/")[CSP]) for _ in range(2))
    assert header_nonce(first) and header_nonce(second)
    assert header_nonce(first) != header_nonce(second)


def test_api_docs_run_their_inline_start_up_with_the_nonce(client):
    found = check_page(client, "/api/docs/")
    assert len(found.nonces) == 2  # the Swagger UI page's <style> and its start-up <script>


@pytest.mark.xdist_group("security_headers_demo")
def test_admin_pages_give_their_inline_styles_and_scripts_the_nonce(demo):
    boss = get_user_model().objects.create_superuser("boss", "boss@example.org", "boss-pass-1234")
    staff = Client()
    staff.force_login(boss)
    round_ = Round.objects.filter(tournament=demo).first()
    campaign = Campaign.objects.get(slug="demo-laitus-prime")
    pack = MissionPack.objects.create(round=round_, status=MissionPack.Status.RUNNING, progress=30)
    urls = [model_admin_url(model, "changelist") for model in admin.site._registry]
    urls += [
        reverse("admin:index"),
        reverse("admin:league_tournament_change", args=[demo.pk]),
        reverse("admin:league_round_change", args=[round_.pk]),
        reverse("admin:league_round_results", args=[round_.pk]),
        reverse("admin:league_tournament_check_in", args=[demo.pk]),
        reverse("admin:venue_scorecomponent_grid", args=[demo.pk]),
        reverse("admin:campaigns_campaign_change", args=[campaign.pk]),
        reverse("admin:printing_missionpack_change", args=[pack.pk]),
    ]
    game = Game.objects.filter(round=round_).first()
    urls.append(reverse("admin:league_game_change", args=[game.pk]))
    inline_parts = []
    for url in urls:
        inline_parts += check_page(staff, url, admin_page=True).nonces
    assert len(inline_parts) >= 6  # the pages' own <style> blocks and the pack's polling script
    pack_page = staff.get(reverse("admin:printing_missionpack_change", args=[pack.pk]))
    assert "setTimeout(poll" in pack_page.content.decode()


def model_admin_url(model, view: str) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}")


def test_error_pages_and_the_api_send_both_headers(client):
    for url in ["/no-such-page/", "/api/v1/no-such-thing/"]:
        response = client.get(url)
        assert response.status_code == 404
        assert "'unsafe-inline'" not in response[CSP] and "camera=()" in response[PERMISSIONS]
    api = client.get("/api/v1/charts/")
    assert api.status_code == 200
    assert "frame-ancestors 'none'" in api[CSP] and "usb=()" in api[PERMISSIONS]


def test_permissions_policy_is_written_as_browsers_read_it():
    assert permissions_policy({"camera": [], "fullscreen": ["self"]}) == "camera=(), fullscreen=(self)"


def test_admin_concession_adds_to_a_views_own_update():
    assert with_sources(None, {"style-src-attr": ["'unsafe-inline'"]}) == {
        "style-src-attr": ["'unsafe-inline'"]}
    assert with_sources({"img-src": "https://maps.example", "style-src-attr": ["'self'"]},
                        {"style-src-attr": ["'unsafe-inline'"]}) == {
        "img-src": "https://maps.example", "style-src-attr": ["'self'", "'unsafe-inline'"]}


def served_templates() -> list[tuple[str, str]]:
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        if name.startswith(NOT_SERVED) or "email" in name:
            continue
        found.append((name, path.read_text()))
    return found


def test_no_template_holds_what_the_policy_refuses():
    """Pages not rendered above too: every template a browser reads is held to the policy."""
    refused = []
    for name, text in served_templates():
        tags = INLINE_SCRIPT.findall(text) + STYLE_ELEMENT.findall(text)
        refused += [f"{name}: {tag}" for tag in tags if NONCE_ATTRIBUTE not in tag]
        refused += [f"{name}: {m.group(0)}" for m in HANDLER.finditer(text)]
        if not name.startswith("admin/"):  # the admin alone may use style attributes
            refused += [f"{name}: {m.group(0)}" for m in STYLE_ATTRIBUTE.finditer(text)]
    assert len(served_templates()) > 50 and refused == []
