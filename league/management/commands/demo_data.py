"""Fill an empty site with demo data: an admin, a player, sample lists and a running tournament."""
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from armylists import services
from armylists.models import ArmyList
from armylists.validation import Entry
from league.demo import demo_tournament

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
    help = "Create demo data once (idempotent) and print how to log in to the admin."

    def handle(self, *args, **options):
        with transaction.atomic():
            password = self._admin()
            player = self._player()
            self._lists(player)
            tournament = demo_tournament(player)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(f"Admin: http://127.0.0.1:8000/admin/  user: admin  password: {password}")
        self.stdout.write(f"Demo tournament: http://127.0.0.1:8000/api/v1/tournaments/{tournament.slug}/rounds/1/")
        self.stdout.write(f"(the password is kept in {settings.DATA_DIR / ADMIN_PASSWORD_FILE})")

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

    def _player(self):
        User = get_user_model()
        player, created = User.objects.get_or_create(username="demo-player", defaults={"email": "demo@example.org"})
        if created:
            player.set_unusable_password()
            player.save()
        return player

    def _lists(self, player) -> None:
        chart = services.charts_with_rows().get(slug="w40k4-standard")
        for name, entries in SAMPLE_LISTS.items():
            if not ArmyList.objects.filter(owner=player, name=name).exists():
                services.store_list(owner=player, chart=chart, points_limit=1500, entries=entries, name=name)
