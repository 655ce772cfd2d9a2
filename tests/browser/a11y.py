"""Accessibility checks run in the page by axe-core (npm, `package.json` at the repository root).

`audit(page)` runs every axe rule on the page as it is now and returns its serious and critical
violations, one line per element (empty when there are none). axe is put into the page with
`page.evaluate`, which Playwright runs outside the page's Content-Security-Policy: an injected
<script> tag would be refused (script-src 'self'), and the policy is not weakened for a test.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from tests.browser.conftest import missing

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("MUSTER_AXE", ROOT / "node_modules" / "axe-core" / "axe.min.js"))
BLOCKING = ("serious", "critical")

# One line per failing element: rule, impact, the element's selector and what axe says to fix.
RUN_JS = """async (blocking) => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  const lines = [];
  for (const rule of result.violations) {
    if (!blocking.includes(rule.impact)) continue;
    for (const node of rule.nodes) {
      const summary = (node.failureSummary || "").replace(/\\s+/g, " ").slice(0, 240);
      lines.push(`${rule.id} (${rule.impact}): ${node.target.join(" ")}: ${summary}`);
    }
  }
  return lines;
}"""


@functools.cache
def axe_source() -> str:
    if not AXE.exists():
        missing(f"no axe-core at {AXE} (run `npm ci` at the repository root)")
    return AXE.read_text(encoding="utf-8")


def audit(page) -> list[str]:
    """The serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    return page.evaluate(RUN_JS, list(BLOCKING))
