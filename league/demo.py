"""A demo tournament for a fresh site: 12 players, lists, round 1 paired and partly reported."""
from __future__ import annotations

from armylists.models import Chart
from armylists.validation import Entry
from league.audit import SYSTEM
from league.models import Game, Tournament
from league.services import lists, results, rounds, tournaments
from missions.models import Level

DEMO_SLUG = "demo-cup"
DEMO_SEED = 40_000
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


def demo_tournament(player_account=None) -> Tournament:
    """Create the demo event once; later calls return it unchanged."""
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing
    tournament = tournaments.create_tournament(
        SYSTEM, slug=DEMO_SLUG, name="Demo Cup — Cities of Death", seed=DEMO_SEED,
        chart=Chart.objects.get(slug="w40k4-standard"), points_limit=1500,
        level=Level.objects.get(slug="gamma"), rounds=3, on_six="special",
    )
    tournaments.transition(SYSTEM, tournament, Tournament.Status.REGISTRATION_OPEN)
    for index, (name, club, faction) in enumerate(PLAYERS):
        account = player_account if index == 0 else None
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
