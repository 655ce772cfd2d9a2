"""A demo tournament for a fresh site: 12 players with accounts, lists, round 1 paired and partly
reported; an event open for registration where `demo-player`'s sample lists are seen; the players
share one demo password, generated once."""
from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.utils.text import slugify

from armylists.models import ArmyList, Chart
from armylists.validation import Entry
from events.audit import SYSTEM
from events.models import Game, Tournament
from events.services import lists, results, rounds, tournaments
from missions.models import Level

DEMO_SLUG = "demo-cup"
OPEN_SLUG = "demo-open"
DEMO_SEED = 40_000
DEMO_PASSWORD_FILE = "demo_password"
PLAYERS = [
    ("Alix", "Les Ruines", "Space Marines"), ("Bastien", "Les Ruines", "Orks"),
    ("Camille", "Cercle de Lyon", "Eldar"), ("Dorian", "Cercle de Lyon", "Imperial Guard"),
    ("Elodie", "Nantes Wargame", "Tyranids"), ("Farid", "Nantes Wargame", "Chaos Space Marines"),
    ("Gaëlle", "", "Necrons"), ("Hugo", "Les Ruines", "Tau"), ("Inès", "", "Dark Eldar"),
    ("Jules", "Cercle de Lyon", "Witch Hunters"), ("Karim", "Nantes Wargame", "Space Marines"),
    ("Léa", "", "Orks"),
]
LEGAL = [Entry("HQ", "hq", 120), Entry("Troops A", "troops", 300, 10),
         Entry("Troops B", "troops", 300, 10), Entry("Elites", "elites", 250, 5),
         Entry("Fast Attack", "fast_attack", 180, 5), Entry("Heavy Support", "heavy_support", 200)]
ILLEGAL = [Entry("HQ", "hq", 120), Entry("Troops", "troops", 400, 20),
           Entry("Heavy Support", "heavy_support", 1200)]


def demo_username(index: int) -> str:
    """The first player is `demo-player` (who also owns the sample lists), then `demo-bastien`..."""
    return "demo-player" if index == 0 else f"demo-{slugify(PLAYERS[index][0])}"


def demo_accounts() -> list[Any]:
    """The demo players' accounts, in PLAYERS order, created when missing."""
    user_model = get_user_model()
    accounts = []
    for index, (name, _club, _faction) in enumerate(PLAYERS):
        account, created = user_model.objects.get_or_create(
            username=demo_username(index),
            defaults={"email": f"{demo_username(index)}@example.org", "first_name": name})
        if created:
            account.set_unusable_password()
            account.save(update_fields=["password"])
        accounts.append(account)
    return accounts


def demo_password(data_dir: Path, accounts: Sequence[Any]) -> str:
    """The demo players' password: generated once into ``data_dir/demo_password`` and given to
    every demo account without one (all of them when the file is new). One hash serves all."""
    path = data_dir / DEMO_PASSWORD_FILE
    fresh = not path.exists()
    password = secrets.token_urlsafe(9) if fresh else path.read_text().strip()
    targets = [a.pk for a in accounts if fresh or not a.has_usable_password()]
    if targets:
        get_user_model().objects.filter(pk__in=targets).update(password=make_password(password))
    if fresh:
        path.write_text(password)
        path.chmod(0o600)
    return password


def link_accounts(tournament: Tournament, accounts: Sequence[Any]) -> None:
    """Give each demo player without an account theirs (demo events made before they had any)."""
    linked = set(tournament.players.exclude(user=None).values_list("user_id", flat=True))
    for (name, _club, _faction), account in zip(PLAYERS, accounts, strict=False):
        if account.pk not in linked:
            tournament.players.filter(name=name, user=None).update(user=account)


def demo_tournament(accounts: Sequence[Any] = ()) -> Tournament:
    """Create the demo event once (player i gets ``accounts[i]`` when given); later calls return
    it unchanged."""
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        link_accounts(existing, accounts)
        return existing
    tournament = tournaments.create_tournament(
        SYSTEM, slug=DEMO_SLUG, name="Demo Cup — Cities of Death", seed=DEMO_SEED,
        chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="gamma"), rounds=3, on_six="special",
    )
    tournaments.transition(SYSTEM, tournament, Tournament.Status.REGISTRATION_OPEN)
    for index, (name, club, faction) in enumerate(PLAYERS):
        account = accounts[index] if index < len(accounts) else None
        player = tournaments.register_player(SYSTEM, tournament, name=name, club=club, faction=faction,
                                             username=account.get_username() if account else None)
        # One player in six sends an illegal list and one never sends any: the TO sees both.
        if index % 6 == 5:
            continue
        entries = ILLEGAL if index % 6 == 4 else LEGAL
        lists.submit_list(SYSTEM, player, role="", entries=entries)
    tournaments.transition(SYSTEM, tournament, Tournament.Status.LISTS_LOCKED)
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    for game in round_.games.filter(status=Game.Status.PENDING).order_by("table")[:3]:
        vp = {game.player_a_id: 1100, game.player_b_id: 650}
        results.report(SYSTEM, game.pk, results.ResultInput(winner=game.player_a_id, victory_points=vp))
    return tournament


def demo_open_event(accounts: Sequence[Any], samples: Mapping[str, Sequence[Entry]]) -> Tournament:
    """An event open for registration (created once) where the first demo player is registered
    and has sent the sample lists as two versions of their list, in reverse order: the last
    one (too many Heavy Support) first, then the first (legal), their current list. Their list
    page shows the legal list and, under Versions, the illegal one with its problems."""
    existing = Tournament.objects.filter(slug=OPEN_SLUG).first()
    if existing is not None:
        return existing
    tournament = tournaments.create_tournament(
        SYSTEM, slug=OPEN_SLUG, name="Demo Open — Cities of Death", seed=DEMO_SEED + 1,
        chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="gamma"), rounds=3, on_six="special",
        status=Tournament.Status.REGISTRATION_OPEN,
    )
    account = accounts[0] if accounts else None
    name, club, faction = PLAYERS[0]
    player = tournaments.register_player(SYSTEM, tournament, name=name, club=club, faction=faction,
                                         username=account.get_username() if account else None)
    for title, entries in reversed(list(samples.items())):
        sent = lists.submit_list(SYSTEM, player, role="", entries=entries)
        # The version keeps the sample's name, as the README and the API's "my lists" show it.
        ArmyList.objects.filter(pk=sent.army_list_id).update(name=title)
    return tournament
