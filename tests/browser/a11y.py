"""Accessibility checks run in the page: labels, accessible names, and text contrast (WCAG AA).

A small subset of what axe-core checks, kept in the repository so it runs offline: every form
control has a label, ids are unique, every button and link has a name, and visible text contrasts at least 4.5:1
(3:1 for large text) with the background it is drawn on.
"""
from __future__ import annotations

AUDIT_JS = r"""
() => {
  const problems = [];
  const visible = el => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    // checkVisibility: false inside a closed <details> (its content is skipped, not sized to 0).
    return s.visibility !== 'hidden' && s.display !== 'none' && r.width > 0 && r.height > 0 &&
      (!el.checkVisibility || el.checkVisibility());
  };
  const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.name ? '[name=' + el.name + ']' : '') + ' "' + (el.innerText || el.value || '').trim().slice(0, 30) + '"';
  const ids = new Set();
  for (const el of document.querySelectorAll('[id]')) {
    if (ids.has(el.id)) problems.push('duplicate id: ' + el.id);
    ids.add(el.id);
  }
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (el.type === 'hidden') continue;
    const named = el.labels.length > 0 || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    if (!named) problems.push('no label: ' + describe(el));
  }
  for (const el of document.querySelectorAll('button, a[href]')) {
    if (!visible(el)) continue;
    const name = (el.innerText || el.getAttribute('aria-label') || el.title || '').trim();
    if (!name) problems.push('no accessible name: ' + describe(el));
  }
  for (const el of document.querySelectorAll('img')) {
    if (!el.hasAttribute('alt')) problems.push('image without alt: ' + el.src);
  }
  const rgba = text => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(',').map(x => parseFloat(x));
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const luminance = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const blend = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const background = el => {
    // The colours painted under el, from the page's white canvas up to el itself.
    const chain = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) chain.push(node);
    let colour = {r: 255, g: 255, b: 255, a: 1};
    for (const node of chain.reverse()) {
      const c = rgba(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) colour = blend(c, colour);
    }
    return colour;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el) || !visible(el)) continue;
    if (el.closest('select, option, noscript, script, style')) continue;
    seen.add(el);
    const s = getComputedStyle(el);
    const fg = rgba(s.color);
    if (!fg) continue;
    const bg = background(el);
    const text = blend(fg, bg);
    const [hi, lo] = [luminance(text), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(s.fontWeight, 10) >= 700);
    if (ratio < (large ? 3 : 4.5)) problems.push('contrast ' + ratio.toFixed(2) + ': ' + describe(el));
  }
  return problems;
}
"""


def audit(page) -> list[str]:
    """The accessibility problems found on the page as it is now (empty when there are none)."""
    return page.evaluate(AUDIT_JS)
