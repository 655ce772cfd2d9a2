"""Demo data, query budgets of the reference endpoints, and dice streams that log every roll."""
import re
import threading
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import connection

from armylists.models import ArmyList
from events.demo import DEMO_SLUG, PLAYERS
from events.management.commands.demo_data import SAMPLE_LISTS
from events.models import Tournament
from missions import services as mission_services
from missions.models import DiceRoll, DiceStream
from tests.site.demo_world import FirstRun, first_demo_run, own_copy

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="class")
def demo(tmp_path_factory, django_db_setup, django_db_blocker) -> Iterator[FirstRun]:
    """The first `demo_data` run, shared by the class: each test runs it again (idempotence) or
    reads what it made."""
    yield from first_demo_run(tmp_path_factory.mktemp("demo-first-run"), django_db_blocker)


# One worker runs the class (make test: --dist loadgroup), so the first run is made once.
@pytest.mark.xdist_group("demo_data")
class TestDemoData:
    def test_demo_data_is_idempotent_and_holds_a_legal_and_an_illegal_list(
            self, demo, capsys, settings, tmp_path):
        settings.DATA_DIR = own_copy(demo, tmp_path)
        call_command("demo_data")
        second = capsys.readouterr().out
        lists = ArmyList.objects.filter(owner__username="demo-player", name__in=SAMPLE_LISTS)
        assert sorted(lists.values_list("valid", flat=True)) == [False, True]
        assert lists.count() == 2
        password = (settings.DATA_DIR / "admin_password").read_text().strip()
        assert password in demo.out and password in second

    def test_demo_data_holds_a_running_tournament_with_a_published_round(
            self, demo, client, settings, tmp_path):
        settings.DATA_DIR = own_copy(demo, tmp_path)
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

    def test_demo_data_holds_an_event_of_every_system_and_a_campaign(
            self, demo, client, settings, tmp_path):
        settings.DATA_DIR = own_copy(demo, tmp_path)
        call_command("demo_data")
        systems = {slug: Tournament.objects.get(slug=slug)
                   for slug in ("demo-dynamics", "demo-nuln", "demo-urban")}
        assert [t.game_system.slug for t in systems.values()] == ["w40k4", "whfb", "urban-war"]
        assert systems["demo-dynamics"].turn_system == "dynamics"
        for slug, tournament in systems.items():
            assert tournament.status == Tournament.Status.RUNNING
            lists = [pl.army_list for p in tournament.players.all() for pl in p.lists.all()]
            assert lists and all(army_list.valid for army_list in lists), slug
            round_ = client.get(f"/api/v1/tournaments/{slug}/rounds/1/").json()
            assert [g["status"] for g in round_["games"]].count("confirmed") == 2
        campaign = client.get("/api/v1/campaigns/demo-laitus-prime/").json()
        assert campaign["status"] == "running" and set(campaign["sides"]) == {"west", "east"}

    def test_demo_data_prints_links_to_the_served_site(
            self, demo, capsys, settings, tmp_path, monkeypatch):
        settings.DATA_DIR = own_copy(demo, tmp_path)
        monkeypatch.setenv("PORT", "9123")
        call_command("demo_data")
        out = capsys.readouterr().out
        assert "http://127.0.0.1:9123/admin/" in out and ":8000" not in out
        assert f"Demo tournament: http://127.0.0.1:9123/tournaments/{DEMO_SLUG}/" in out
        assert "http://127.0.0.1:9123/login/" in out
        call_command("demo_data", host="0.0.0.0", port="8100")
        assert f"http://127.0.0.1:8100/tournaments/{DEMO_SLUG}/" in capsys.readouterr().out

    def test_demo_tournament_link_opens_the_event_page(self, demo, client):
        link = re.search(r"Demo tournament: http://[^/]+(/\S*)", demo.out)[1]
        page = client.get(link)
        assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
        assert "Demo Cup" in page.content.decode()

    def test_demo_players_log_in_with_the_printed_password(
            self, demo, client, capsys, settings, tmp_path):
        written = demo.data_dir / "demo_password"  # as the first run left it
        password = written.read_text().strip()
        assert len(password) >= 12 and written.stat().st_mode & 0o077 == 0
        assert f"password: {password}" in demo.out and str(written) in demo.out
        settings.DATA_DIR = own_copy(demo, tmp_path)
        path = settings.DATA_DIR / "demo_password"
        call_command("demo_data")
        assert path.read_text().strip() == password  # generated once
        assert f"password: {password}" in capsys.readouterr().out
        tournament = Tournament.objects.get(slug=DEMO_SLUG)
        usernames = list(tournament.players.order_by("pk").values_list("user__username", flat=True))
        assert usernames[:2] == ["demo-player", "demo-bastien"] and None not in usernames
        response = client.post("/login/", {"username": "demo-bastien", "password": password})
        assert response.status_code == 302
        assert client.get("/profile/").status_code == 200
        assert client.post("/login/", {"username": "demo-player",
                                       "password": password}).status_code == 302
        token = client.post("/api/v1/auth/token/",
                            {"username": "demo-gaelle", "password": password},
                            content_type="application/json")
        assert token.status_code == 200

    def test_an_older_demo_event_gets_its_player_accounts(
            self, demo, client, capsys, settings, tmp_path):
        settings.DATA_DIR = own_copy(demo, tmp_path)
        tournament = Tournament.objects.get(slug=DEMO_SLUG)
        tournament.players.exclude(user__username="demo-player").update(user=None)
        call_command("demo_data")
        password = (settings.DATA_DIR / "demo_password").read_text().strip()
        assert not tournament.players.filter(user=None).exists()
        assert client.post("/login/", {"username": "demo-karim",
                                       "password": password}).status_code == 302
        assert "Demo Cup" in client.get("/profile/").content.decode()

    def test_a_lost_demo_password_file_gives_a_new_password(
            self, demo, client, capsys, settings, tmp_path):
        settings.DATA_DIR = own_copy(demo, tmp_path)
        old = (settings.DATA_DIR / "demo_password").read_text().strip()
        (settings.DATA_DIR / "demo_password").unlink()
        call_command("demo_data")
        new = (settings.DATA_DIR / "demo_password").read_text().strip()
        assert new != old and new in capsys.readouterr().out
        assert client.post("/login/", {"username": "demo-lea", "password": new}).status_code == 302


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
