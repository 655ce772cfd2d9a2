"""The venue's admin pages: check-in, awards, walk-ins."""
from venue.admin import awards, checkin, walkins  # noqa: F401  (each registers its ModelAdmins)
