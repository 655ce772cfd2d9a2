"""Fill an empty site with demo data: an admin, players, sample lists and a running tournament."""
import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from armylists import services
from armylists.models import ArmyList
from armylists.validation import Entry
from events.demo import DEMO_PASSWORD_FILE, demo_accounts, demo_password, demo_tournament
from events.demo_systems import demo_campaign, demo_system_events

ADMIN_PASSWORD_FILE = "admin_password"

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
        with transaction.atomic():
            password = self._admin()
            accounts = demo_accounts()
            players_password = demo_password(settings.DATA_DIR, accounts)
            self._lists(accounts[0])
            tournament = demo_tournament(accounts)
            others = demo_system_events(accounts)
            campaign = demo_campaign(accounts)
        site = site_url(options["host"], options["port"])
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(f"Admin: {site}{reverse('admin:index')}  user: admin  password: {password}")
        self.stdout.write(f"Demo players: {site}{reverse('login')}  user: {accounts[0].username} "
                          f"(or {accounts[1].username}, ...)  password: {players_password}")
        self.stdout.write(f"Demo tournament: {site}{reverse('tournament', args=[tournament.slug])}")
        for other in others:
            self.stdout.write(f"  {other.name}: {site}{reverse('tournament', args=[other.slug])}")
        self.stdout.write(f"  {campaign.name}: {site}{reverse('campaign', args=[campaign.slug])}")
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

    def _lists(self, player) -> None:
        chart = services.charts_with_rows().get(slug="w40k4-standard")
        for name, entries in SAMPLE_LISTS.items():
            if not ArmyList.objects.filter(owner=player, name=name).exists():
                services.store_list(owner=player, chart=chart, points_limit=1500, entries=entries, name=name)


def site_url(host: str, port: str) -> str:
    """The address to open: a server listening on every interface is reached locally."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"
