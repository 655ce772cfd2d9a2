"""Fuzzing: whatever the input, parse_roster returns a roster or raises RosterUnreadable only."""
from __future__ import annotations

import base64
import json
from xml.sax.saxutils import quoteattr

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armylists.roster import FORMATS, ParsedRoster, RosterUnreadable

from .rosters import fixture_bytes, make_zip, parse

FORMAT_CHOICES = st.sampled_from(("auto", *FORMATS))
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(data: bytes | str, fmt: str) -> ParsedRoster | None:
    try:
        roster = parse(data, fmt)
    except RosterUnreadable as exc:
        assert isinstance(exc.reason, str) and exc.reason
        return None
    assert all(entry.points >= 0 and entry.models >= 1 for entry in roster.entries)
    return roster


@FUZZ
@given(st.binary(max_size=3000), FORMAT_CHOICES)
def test_random_bytes(data, fmt):
    outcome(data, fmt)


@FUZZ
@given(st.text(max_size=3000), FORMAT_CHOICES)
def test_random_text(data, fmt):
    outcome(data, fmt)


@FUZZ
@given(st.binary(max_size=600), FORMAT_CHOICES)
def test_random_base64(data, fmt):
    outcome(base64.b64encode(data).decode("ascii"), fmt)


TEXT_LINES = st.lists(
    st.one_of(
        st.sampled_from(["+ HQ +", "+ Troupes +", "++ Total: [100pts] ++", ". 5x Boy", ". Nob: gear", ""]),
        st.builds(
            lambda name, body: f"{name} [{body}]",
            st.text(max_size=12),
            st.text(alphabet="0123456789,. ptsPLCx[]", max_size=20),
        ),
        st.text(max_size=40),
    ),
    max_size=40,
)


@FUZZ
@given(TEXT_LINES)
def test_text_export_like_input(lines):
    outcome("\n".join(lines), "auto")


# Strings the readers act on, so the fuzzer reaches the model, cost and category branches.
MEANINGFUL = st.sampled_from(["model", "unit", "upgrade", "pts", "Points", "HQ", "Troupes", "true", "7", "1e400"])
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), MEANINGFUL),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.sampled_from(["name", "type", "number", "costs", "value", "categories", "primary",
                             "selections", "forces", "selection", "force", "cost", "category", "x"]),
            children,
            max_size=5,
        ),
    ),
    max_leaves=40,
)


@FUZZ
@given(JSON_VALUES, JSON_VALUES)
def test_roster_shaped_json(forces, costs):
    document = {"roster": {"name": "fuzz", "costs": costs, "forces": forces}}
    outcome(json.dumps(document), "auto")


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), MEANINGFUL)
COST = st.fixed_dictionaries({}, optional={"name": st.one_of(MEANINGFUL, SCALARS), "value": SCALARS, "typeId": SCALARS})
CATEGORY = st.fixed_dictionaries({}, optional={"name": st.one_of(MEANINGFUL, SCALARS), "primary": SCALARS})
# "type" and "number" are always present so model counting is exercised as often as costs.
SELECTION_REQUIRED = {
    "type": st.one_of(st.sampled_from(["model", "unit", "upgrade"]), SCALARS),
    "number": st.one_of(st.sampled_from(["7", "1.5", "-3", "1e400", "nan", "x", 12]), SCALARS),
}
SELECTION_OPTIONAL = {
    "name": SCALARS,
    "costs": st.one_of(st.lists(COST, max_size=3), SCALARS),
    "categories": st.one_of(st.lists(CATEGORY, max_size=3), SCALARS),
}
SELECTIONS = st.recursive(
    st.fixed_dictionaries(SELECTION_REQUIRED, optional=SELECTION_OPTIONAL),
    lambda children: st.fixed_dictionaries(
        {**SELECTION_REQUIRED, "selections": st.one_of(st.lists(children, max_size=4), children)},
        optional=SELECTION_OPTIONAL,
    ),
    max_leaves=30,
)


@FUZZ
@given(st.lists(SELECTIONS, max_size=6), st.lists(COST, max_size=2))
def test_roster_shaped_selections(selections, costs):
    document = {"roster": {"costs": costs, "forces": [{"selections": selections, "forces": [{"selections": selections}]}]}}
    outcome(json.dumps(document), "newrecruit_json")


def to_xml(selection: object) -> str:
    """The same random selection trees, written as .ros XML (scalars become attribute text)."""
    if not isinstance(selection, dict):
        return ""
    attributes = "".join(
        f" {key}={quoteattr(str(selection[key]))}" for key in ("name", "type", "number") if key in selection
    )
    costs = selection.get("costs") if isinstance(selection.get("costs"), list) else []
    cost_xml = "".join(
        f"<cost name={quoteattr(str(c.get('name')))} value={quoteattr(str(c.get('value')))}/>" for c in costs
    )
    children = selection.get("selections")
    child_xml = "".join(to_xml(child) for child in (children if isinstance(children, list) else [children]))
    return f"<selection{attributes}><costs>{cost_xml}</costs><selections>{child_xml}</selections></selection>"


@FUZZ
@given(st.lists(SELECTIONS, max_size=6))
def test_roster_shaped_xml(selections):
    body = "".join(to_xml(selection) for selection in selections)
    document = f'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force><selections>{body}</selections></force></forces></roster>'
    outcome(document, "auto")


@st.composite
def mutated(draw, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 8))):
        position = draw(st.integers(0, len(data) - 1))
        data[position] = draw(st.integers(0, 255))
    cut = draw(st.integers(len(data) // 2, len(data)))
    return bytes(data[:cut])


ROS = fixture_bytes("eldar.ros")
ROSZ = make_zip({"army.ros": ROS})
JSON_FIXTURE = fixture_bytes("tyranids_newrecruit.json")


@FUZZ
@given(st.one_of(mutated(ROS), mutated(ROSZ), mutated(JSON_FIXTURE)), FORMAT_CHOICES)
def test_corrupted_fixtures(data, fmt):
    outcome(data, fmt)
