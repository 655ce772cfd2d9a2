"""The campaign cockpit in the admin."""
from campaigns.admin import air, cockpit  # noqa: F401  (each registers its ModelAdmins)
