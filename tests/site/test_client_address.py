"""X-Forwarded-For parsing and rate specs (no database)."""
import pytest

from config.client_address import forwarded_address
from config.ratelimit import DEFAULT_RATES, Rate, parse_rates


@pytest.mark.parametrize(("header", "proxies", "expected"), [
    ("203.0.113.7", 1, "203.0.113.7"),
    ("6.6.6.6, 203.0.113.7", 1, "203.0.113.7"),  # the client forged the first entry
    ("6.6.6.6,203.0.113.7 , 10.0.0.2", 2, "203.0.113.7"),
    (" 2001:db8::1 ", 1, "2001:db8::1"),
    ("203.0.113.7", 2, None),  # fewer entries than proxies: not what the proxies wrote
    ("", 1, None),
    ("unknown", 1, None),
    ("203.0.113.7, <script>", 1, None),
    ("203.0.113.7:4711", 1, None),
])
def test_forwarded_address_is_the_nth_entry_from_the_right(header, proxies, expected):
    assert forwarded_address(header, proxies) == expected


def test_rates_take_a_number_of_periods():
    rates = parse_rates("login_account=5/30m,signup=2/hour")
    assert rates["login_account"] == Rate(5, 1800)
    assert rates["signup"] == Rate(2, 3600)
    assert parse_rates("")["login_account"] == Rate(10, 900)
    assert DEFAULT_RATES["login_account"] == "10/15minutes"


def test_a_bad_period_is_refused():
    with pytest.raises(ValueError):
        parse_rates("login=3/fortnight")
    with pytest.raises(ValueError):
        parse_rates("login=3/month")  # not minutes
