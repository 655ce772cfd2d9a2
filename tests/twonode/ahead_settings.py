"""The settings of "the next release" for the pending-migration check of the two-node test: the
real settings, with one app's migrations taken from a copy that has one migration more
(MUSTER_AHEAD_APP, MUSTER_AHEAD_PACKAGE on PYTHONPATH; see Cluster.release_ahead)."""
import os

from config.settings import *  # noqa: F403

MIGRATION_MODULES = {os.environ["MUSTER_AHEAD_APP"]: os.environ["MUSTER_AHEAD_PACKAGE"]}
