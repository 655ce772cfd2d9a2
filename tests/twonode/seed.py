"""Seed the two-node cluster's database through the services, as an organiser would: one staff
account with an API token and one event with a published round of ``players`` players.
Prints JSON: the token, the event's slug, the round, its games ``[game, player_a, player_b, A's token, B's token]``.

    python -m tests.twonode.seed 120   (with the cluster's environment)
"""
from __future__ import annotations

import json
import sys

import django


def seed(players: int, seed: int = 1) -> dict:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from armylists.models import Chart
    from events.audit import SYSTEM
    from events.services import rounds, tournaments
    from missions.models import Level

    tournament = tournaments.create_tournament(
        SYSTEM, name=f"Two nodes {seed}", chart=Chart.objects.get(slug="w40k4-standard"),
        points_limit=1500, level=Level.objects.get(slug="alpha"), rounds=3, seed=seed,
        language="en", missions="per_round", on_six="reroll")
    tournaments.transition(SYSTEM, tournament, "registration_open")
    for i in range(players):
        tournaments.register_player(SYSTEM, tournament, name=f"Warlord{i:03d} Xq",
                                    club=f"Club{i:03d}", faction="Orks")
    tournaments.transition(SYSTEM, tournament, "lists_locked")
    round_ = rounds.pair_next_round(SYSTEM, tournament)
    User = get_user_model()
    staff, _ = User.objects.get_or_create(username="to", defaults={"is_staff": True})
    token, _ = Token.objects.get_or_create(user=staff)
    games = list(round_.games.filter(player_b__isnull=False)
                 .select_related("player_a", "player_b").order_by("table"))
    rows = []
    for game in games:  # each player reports or confirms through the API with a token of theirs
        keys = []
        for player in (game.player_a, game.player_b):
            player.user = User.objects.create_user(f"player-{seed}-{player.pk}")
            player.save(update_fields=["user"])
            keys.append(Token.objects.create(user=player.user).key)
        rows.append([game.pk, game.player_a_id, game.player_b_id, *keys])
    return {"token": token.key, "slug": tournament.slug, "round": round_.number, "games": rows}


if __name__ == "__main__":
    django.setup()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    number = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(json.dumps(seed(count, number)))
