"""Issue 38, "Reach and fit": what players found at 1366x800, 390x844 and 360x640, in English
and Italian. The host of a four-seat room sees "Start now with three seats" without scrolling."""

from __future__ import annotations

import pytest

from .checks import SIZES, check_axe, check_inside, screen
from .test_room import create_room
from .test_screens import switch

pytestmark = pytest.mark.browser

# Boxes as the page draws them, and whether two overlap by more than half a pixel.
RECT = "const box = (e) => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };"
OVERLAP = "const overlap = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;"


# --- 1. Start now with three seats, in sight ------------------------------------------------

SEEN = RECT + """(sel) => {
  const el = document.querySelector(sel);
  const r = box(el);
  const out = [];
  if (r.l < 0 || r.t < 0 || r.r > innerWidth || r.b > innerHeight) out.push(`outside the viewport: ${JSON.stringify(r)}`);
  // Every box that clips it (a scroll container: overflow other than visible) shows it whole.
  for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowY === 'visible' && cs.overflowX === 'visible') continue;
    const c = p.getBoundingClientRect();
    const top = c.top + p.clientTop, bottom = top + p.clientHeight;
    if (r.t < top - 0.5 || r.b > bottom + 0.5) out.push(`outside the visible area of .${p.className}: ${Math.round(r.t)}-${Math.round(r.b)} in ${Math.round(top)}-${Math.round(bottom)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["desktop", "phone", "small"])
def test_the_host_of_four_seats_sees_start_with_three_without_scrolling(live_server, new_page, size):
    """A four-seat Sicilian room with three in: the host's "Start now with three seats" lies in
    the viewport and in the visible area of every box around it, in both languages (at
    1366x800 it lay under the guests' links, clipped by the waiting room's centre)."""
    host = new_page(SIZES[size])
    own, guests = create_room(host, live_server.url, 4)
    host.goto(own)
    for link in guests[:2]:
        new_page(SIZES["phone"]).goto(link)
    start = host.locator("#start-three")
    start.wait_for()
    for code in ("en", "it"):
        switch(host, code)
        where = f"the waiting room of four, three in, {size} {code}"
        screen(host, "sicilian", "waiting-start-three", size, code)
        assert host.evaluate(SEEN, "#start-three") == [], where
        check_inside(host, where)
        check_axe(host, where)
    switch(host, "en")
    # Every link of the room stays reachable: what the centre cannot show, it scrolls to.
    last = host.locator(".waiting .link-row button.copy").last
    last.scroll_into_view_if_needed()
    assert host.evaluate(SEEN, ".waiting .link-row:last-child button.copy") == []
    start.click()
    host.locator(".hand .card").first.wait_for()
    assert host.errors == []
