"""Rosters written by other people (issue #11 §7), read through the importer the API uses.

The files live in ``../shared/real-rosters/`` next to the repository (provenance and licences in
its SOURCES.md) and are read from there at run time, never copied into the project. Without
that folder every test here is skipped.

``EXPECTED`` was built by reading each file by hand (``head``, ``unzip -p``, ``grep``), not by
running the importer: for every force, its top-level selections, their primary category (or,
for BattleScribe 2.01, the force category their ``categoryLink`` targets), their own and their
children's ``pts`` costs, and the roster's ``costs`` element; for text exports, the unit lines
and the ``Total`` / header line. ``units`` counts the selections that are not free
configuration picks (see ``CONFIG_PICKS``); ``points`` is what the file itself states as its
total (``None`` when it states none); ``slots`` counts the units per 4th-edition slot, for
files whose forces use HQ/Troops/Elites/Fast Attack/Heavy Support categories.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from armylists import services
from armylists.models import Chart, GameSystem
from armylists.roster import ParsedRoster, RosterUnreadable

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "real-rosters"

if not CORPUS.is_dir():
    pytest.skip(f"no real-roster corpus at {CORPUS} (it sits next to the repository)",
                allow_module_level=True)

pytestmark = pytest.mark.django_db

# The format a client states for a file, from its extension (as the player page and API do).
STATED = {".ros": "ros", ".rosz": "rosz", ".json": "newrecruit_json", ".txt": "battlescribe_text"}

# Free configuration picks found in these files (0 points, configuration-like category or a
# free upgrade outside the force-organisation slots): none of them may come back as a unit.
CONFIG_PICKS = frozenset({
    "List Configuration", "Battle Size", "Detachment Command Cost", "Detachment CP",
    "Battle-forged CP", "**Chapter Selection**", "**Chapter Selector**", "Dynasty Choice",
    "Household Choice", "Regimental Doctrine", "Cults of the Legion", "Gametype", "Game Type",
    "Detachment Choice", "Detachment", "Show Legends", "Show/Hide Options",
    "Show Unaligned Forces", "Show Unaligned Fortifications", "Khorne Daemons are visible",
    "Hive Fleet", "Plague Company", "Brotherhood", "Relics of the Chapter", "Gifts of Decay",
    "Allegiance", "Manifestation Lore", "Spell Lore", "Expanded Army List Profiles:",
    "I: Dark Angels", "Rite of War", "Determine Alliance Level", "Determine Breakpoint & 25%",
    "Our Enemy is Ready, His full Strength gathered",
})

GAME = "other_game_system"
EDITION = "other_edition"


@dataclass(frozen=True)
class Expected:
    format: str
    units: int
    points: float | None
    other: str = GAME
    slots: dict[str, int] = field(default_factory=dict)
    # Whole points the reader gives when the stated total is fractional (see selections).
    read_points: int | None = None


def slots(hq=0, troops=0, elites=0, fast_attack=0, heavy_support=0) -> dict[str, int]:
    counts = {"hq": hq, "troops": troops, "elites": elites,
              "fast_attack": fast_attack, "heavy_support": heavy_support}
    return {slot: count for slot, count in counts.items() if count}


EXPECTED: dict[str, Expected] = {
    # Kill Team (2018): models as units, categories Leader/Specialist/Non-specialist.
    "da-adeptus-custodes.ros": Expected("ros", 4, 132),
    "da-ghd-astartes.ros": Expected("ros", 11, 174),
    "da-necrons-roster.ros": Expected("ros", 20, 274),
    # Text: the official app (no "+ Category +" headings) and two BattleScribe 10th exports.
    "jc-10th-gwapp-guard.txt": Expected("battlescribe_text", 17, 1995, EDITION),
    "jc-10th-sororitas.txt": Expected("battlescribe_text", 20, 1995, EDITION),
    "jc-10th-world-eaters.txt": Expected("battlescribe_text", 10, 1990, EDITION),
    # 40k 10th edition: keyword categories (Character, Battleline...), no 4th-edition slots.
    "jw-10th-daemons-2000.rosz": Expected("rosz", 9, 1975),
    "jw-10th-tau-1000.rosz": Expected("rosz", 13, 995),
    "jw-10th-tyranids-1600.rosz": Expected("rosz", 9, 1600),
    "ps-10th-necrons.rosz": Expected("rosz", 4, 1205),
    "ps-10th-ultramarines.rosz": Expected("rosz", 10, 810),
    "tl-10th-we-terminators.newrecruit.json": Expected("newrecruit_json", 3, 725),
    # 40k 9th edition: force-organisation categories.
    "kr-9th-gk-pallies.rosz": Expected("rosz", 7, 997, slots=slots(1, 2, 2, 0, 2)),
    "kr-9th-wendigo.ros": Expected("ros", 13, 2000, slots=slots(2, 4, 2, 3, 2)),
    "kr-9th-wendigos.xml2json.json": Expected("newrecruit_json", 8, 1364, slots=slots(1, 2, 2, 2, 1)),
    "mp-dc-bloodangels.rosz": Expected("rosz", 12, 2000, slots=slots(3, 3, 5, 0, 1)),
    "mp-josh-irl-game.rosz": Expected("rosz", 10, 1625, slots=slots(2, 2, 2, 1, 0)),
    "p1-spacemarines.ros": Expected("ros", 4, 330, slots=slots(2, 2)),
    "ps-9th-darkangels.rosz": Expected("rosz", 4, 540, slots=slots(2, 2)),
    "ps-9th-salamanders.ros": Expected("ros", 5, 625, slots=slots(1, 2, 1, 0, 1)),
    "ps-9th-tsons-cabal.rosz": Expected("rosz", 2, 265, slots=slots(1, 1)),
    "pw-plague-marines-9th.rosz": Expected("rosz", 1, 120, slots=slots(troops=1)),
    "wc-chap.ros": Expected("ros", 2, 245, slots=slots(1, 1)),
    # 40k 8th edition; pw-test.ros is BattleScribe 2.01 (categoryLinks, no category names).
    "ps-8th-dg-tsons.rosz": Expected("rosz", 18, 2044, slots=slots(3, 6, 4, 3, 1)),
    "ps-8th-guard.ros": Expected("ros", 18, 1625, slots=slots(3, 6, 3, 3, 3)),
    "ps-8th-knights.ros": Expected("ros", 5, 1904),
    "ps-8th-necron.ros": Expected("ros", 7, 785, slots=slots(2, 3, 1)),
    # An uncompressed .ros saved as .rosz: read as .ros even when "rosz" is stated.
    "ps-8th-notzipped.rosz": Expected("ros", 9, 1315, slots=slots(2, 3, 2)),
    "ps-8th-roster.ros": Expected("ros", 18, 1998, slots=slots(3, 4, 3, 2, 3)),
    "ps-8th-tau.rosz": Expected("rosz", 22, 2029, slots=slots(3, 6, 7, 3, 3)),
    "pw-tactical-squad.rosz": Expected("rosz", 1, 120, slots=slots(troops=1)),
    "pw-test.ros": Expected("ros", 18, 1138, slots=slots(3, 6, 3, 3, 3)),
    # Other games.
    "ps-aos4-belakor.rosz": Expected("rosz", 7, 1680),
    "pw-skaven.rosz": Expected("rosz", 9, 1970),
    "ps-apoc.rosz": Expected("rosz", 12, None, slots=slots(3, 3, 3, 0, 3)),  # power level only
    "ps-hh2-darkangels.rosz": Expected("rosz", 16, 2795, slots=slots(2, 5, 4, 1, 3)),
    "ps-kt21-orks.rosz": Expected("rosz", 8, None),  # no costs at all
    "ps-mesbg-mordor.rosz": Expected("rosz", 4, 749),
    "tow-woodelves.newrecruit.json": Expected("newrecruit_json", 10, 2200),
    # BattleScribe spec samples: a 0.5-point unit (rounded half up to 1 point) and a mixed roster.
    "wh-fractional-cost.battlescribe.ros": Expected("ros", 1, 0.5, read_points=1),
    "wh-kitchen-sink.battlescribe.ros": Expected("ros", 4, 320, slots=slots(1, 2, 1)),
}

READER_SLOT_WARNINGS = frozenset({"unknown_category", "no_category", "no_slot_category"})


@pytest.fixture
def game_system():
    return GameSystem.objects.get(slug="w40k4")


def read(name: str, fmt: str, game_system) -> ParsedRoster:
    return services.read_roster((CORPUS / name).read_bytes(), fmt, game_system)


def stated_format(name: str) -> str:
    return STATED[Path(name).suffix]


def test_every_file_of_the_corpus_has_expectations():
    files = {path.name for path in CORPUS.iterdir() if path.name != "SOURCES.md"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_file_is_read_as_the_file_says(name, game_system):
    expected = EXPECTED[name]
    try:
        roster = read(name, "auto", game_system)
    except RosterUnreadable as exc:  # pragma: no cover - the message says which file and why
        pytest.fail(f"{name} refused: {exc}")
    assert roster.format == expected.format
    assert len(roster.entries) == expected.units
    names = {entry.name for entry in roster.entries}
    assert not names & CONFIG_PICKS, names & CONFIG_PICKS
    total = sum(entry.points for entry in roster.entries)
    assert total == (expected.read_points if expected.read_points is not None else expected.points or 0)
    assert "total_mismatch" not in [warning.code for warning in roster.warnings]
    found = Counter(entry.slot for entry in roster.entries if entry.slot)
    assert dict(found) == expected.slots


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_stated_format_gives_the_same_result(name, game_system):
    assert read(name, stated_format(name), game_system) == read(name, "auto", game_system)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_other_games_and_editions_are_read_with_one_warning(name, game_system):
    codes = [warning.code for warning in read(name, "auto", game_system).warnings]
    expected, other = EXPECTED[name].other, ({GAME, EDITION} - {EXPECTED[name].other}).pop()
    assert codes.count(expected) == 1
    assert other not in codes


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_problem_is_warned_about_once(name, game_system):
    roster = read(name, "auto", game_system)
    chart = Chart.objects.prefetch_related("rows__slot").get(slug="w40k4-standard")
    report = services.validate_entries(chart, 3000, list(roster.entries))
    warnings = services.report_data(report, roster.warnings)["warnings"]
    keys = [(w["code"], w["slot"], repr(sorted(w["params"].items()))) for w in warnings]
    assert len(keys) == len(set(keys))
    # Every unit without a slot is warned about, by the reader or else by the validator, not both
    # (a name may still get two reader warnings when its copies sit in two different categories).
    by_reader = {w["params"]["name"] for w in warnings if w["code"] in READER_SLOT_WARNINGS}
    by_validator = {w["params"]["name"] for w in warnings if w["code"] == "entry_without_slot"}
    assert by_reader | by_validator == {entry.name for entry in roster.entries if entry.slot is None}
    assert not by_reader & by_validator


def test_categorylinks_of_battlescribe_201_give_the_slots(game_system):
    roster = read("pw-test.ros", "auto", game_system)
    by_name = {entry.name: entry.slot for entry in roster.entries}
    assert by_name == {
        "Neurothrope": "hq", "Malanthropes": "hq", "Lictor": "elites", "Zoanthropes": "elites",
        "Mucolid Spores": "fast_attack", "Biovores": "heavy_support", "Termagants": "troops",
    }
    assert [warning.code for warning in roster.warnings] == [GAME]


def test_dedicated_transports_and_extra_units_keep_their_points_without_a_slot(game_system):
    roster = read("ps-8th-roster.ros", "auto", game_system)
    unslotted = [(e.name, e.points) for e in roster.entries if e.slot is None]
    assert unslotted == [("Impulsor", 90), ("Drop Pod", 65), ("Cenobyte Servitors", 6)]


def test_official_app_export_models_and_markers(game_system):
    roster = read("jc-10th-gwapp-guard.txt", "auto", game_system)
    models = {entry.name: entry.models for entry in roster.entries}
    assert models["Platoon Command Squad"] == 5  # 1 commander + 4 veterans
    assert models["Catachan Jungle Fighters"] == 20
    assert models["Infantry Squad"] == 9
    assert models["Lord Solar Leontus"] == 1
    edition = next(w for w in roster.warnings if w.code == EDITION)
    assert "Strike Force (2000 Points)" in edition.params["markers"]


def test_fractional_cost_is_rounded_half_up(game_system):
    roster = read("wh-fractional-cost.battlescribe.ros", "auto", game_system)
    assert [(e.name, e.points) for e in roster.entries] == [("Half Unit", 1)]


@pytest.mark.parametrize(("name", "reason"), [
    ("jw-10th-tau-1000.rosz", "bad_zip"),  # a download cut short
    ("kr-9th-wendigo.ros", "bad_xml"),
    ("tow-woodelves.newrecruit.json", "bad_json"),
])
def test_a_truncated_file_is_refused_with_a_reason(name, reason, game_system):
    data = (CORPUS / name).read_bytes()
    with pytest.raises(RosterUnreadable) as caught:
        services.read_roster(data[: len(data) // 2], stated_format(name), game_system)
    assert (caught.value.code, caught.value.reason) == ("roster_unreadable", reason)
