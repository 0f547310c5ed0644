"""Checks a player (and a screen reader) would make on any screen of the table: axe-core finds
no accessibility fault, the things a player needs lie inside the viewport, and a screenshot
named by game, phase, size and language (with --screenshots)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import shot

AXE = Path(__file__).resolve().parents[2] / ".vendor" / "axe-core-4.14.1" / "axe.min.js"

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE, "small": SMALL}


def axe_violations(page) -> list[dict]:
    """Run axe-core (all its rules, none switched off) on the page as it is."""
    assert AXE.exists(), f"{AXE} is missing: scripts/test.sh fetches it (scripts/fetch_axe.py)"
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => { const r = await axe.run(document); return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160))})) }")
    return result


def check_axe(page, where: str) -> None:
    found = axe_violations(page)
    assert found == [], f"axe-core at {where}:\n" + json.dumps(found, indent=1)


INSIDE = """() => {
  const W = innerWidth, H = innerHeight;
  const out = [];
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) out.push(`${what} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.right)}x${Math.round(r.bottom)} in ${W}x${H}`);
  };
  const status = document.querySelector('#status');
  if (!status) out.push('no status line'); else check(status, 'the status line');
  for (const c of document.querySelectorAll('.hand .card')) check(c, `card ${c.dataset.card}`);
  // A button in a list that scrolls within the screen (a long declaration, Ottocento) is
  // reached by scrolling the list: the list itself must lie inside the viewport.
  const scroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const y = getComputedStyle(p).overflowY;
      if ((y === 'auto' || y === 'scroll') && p.scrollHeight > p.clientHeight + 1) return p;
    }
    return null;
  };
  for (const b of document.querySelectorAll('.actions-slot button:not([disabled]), .tools button:not([disabled])')) {
    const list = scroller(b);
    check(list || b, list ? `the list that scrolls to button ${b.textContent.trim()}` : `button ${b.textContent.trim()}`);
  }
  if (document.documentElement.scrollHeight > H + 1) out.push(`the page scrolls: ${document.documentElement.scrollHeight} > ${H}`);
  return out;
}"""


def check_inside(page, where: str) -> None:
    """The hand, the status line and every enabled action button lie inside the viewport."""
    outside = page.evaluate(INSIDE)
    assert outside == [], f"outside the viewport at {where}: {outside}"


def screen(page, game: str, phase: str, size: str, lang: str) -> None:
    shot(page, re.sub(r"[^a-z0-9-]+", "-", f"{game}-{phase}-{size}-{lang}"), full_page=False)
