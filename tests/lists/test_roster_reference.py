"""The reference data file, category-name normalisation, and upload detection (base64 rule)."""
from __future__ import annotations

import base64
import unicodedata

import pytest

from armylists.roster.categories import CategoryResolver, normalise, singular
from armylists.roster.payload import detect_format, unwrap_base64
from armylists.roster.reference import (
    load_aliases,
    load_charts,
    load_game_system_aliases,
    load_ignored_categories,
    load_reference,
    load_slot_codes,
)
from armylists.validation import KNOWN_SLOTS

from .digest_charts import ATTACKER, DEFENDER, STANDARD
from .rosters import fixture_bytes, make_zip, reason_of


def test_charts_in_the_data_file_match_the_rules_digest():
    charts = load_charts()
    assert set(charts) == {"w40k4-standard", "strike-and-withdraw-attacker", "strike-and-withdraw-defender"}
    for expected in (STANDARD, ATTACKER, DEFENDER):
        assert charts[expected.slug].slots == expected.slots
        assert (charts[expected.slug].points_min, charts[expected.slug].points_max) == (None, None)


def test_data_file_shape():
    data = load_reference()
    system = data["game_system"]
    assert system["slug"] == "w40k4"
    assert {"name_en", "name_fr", "aliases"} <= set(system)
    assert load_slot_codes() == KNOWN_SLOTS
    assert [(s["code"], s["name_en"], s["name_fr"]) for s in data["slots"]] == [
        ("hq", "HQ", "QG"),
        ("troops", "Troops", "Troupes"),
        ("elites", "Elites", "Élite"),
        ("fast_attack", "Fast Attack", "Attaque Rapide"),
        ("heavy_support", "Heavy Support", "Soutien"),
    ]
    for chart in data["charts"]:
        assert {"slug", "name_en", "name_fr", "points_min", "points_max", "slots"} <= set(chart)
        for row in chart["slots"]:
            assert row["slot"] in KNOWN_SLOTS
            assert isinstance(row["compulsory"], int) and row["compulsory"] >= 0
            assert row["optional"] is None or (isinstance(row["optional"], int) and row["optional"] >= 0)
    assert {group["kind"] for group in data["ignored_categories"]} == {"configuration", "no_slot"}


def _accent_free(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def test_aliases_are_lowercase_and_listed_with_and_without_accents():
    data = load_reference()
    groups = [slot["aliases"] for slot in data["slots"]]
    groups += [group["aliases"] for group in data["ignored_categories"]]
    groups.append(data["game_system"]["aliases"])
    for aliases in groups:
        for alias in aliases:
            assert alias == alias.lower(), alias
            assert _accent_free(alias) in aliases, alias


def test_no_alias_is_ambiguous():
    slot_keys: dict[str, str] = {}
    for alias, code in load_aliases().items():
        key = normalise(alias)
        assert slot_keys.setdefault(key, code) == code, alias
    for name in load_ignored_categories():
        assert normalise(name) not in slot_keys, name


@pytest.mark.parametrize(
    ("category", "slot"),
    [
        ("HQ", "hq"), ("QG", "hq"), ("Headquarters", "hq"), ("Quartier Général", "hq"),
        ("Troops", "troops"), ("Troupes", "troops"), ("TROUPE", "troops"),
        ("Elites", "elites"), ("Elite", "elites"), ("Élites", "elites"), ("élite", "elites"),
        ("Fast Attack", "fast_attack"), ("Attaque Rapide", "fast_attack"), ("Attaques rapides", "fast_attack"),
        ("fast-attack", "fast_attack"),
        ("Heavy Support", "heavy_support"), ("Soutien", "heavy_support"), ("Soutiens", "heavy_support"),
        ("  heavy   supports ", "heavy_support"),
    ],
)
def test_usual_category_names_resolve(category, slot):
    match = CategoryResolver(load_aliases(), load_ignored_categories()).resolve(category)
    assert (match.kind, match.slot) == ("slot", slot)


@pytest.mark.parametrize(
    ("category", "kind"),
    [
        ("Dedicated Transport", "no_slot"), ("Transport Assigné", "no_slot"), ("Transports assignés", "no_slot"),
        ("No Force Org Slot", "no_slot"), ("Configuration", "configuration"),
        ("Force Customization", "configuration"), ("Fortification", "unknown"), ("", "missing"),
    ],
)
def test_other_category_kinds(category, kind):
    match = CategoryResolver(load_aliases(), load_ignored_categories()).resolve(category)
    assert (match.kind, match.slot) == (kind, None)


def test_aliases_from_the_database_need_not_be_normalised():
    resolver = CategoryResolver({"Soutien Lourd": "heavy_support", "ÉLITE": "elites"}, {})
    assert resolver.resolve("soutien-lourd").slot == "heavy_support"
    assert resolver.resolve("Elites").slot == "elites"


def test_normalise_and_singular():
    assert normalise("  Élites  d'Assaut ") == "elites d assaut"
    assert normalise("Warhammer 40,000 (4th Edition)") == "warhammer 40 000 4th edition"
    assert singular("attaques rapides") == "attaque rapide"
    assert singular("hq class") == "hq class"


def test_game_system_aliases_cover_battlescribe_and_french_names():
    names = {normalise(name) for name in load_game_system_aliases()}
    assert normalise("Warhammer 40,000 4th Edition") in names
    assert normalise("Warhammer 40 000 (4e édition)") in names


# --- detection and the base64 rule --------------------------------------------------------------

def test_signatures():
    assert detect_format(make_zip({"a.ros": b"<roster/>"})) == "rosz"
    assert detect_format(b"\xef\xbb\xbf  <?xml version='1.0'?><roster/>") == "ros"
    assert detect_format(b'\n {"roster": {}}') == "newrecruit_json"
    assert detect_format(fixture_bytes("orks_fr.txt")) == "battlescribe_text"
    assert detect_format(b"Captain 90 points") is None


def test_base64_is_unwrapped_only_when_it_hides_a_roster():
    ros = fixture_bytes("eldar.ros")
    assert unwrap_base64(base64.b64encode(ros)) == ros
    mime = base64.encodebytes(ros)  # wrapped at 76 columns, as mail clients do
    assert unwrap_base64(mime) == ros
    urlsafe = base64.urlsafe_b64encode(make_zip({"a.ros": ros}))
    assert detect_format(unwrap_base64(urlsafe)) == "rosz"
    plain = base64.b64encode(b"hello, not a roster")
    assert unwrap_base64(plain) == plain
    spaced = base64.b64encode(ros)[:40] + b" " + base64.b64encode(ros)[40:]
    assert unwrap_base64(spaced) == spaced


def test_base64_of_garbage_is_unknown_format():
    assert reason_of(base64.b64encode(bytes(range(256))).decode()) == "unknown_format"
