"""The venue's rows: check-in windows, round clocks, awards and penalties."""
from venue.award_models import ScoreComponent, ScoreEntry, ScoreVote  # noqa: F401
from venue.checkin_models import VenueCheckIn  # noqa: F401
from venue.clock_models import RoundClock  # noqa: F401
