"""Demo data, query budgets of the reference endpoints, and dice streams that log every roll."""
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from armylists.models import ArmyList
from league.demo import DEMO_SLUG, PLAYERS
from league.management.commands.demo_data import SAMPLE_LISTS
from league.models import Tournament
from missions import services as mission_services
from missions.models import DiceRoll, DiceStream

pytestmark = pytest.mark.django_db


def test_demo_data_is_idempotent_and_holds_a_legal_and_an_illegal_list(capsys, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    call_command("demo_data")
    first = capsys.readouterr().out
    call_command("demo_data")
    second = capsys.readouterr().out
    lists = ArmyList.objects.filter(owner__username="demo-player", name__in=SAMPLE_LISTS)
    assert sorted(lists.values_list("valid", flat=True)) == [False, True]
    assert lists.count() == 2
    password = (tmp_path / "admin_password").read_text().strip()
    assert password in first and password in second


def test_demo_data_holds_a_running_tournament_with_a_published_round(client, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    call_command("demo_data")
    call_command("demo_data")
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.players.count() == len(PLAYERS)
    assert tournament.players.filter(user__username="demo-player").count() == 1
    round_ = client.get(f"/api/v1/tournaments/{DEMO_SLUG}/rounds/1/").json()
    assert round_["status"] == "published" and round_["mission"] is not None
    paired = sorted(pid for game in round_["games"] for pid in game["players"])
    assert paired == sorted(tournament.players.values_list("pk", flat=True))
    statuses = [game["status"] for game in round_["games"]]
    assert statuses.count("confirmed") == 3 and "pending" in statuses
    flagged = {p["player"] for game in round_["games"] for p in game["list_problems"]}
    assert len(flagged) == 4  # two illegal lists and two missing ones among 12 players


def test_reference_endpoints_use_a_constant_number_of_queries(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        assert client.get("/api/v1/charts/").status_code == 200
    with django_assert_max_num_queries(2):
        assert client.get("/api/v1/stratagems/").status_code == 200
    with django_assert_max_num_queries(2):
        assert client.get("/api/v1/missions/").status_code == 200


def test_validate_endpoint_query_budget(client, django_assert_max_num_queries):
    units = [{"name": f"U{i}", "slot": "troops", "points": 10} for i in range(200)]
    body = {"chart": "w40k4-standard", "points_limit": 1500, "units": units}
    with django_assert_max_num_queries(6):
        response = client.post("/api/v1/lists/validate/", body, content_type="application/json")
    assert response.status_code == 200


def test_dice_stream_logs_every_roll_and_resumes():
    stream = mission_services.stream_for("test:resume", seed=99)
    first = mission_services.roll_with(stream, lambda r: [r.roll("D6", "a").total, r.roll("2D6", "b").total])
    second = mission_services.roll_with(stream, lambda r: r.roll("D6", "c").sequence)
    assert second == 2
    logged = list(DiceRoll.objects.filter(stream=stream).values_list("sequence", "purpose", "total"))
    assert logged == [(0, "a", first[0]), (1, "b", first[1]), (2, "c", logged[2][2])]
    # The same seed replayed from scratch gives the same dice.
    from missions.dice import Roller
    replay = Roller(99)
    assert [replay.roll("D6", "a").total, replay.roll("2D6", "b").total] == first


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_parallel_rolls_never_share_a_number():
    stream = mission_services.stream_for("test:parallel", seed=5)
    errors = []

    def roll_many():
        try:
            for _ in range(10):
                mission_services.roll_with(DiceStream.objects.get(pk=stream.pk), lambda r: r.roll("D6", "p"))
        except Exception as exc:  # surfaced below: a lost race must fail the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=roll_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    sequences = sorted(DiceRoll.objects.filter(stream=stream).values_list("sequence", flat=True))
    assert sequences == list(range(40))
    assert DiceStream.objects.get(pk=stream.pk).next_sequence == 40
