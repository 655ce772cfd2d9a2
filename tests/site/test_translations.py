"""The French catalogue is complete and in step with the sources, and every string can be found.

`makemessages` runs on a copy of the sources (the checkout is left alone): if a marked string has
no French translation, or a committed entry is fuzzy, the merged catalogue shows it untranslated.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every package of the application (not the tests or benchmarks), found rather than listed.
PACKAGES = tuple(sorted(path.name for path in ROOT.iterdir() if (path / "__init__.py").exists()
                        and path.name not in ("tests", "benchmarks")))
SOURCES = (*PACKAGES, "templates", "locale", "manage.py")
# xgettext only finds the names Django tells it: a module that imports gettext under another
# alias (say `_t`) hides its strings from makemessages, and they stay English in French pages.
ALIAS = re.compile(r"from django\.utils\.translation import .*\b(\w*gettext\w*) as (?!_\b)(\w+)")

pytestmark = pytest.mark.skipif(shutil.which("msgattrib") is None, reason="gettext is not installed")


def test_gettext_is_never_imported_under_a_name_makemessages_ignores():
    offenders = [f"{path.relative_to(ROOT)}: {match.group(0)}"
                 for package in PACKAGES
                 for path in (ROOT / package).rglob("*.py")
                 for match in ALIAS.finditer(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_french_catalogue_covers_every_marked_string(tmp_path):
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete",
                    "--verbosity", "0"], cwd=tmp_path, check=True, capture_output=True,
                   env={"PATH": "/usr/bin:/bin", "MUSTER_DATA_DIR": str(tmp_path / "data"),
                        "PYTHONPATH": str(tmp_path)})
    catalogue = tmp_path / "locale/fr/LC_MESSAGES/django.po"
    untranslated = subprocess.run(["msgattrib", "--untranslated", "--no-obsolete", str(catalogue)],
                                  check=True, capture_output=True, text=True).stdout
    fuzzy = subprocess.run(["msgattrib", "--only-fuzzy", "--no-obsolete", str(catalogue)],
                           check=True, capture_output=True, text=True).stdout
    assert untranslated == "", f"strings with no French translation:\n{untranslated[:3000]}"
    assert fuzzy == "", f"fuzzy French entries:\n{fuzzy[:3000]}"
