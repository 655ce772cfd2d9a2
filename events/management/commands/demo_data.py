"""Fill an empty site with demo data: an admin, players, a running tournament, an open one with
the sample lists, an event of each other game system and a campaign."""
import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from armylists.validation import Entry
from events.demo import (
    DEMO_PASSWORD_FILE,
    demo_accounts,
    demo_open_event,
    demo_password,
    demo_tournament,
)
from events.demo_systems import demo_campaign, demo_system_events

ADMIN_PASSWORD_FILE = "admin_password"
DEMO_MAIL_DIR = "demo-emails"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"
FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
MAIL_END = "\n" + "-" * 79 + "\n"  # what the console and file backends write after each e-mail

SAMPLE_LISTS = {
    "Legal 1500 — Space Marines": [
        Entry("Captain", "hq", 100), Entry("Tactical Squad", "troops", 180, 10),
        Entry("Tactical Squad", "troops", 180, 10), Entry("Terminator Squad", "elites", 230, 5),
        Entry("Assault Squad", "fast_attack", 150, 5), Entry("Predator", "heavy_support", 120),
    ],
    "Too many Heavy Support — Imperial Guard": [
        Entry("Command Platoon", "hq", 90, 5), Entry("Infantry Platoon", "troops", 300, 30),
        Entry("Infantry Platoon", "troops", 300, 30), Entry("Leman Russ", "heavy_support", 150),
        Entry("Leman Russ", "heavy_support", 150), Entry("Basilisk", "heavy_support", 125),
        Entry("Hellhound", "heavy_support", 130),
    ],
}


class Command(BaseCommand):
    help = "Create demo data once (idempotent) and print where to log in."

    def add_arguments(self, parser):
        # `make run` passes its HOST and PORT, so the printed links open the served site.
        parser.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1")
        parser.add_argument("--port", default=os.environ.get("PORT") or "8000")

    def handle(self, *args, **options):
        site = site_url(options["host"], options["port"])
        mail_dir = settings.DATA_DIR / DEMO_MAIL_DIR
        sent_before = mails_in(mail_dir)
        with override_settings(**demo_settings(site, mail_dir)), transaction.atomic():
            password = self._admin()
            accounts = demo_accounts()
            players_password = demo_password(settings.DATA_DIR, accounts)
            tournament = demo_tournament(accounts)
            open_event = demo_open_event(accounts, SAMPLE_LISTS)
            others = demo_system_events(accounts)
            campaign = demo_campaign(accounts)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(f"Admin: {site}{reverse('admin:index')}  user: admin  password: {password}")
        self.stdout.write(f"Demo players: {site}{reverse('login')}  user: {accounts[0].username} "
                          f"(or {accounts[1].username}, ...)  password: {players_password}")
        self.stdout.write(f"Demo tournament: {site}{reverse('tournament', args=[tournament.slug])}")
        for other in others:
            self.stdout.write(f"  {other.name}: {site}{reverse('tournament', args=[other.slug])}")
        self.stdout.write(f"  {campaign.name}: {site}{reverse('campaign', args=[campaign.slug])}")
        self.stdout.write(f"  {open_event.name} (open for registration; the sample lists of "
                          f"{accounts[0].username}): "
                          f"{site}{reverse('tournament', args=[open_event.slug])}")
        written = mails_in(mail_dir) - sent_before
        if written:
            self.stdout.write(f"{written} demo e-mails written to {mail_dir} (not printed here).")
        self.stdout.write(f"(the passwords are kept in {settings.DATA_DIR / ADMIN_PASSWORD_FILE} "
                          f"and {settings.DATA_DIR / DEMO_PASSWORD_FILE})")

    def _admin(self) -> str:
        path = settings.DATA_DIR / ADMIN_PASSWORD_FILE
        User = get_user_model()
        if User.objects.filter(username="admin").exists() and path.exists():
            return path.read_text().strip()
        password = secrets.token_urlsafe(12)
        user, _created = User.objects.get_or_create(
            username="admin", defaults={"is_staff": True, "is_superuser": True}
        )
        user.set_password(password)
        user.save()
        path.write_text(password)
        path.chmod(0o600)
        return password



def demo_settings(site: str, mail_dir: Path) -> dict[str, Any]:
    """What the demo runs under: the links of its e-mails point at the served site (unless
    SITE_URL is set), and with the console backend (the default) its e-mails, a hundred on the
    first run, go to files instead of scrolling the log-in summary away."""
    changed: dict[str, Any] = {}
    if not os.environ.get("SITE_URL"):
        changed["SITE_URL"] = site
    if settings.EMAIL_BACKEND == CONSOLE_BACKEND:
        changed.update(EMAIL_BACKEND=FILE_BACKEND, EMAIL_FILE_PATH=str(mail_dir))
    return changed


def mails_in(folder: Path) -> int:
    """How many e-mails the file backend wrote into ``folder`` (a line of dashes ends each)."""
    if not folder.is_dir():
        return 0
    return sum(path.read_text(encoding="utf-8", errors="replace").count(MAIL_END)
               for path in folder.glob("*.log"))


def site_url(host: str, port: str) -> str:
    """The address to open: a server listening on every interface is reached locally."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"
