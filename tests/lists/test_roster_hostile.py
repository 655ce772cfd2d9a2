"""Hostile uploads: each must end in RosterUnreadable with the specific reason, quickly."""
from __future__ import annotations

import json
import struct
import zipfile
import zlib

import pytest

from armylists.roster import DEFAULT_LIMITS, RosterLimits, RosterUnreadable
from armylists.roster.archive import read_capped

from .rosters import fixture_bytes, make_zip, parse, reason_of

MIB = 1024 * 1024

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE roster [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<roster name="&lol3;"><forces/></roster>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster name="&secret;"><forces/></roster>
"""
EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE roster SYSTEM "http://example.invalid/roster.dtd">
<roster name="x"><forces/></roster>
"""


@pytest.mark.parametrize("document", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD])
def test_xml_entities_and_dtds_are_refused(document):
    assert reason_of(document) == "xml_entities_forbidden"
    assert reason_of(document, "ros") == "xml_entities_forbidden"


def test_entities_inside_a_rosz_are_refused_too():
    assert reason_of(make_zip({"army.ros": BILLION_LAUGHS})) == "xml_entities_forbidden"


def test_zip_inflating_past_the_cap_is_a_bomb():
    # 11 MiB of zeros deflate to a few KiB: the declared size alone exceeds the 10 MiB cap.
    archive = make_zip({"army.ros": bytes(11 * MIB)})
    assert len(archive) < 64 * 1024
    assert reason_of(archive) == "zip_bomb"


def test_zip_with_an_absurd_ratio_under_the_size_cap_is_a_bomb():
    archive = make_zip({"army.ros": bytes(5 * MIB)})
    assert reason_of(archive) == "zip_bomb"


def _raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def _zip_with_lying_sizes(content: bytes, declared: int, crc: int) -> bytes:
    """A one-member archive whose headers declare ``declared`` bytes whatever it really holds."""
    body = _raw_deflate(content)
    name = b"army.ros"
    local = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(body), declared, len(name), 0)
    central = struct.pack(
        "<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(body), declared, len(name), 0, 0, 0, 0, 0, 0
    )
    offset = len(local) + len(name) + len(body)
    directory = central + name
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 1, 1, len(directory), offset, 0)
    return local + name + body + directory + end


def test_zip_whose_header_understates_the_size_is_refused():
    content = bytes(11 * MIB)
    archive = _zip_with_lying_sizes(content, declared=1000, crc=zlib.crc32(content))
    # Inflation stops at the declared size, and the checksum then fails: corrupt archive.
    assert reason_of(archive) == "bad_zip"


def test_zip_whose_header_lies_consistently_never_reads_past_the_declared_size():
    content = bytes(11 * MIB)
    archive = _zip_with_lying_sizes(content, declared=1000, crc=zlib.crc32(bytes(1000)))
    # Only the 1000 declared bytes (zeros) are ever read: not XML, so not a roster.
    assert reason_of(archive, "rosz") == "bad_xml"


class EndlessStream:
    """A member stream that never ends, as a lying archive could produce."""

    def __init__(self) -> None:
        self.served = 0

    def read(self, size: int = -1) -> bytes:
        self.served += size
        return bytes(size)


def test_stream_reading_stops_at_the_cap_whatever_the_headers_say():
    limits = RosterLimits(max_uncompressed_bytes=3 * MIB, ratio_floor_bytes=MIB, max_ratio=100)
    stream = EndlessStream()
    with pytest.raises(RosterUnreadable) as caught:
        read_capped(stream, limits, compressed_size=10 * MIB)
    assert caught.value.reason == "zip_bomb"
    assert stream.served <= 3 * MIB + 64 * 1024
    # The ratio guard applies while streaming too: 20 KiB compressed may not exceed 2 MB.
    small = EndlessStream()
    with pytest.raises(RosterUnreadable):
        read_capped(small, limits, compressed_size=20 * 1024)
    assert small.served <= 2 * MIB + 64 * 1024


def test_truncated_zip_is_bad_zip():
    archive = make_zip({"army.ros": fixture_bytes("eldar.ros")})
    for cut in (len(archive) // 2, len(archive) - 10, 30):
        assert reason_of(archive[:cut]) == "bad_zip"
    assert reason_of(b"definitely not a zip", "rosz") == "bad_zip"


def test_encrypted_and_unsupported_members_are_bad_zip():
    # zipfile cannot write encrypted members: set the "encrypted" flag in both headers by hand.
    archive = bytearray(make_zip({"army.ros": fixture_bytes("eldar.ros")}))
    archive[6] |= 0x1
    archive[archive.rfind(b"PK\x01\x02") + 8] |= 0x1
    assert reason_of(bytes(archive)) == "bad_zip"
    bzip = make_zip({"army.ros": fixture_bytes("eldar.ros")}, method=zipfile.ZIP_BZIP2)
    assert reason_of(bzip) == "bad_zip"


def test_upload_size_cap():
    big = b"+ HQ +\n" + b"Captain [90pts]\n" * (DEFAULT_LIMITS.max_upload_bytes // 16 + 1)
    assert reason_of(big) == "too_large"
    assert reason_of("x" * (4 * MIB)) == "too_large"


@pytest.mark.parametrize("data", [b"", "   \n\t ", b"\n\n"])
def test_empty_upload(data):
    assert reason_of(data) == "empty"


def test_too_many_entries():
    text = "+ Troops +\n" + "".join(f"Squad {i} [10pts]\n" for i in range(501))
    assert reason_of(text) == "too_many_entries"
    document = {"roster": {"forces": [{"selections": [{"name": f"U{i}", "type": "unit"} for i in range(501)]}]}}
    assert reason_of(json.dumps(document)) == "too_many_entries"
    # Exactly at the cap is fine, and free configuration lines do not count towards it.
    text = "+ Configuration +\n" + "".join(f"Option {i} [0pts]\n" for i in range(30))
    text += "+ Troops +\n" + "".join(f"Squad {i} [10pts]\n" for i in range(500))
    assert len(parse(text).entries) == 500


def test_too_many_nested_selections():
    limits = RosterLimits(max_selections=50)
    children = [{"name": "gear", "type": "upgrade"}] * 60
    document = {"roster": {"forces": [{"selections": [{"name": "Unit", "selections": children}]}]}}
    assert reason_of(json.dumps(document), limits=limits) == "too_many_entries"


def test_deep_nesting_is_refused():
    selection: dict = {"name": "leaf"}
    for _ in range(200):
        selection = {"name": "wrapper", "selections": [selection]}
    document = {"roster": {"forces": [{"selections": [selection]}]}}
    assert reason_of(json.dumps(document)) == "too_deep"
    assert reason_of(b"[" * 200_000, "newrecruit_json") == "too_deep"
    xml = b"<roster><forces><force><selections>" + b"<selection><selections>" * 200
    xml += b"</selections></selection>" * 200 + b"</selections></force></forces></roster>"
    assert reason_of(xml) == "too_deep"


def test_absurd_costs_are_refused():
    document = {"roster": {"forces": [{"selections": [
        {"name": "Titan", "categories": [{"name": "HQ", "primary": True}],
         "costs": [{"name": "pts", "value": 1e300}]},
    ]}]}}
    assert reason_of(json.dumps(document)) == "bad_cost"
    assert reason_of("+ HQ +\n\nTitan [" + "9" * 60 + "pts]\n") == "bad_cost"
    assert reason_of("+ HQ +\n\nTitan [2000000pts]\n") == "bad_cost"


def test_unknown_format_names_and_input_types():
    assert reason_of(b"+ HQ +\nCaptain [90pts]\n", "pdf") == "unknown_format"
    assert reason_of(b"\x00\x01\x02binary junk") == "unknown_format"
    with pytest.raises(RosterUnreadable) as caught:
        parse(12345)  # type: ignore[arg-type]
    assert caught.value.reason == "bad_input"
