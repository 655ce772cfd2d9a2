"""Robustness and truth: schemathesis drives every operation of /api/schema/ with all its checks
(each answer documented: status, content type and body; input the schema forbids refused; no
5xx), and hostile calls (NUL characters, deep JSON, an oversized upload) give a JSON 4xx.

The WSGI app runs in-process on the test database (one connection, so the seeded rows are
visible to the generated calls). Path parameters are drawn half the time from the seeded
objects, so the calls reach real tournaments, players, rounds and games instead of 404s."""
from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import FailureGroup
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from armylists.models import Chart
from config.wsgi import application
from events.models import Game, Player, Round
from missions.models import Level, Mission, Stratagem
from printing.models import MissionPack
from tests.site.hostile_bodies import MULTIPART, NUL, MadeUpBody, deep, nul_keys, nul_values
from tests.tournament_fixtures import (
    LEGAL_UNITS,
    build_event,
    client_for,
    create_tournament,
    expect,
    make_user,
    pair,
    post,
    register,
    report,
    set_status,
    settle_round,
    submit_list,
)

# In the suite, a few calls an operation and caller; the sweep .ci/run starts makes many more.
SUITE_EXAMPLES = 3
HOSTILE_EXAMPLES = 1  # each example sends five hostile variants
CALLERS = ["anonymous", "member", "staff"]
# positive_data_acceptance (valid data must not get a 400) is wrong by design here: a body can
# match the schema and still name a chart that does not exist, break a rule between two
# fields or a game's rule; those 400s are the API's answers (api-v1), not a schema gap.
NOT_CHECKED = [positive_data_acceptance]
# The failing request is reported as is: shrinking it costs minutes of requests.
NO_SHRINK = (Phase.explicit, Phase.generate)
DICE = ["D6", "2D6", "D3+3", "2D6x3", "3D6"]
# Sign-up and log-in are fuzzed like the rest: the limits stay on, only high enough not to
# turn every later call into a 429.
RATE_LIMITS = "signup=100000/hour,login=100000/minute"

# One worker runs the module (make test: --dist loadgroup), so the world is seeded once.
pytestmark = pytest.mark.xdist_group("api_robustness")


@dataclass
class World:
    """The seeded objects the generated calls aim at, and each caller's headers."""

    slugs: list[str]
    players: dict[str, list[int]]  # tournament slug -> its player ids
    rounds: dict[str, list[int]]  # tournament slug -> its round numbers
    game_ids: list[int]
    pack_ids: list[int]
    reference: dict[str, list[str]]  # body field -> the slugs of the reference data it names
    headers: dict[str, dict[str, str]]
    # (operation label, examples) -> the aimed cases drawn for it, shared by the three callers
    cases: dict[tuple[str, int], list[Any]] = field(default_factory=dict)


def _token(user: Any) -> dict[str, str]:
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def _seed_world() -> World:
    """A tournament in each status, the normal user a player in most of them, a running round."""
    organiser = make_user("robust-organiser", staff=True)
    member = make_user("robust-member")
    staff = client_for(organiser)
    mine = client_for(member)

    draft = create_tournament(staff, name="Robust draft", status="draft")["slug"]
    open_ = create_tournament(staff, name="Robust open")["slug"]
    set_status(staff, open_, "registration_open")
    register(mine, open_, "Member in open")

    locked = build_event(organiser, 3, prefix="l", name="Robust locked", lock=False)
    register_before_lock(staff, mine, locked.slug)

    running = build_event(organiser, 3, prefix="r", name="Robust running", lock=False)
    register_before_lock(staff, mine, running.slug)
    round_body = expect(pair(staff, running.slug), 201)
    own_game = next(g for g in round_body["games"] if len(g["players"]) == 2)
    expect(report(staff, own_game["id"], own_game["players"][0]), 200)
    expect(post(staff, f"/tournaments/{running.slug}/rounds/1/mission-pack/"), 202)

    finished = build_event(organiser, 2, prefix="f", name="Robust finished", rounds=1)
    settle_round(finished, expect(pair(staff, finished.slug), 201))
    set_status(staff, finished.slug, "finished")

    slugs = [draft, open_, locked.slug, running.slug, finished.slug]
    return World(
        slugs=slugs,
        players={slug: list(Player.objects.filter(tournament__slug=slug).values_list("pk", flat=True))
                 for slug in slugs},
        rounds={slug: list(Round.objects.filter(tournament__slug=slug).values_list("number", flat=True))
                for slug in slugs},
        game_ids=list(Game.objects.values_list("pk", flat=True)),
        pack_ids=list(MissionPack.objects.values_list("pk", flat=True)),
        reference={
            "chart": list(Chart.objects.values_list("slug", flat=True)),
            "level": list(Level.objects.values_list("slug", flat=True)),
            "mission": list(Mission.objects.values_list("slug", flat=True)),
            "stratagem": list(Stratagem.objects.values_list("slug", flat=True)),
        },
        headers={"staff": _token(organiser), "member": _token(member)},
    )


def register_before_lock(staff, member_client, slug: str) -> None:
    """The member joins an event still open, sends a legal list, then staff locks the lists."""
    player = register(member_client, slug, "Member")
    expect(submit_list(member_client, slug, player["id"], LEGAL_UNITS), 200)
    set_status(staff, slug, "lists_locked")


@pytest.fixture(autouse=True)
def _keep_test_connection(world):
    """As Django's test client does: a request must not close the connection that holds the
    test's transaction (on PostgreSQL that would end it and fail every later request). After
    ``world``, because the test client used to seed it reconnects the handler when it is done."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[World]:
    """Seeded once for the module, in a transaction rolled back at its end; each test's own
    transaction (``django_db``) is a savepoint inside it, so a test's writes do not last."""
    limits = override_settings(MUSTER_RATE_LIMITS=RATE_LIMITS,
                               MEDIA_ROOT=tmp_path_factory.mktemp("robust-media"))
    with django_db_blocker.unblock(), limits:
        seeding = transaction.atomic()
        seeding.__enter__()
        try:
            yield _seed_world()
        finally:
            transaction.set_rollback(True)
            seeding.__exit__(None, None, None)


@cache
def load_schema() -> Any:
    """Read once per process: generating /api/schema/ costs seconds, and no test changes it."""
    config = SchemathesisConfig()  # not whatever schemathesis.toml the working directory has
    return schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)


def _real_or_generated(data: st.DataObject, generated: Any, real: list[Any]) -> Any:
    """Half the draws a seeded object, the other half schemathesis' own value (mostly a 404)."""
    if not real:
        return generated
    return data.draw(st.one_of(st.just(generated), st.sampled_from(real)))


def _aim_path(case: Any, data: st.DataObject, world: World) -> None:
    """Half the calls name seeded objects that belong together (a player of that event)."""
    params = case.path_parameters or {}
    if not params or not data.draw(st.booleans()):
        return  # schemathesis' own values: unknown objects, odd characters
    if "/tournaments/" in case.path:
        slug = params["slug"] = data.draw(st.sampled_from(world.slugs))
        if "number" in params:
            params["number"] = data.draw(st.sampled_from([*world.rounds[slug], 2]))
        if "id" in params and world.players[slug]:
            params["id"] = data.draw(st.sampled_from(world.players[slug]))
    elif "/missions/" in case.path:
        params["slug"] = data.draw(st.sampled_from(world.reference["mission"]))
    elif "id" in params:
        real = world.game_ids if case.path.startswith("/api/v1/games/") else world.pack_ids
        params["id"] = data.draw(st.sampled_from(real))


def _aim_body(case: Any, data: st.DataObject, world: World) -> None:
    """Reference data by real slugs and a single list source, so bodies get past the basics."""
    body = case.body
    if not isinstance(body, dict):
        return
    for field_name in ("chart", "level", "mission"):
        if field_name in body:
            body[field_name] = _real_or_generated(data, body[field_name],
                                                  world.reference[field_name])
    if isinstance(body.get("stratagems"), list):
        real = st.lists(st.sampled_from(world.reference["stratagem"]), max_size=4)
        body["stratagems"] = data.draw(st.one_of(st.just(body["stratagems"]), real))
    if "expression" in body:
        body["expression"] = _real_or_generated(data, body["expression"], DICE)
    sources = [key for key in ("units", "roster", "roster_file") if key in body]
    if len(sources) > 1 and data.draw(st.booleans()):
        keep = data.draw(st.sampled_from(sources))
        for key in sources:
            if key != keep:
                del body[key]


def _is_json(response: Any) -> bool:
    content_type = response.headers.get("content-type") or [""]  # header name -> list of values
    return content_type[0].split(";")[0].strip() == "application/json"


def _cases(operation: Any) -> st.SearchStrategy:
    """Valid and invalid requests alike: bad input must give a documented 4xx, never a 5xx."""
    return st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                     operation.as_strategy(GenerationMode.NEGATIVE))


def _aim(case: Any, data: st.DataObject, world: World) -> None:
    """Seeded objects where the case is valid; a part generated invalid is left as generated
    (aiming it would make it valid, and negative_data_rejection would then blame the server)."""
    if not case.meta.is_negative_at(ParameterLocation.PATH):
        _aim_path(case, data, world)
    if not case.meta.is_negative_at(ParameterLocation.BODY):
        _aim_body(case, data, world)


def drawn_cases(operation: Any, world: World, examples: int) -> list[Any]:
    """The aimed cases of ``operation``, drawn once per world and shared by every caller.

    Drawing costs about twice the calls. The draws never depended on the caller: the strategies
    take no feedback from the answers, and ``derandomize`` seeds every run alike, so each caller
    used to get these very cases, drawn again."""
    key = (operation.label, examples)
    if key not in world.cases:
        drawn: list[Any] = []

        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), phases=NO_SHRINK)
        @given(case=_cases(operation), data=st.data())
        def draw(case: Any, data: st.DataObject) -> None:
            _aim(case, data, world)
            drawn.append(case)

        draw()
        world.cases[key] = drawn
    return world.cases[key]


def _fresh(case: Any) -> Any:
    """A copy to send: a call freezes and revalidates the case's metadata, and the next caller
    needs it as drawn. The operation (and its schema) is shared, never copied."""
    memo = {id(case.operation): case.operation}
    fresh = object.__new__(type(case))
    for name in type(case).__slots__:  # Case's __setattr__ needs its metadata set first
        object.__setattr__(fresh, name, copy.deepcopy(getattr(case, name), memo))
    return fresh


def check_operation(operation: Any, world: World, caller: str, examples: int) -> None:
    """``examples`` generated calls of ``operation`` as ``caller``, each through every
    schemathesis check (CHECKED): the answer is documented (status, content type, body), bad
    input is refused, and no answer is a 5xx. Stops at the first failing call, as Hypothesis
    did before the draws were shared."""
    headers = world.headers.get(caller, {})
    for case in drawn_cases(operation, world, examples):
        try:
            _fresh(case).call_and_validate(headers=headers, excluded_checks=NOT_CHECKED)
        except FailureGroup as exc:  # one line per failure: the operation, caller and check
            raise AssertionError(f"as {caller}: {exc}") from None


def check_schema(world: World, caller: str, examples: int) -> list[str]:
    """Every operation of the schema as ``caller``; the failures, one entry per operation."""
    operations = [result.ok() for result in load_schema().get_all_operations()]
    assert len(operations) > 30  # the schema really was read
    failures = []
    for operation in operations:
        try:
            check_operation(operation, world, caller, examples)
        except AssertionError as exc:  # report every failing operation, not just the first
            failures.append(f"{operation.label}: {exc}")
    return failures


@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
def test_schema_tells_the_truth(world, caller):
    """Every operation, as anonymous, player and organiser, through every check: a few calls
    each here (the suite stays fast); .ci/run sweeps with many more (test_schema_sweep.py)."""
    failures = check_schema(world, caller, SUITE_EXAMPLES)
    assert not failures, "\n".join(failures)


def _nul_path(case: Any) -> None:
    """A NUL in every string path and query parameter (the path gets it as %00)."""
    case.path_parameters = {key: f"{value}{NUL}" if isinstance(value, str) else value
                            for key, value in (case.path_parameters or {}).items()}
    case.query = {key: f"{value}{NUL}" for key, value in (case.query or {}).items()} or None


def _hostile_calls(case: Any, headers: dict[str, str]) -> list[tuple[str, Any]]:
    """Each hostile variant of a generated call, sent: (what it was, the response)."""
    sent = []
    if isinstance(case.body, dict | list):
        body = case.body
        for what, mangle in (("NUL in every string", nul_values), ("NUL in every key", nul_keys)):
            case.body = mangle(body)
            sent.append((what, case.call(headers=headers)))
        case.body = body
    json_headers = {**headers, "Content-Type": "application/json"}
    sent.append(("JSON 1,000 deep", case.call(headers=json_headers, data=deep(1000).encode())))
    upload = MadeUpBody()
    big = case.call(headers={**headers, "Content-Type": MULTIPART}, data=b"",
                    input_stream=upload, content_length=upload.size)
    refused = big.status_code == 400 and _is_json(big) and big.json().get("code") == "request_too_large"
    assert refused, (case.method, case.path, big.status_code, big.text[:300])
    assert upload.read_bytes == 0, "an oversized body was read"
    sent.append(("20 MiB upload", big))
    _nul_path(case)
    sent.append(("NUL in the path and query", case.call(headers=headers)))
    return sent


def _fuzz_hostile(operation: Any, world: World, caller: str, examples: int) -> None:
    headers = world.headers.get(caller, {})

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck), phases=NO_SHRINK)
    @given(case=operation.as_strategy(GenerationMode.POSITIVE), data=st.data())
    def run(case: Any, data: st.DataObject) -> None:
        _aim_path(case, data, world)
        _aim_body(case, data, world)
        for what, response in _hostile_calls(case, headers):
            label = f"{case.method} {case.path} as {caller}, {what}"
            assert response.status_code < 500, (label, response.status_code, response.text[:800])
            assert _is_json(response), (label, response.status_code, response.headers)

    run()


def hostile_failures(world: World, caller: str, examples: int) -> list[str]:
    operations = [result.ok() for result in load_schema().get_all_operations()]
    assert len(operations) > 30
    failures = []
    for operation in operations:
        try:
            _fuzz_hostile(operation, world, caller, examples)
        except AssertionError as exc:
            failures.append(f"{operation.label}: {exc}")
    return failures


@pytest.mark.django_db
@pytest.mark.parametrize("caller", CALLERS)
def test_hostile_bodies_never_give_a_server_error(world, caller):
    """Every operation, as anyone: NUL characters in every string field, key, path and query
    parameter, JSON nested 1,000 deep, and a 20 MiB upload (refused unread) give a JSON 4xx."""
    failures = hostile_failures(world, caller, HOSTILE_EXAMPLES)
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
def test_seeded_world_is_visible_through_wsgi(world):
    """The calls schemathesis makes see the seeded rows and honour each caller's token."""
    listing = load_schema()["/api/v1/tournaments/"]["GET"]
    as_staff = listing.Case().call(headers=world.headers["staff"]).json()
    as_member = listing.Case().call(headers=world.headers["member"]).json()
    assert {t["slug"] for t in as_staff} == set(world.slugs)
    assert {t["slug"] for t in as_member} == set(world.slugs[1:])  # the draft is staff-only
    assert world.game_ids and world.pack_ids and all(world.reference.values())
    assert world.rounds[world.slugs[3]] == [1] and len(world.players[world.slugs[3]]) == 4
