"""Issue 38, "Reach and fit": what players found at 1366x800, 390x844 and 360x640, in English
and Italian. The host of a four-seat room sees "Start now with three seats" without scrolling;
the discard's Confirm and Next deal each have a key (C, N; the games' own confirm buttons C
too), said in their tooltips and aria-keyshortcuts; and, measured by bounding boxes, the top
bar's title, deal and badges never overlap (the watch page at 390 px, Italian Ottocento at
360 px), "non ancora arrivato" stays inside its seat's box in the waiting room, and an
Ottocento seat's declaration never runs into its card count."""

from __future__ import annotations

import httpx
import pytest

from tests.server.live import running_server

from .checks import DESKTOP, SIZES, check_axe, check_inside, screen
from .driver import resize
from .fake import open_fake, table, view
from .test_issue12 import find_deal
from .test_late_act import acts
from .test_ottocento import RICH, Scripted, sit_until
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


# --- 2. The keys of Confirm and Next deal -----------------------------------------------------

def test_c_confirms_the_discard_and_n_asks_for_the_next_deal(live_server, new_page):
    """After picking three discards, C confirms them (15 Shift+Tab presses before); at the count
    N asks for the next deal (21 Tab presses). Each button says its key in its tooltip and in
    aria-keyshortcuts, in both languages; a C before three are picked sends nothing."""
    deal = find_deal(lambda d: d.phase == "discard" and d.to_act == 0)
    page = new_page(DESKTOP)
    fake = open_fake(page, live_server.url, table(kind="room"), view(deal))
    confirm = page.locator("#confirm-discard")
    confirm.wait_for()
    assert confirm.get_attribute("aria-keyshortcuts") == "C"
    for code, label in (("it", "Conferma lo scarto"), ("en", "Confirm the discard")):
        switch(page, code)
        assert confirm.get_attribute("title") == f"{label} (C)"
    allowed = page.locator(".hand .card:not([aria-disabled='true'])")
    allowed.first.focus()
    page.keyboard.press("Space")  # one picked: C is not yet the discard
    page.keyboard.press("c")
    page.wait_for_timeout(200)
    assert acts(fake, page) == []
    picked = [allowed.nth(i).get_attribute("data-card") for i in range(3)]
    for code in picked[1:]:
        page.locator(f".hand .card[data-card='{code}']").focus()
        page.keyboard.press("Space")
    page.locator(".hand .card[aria-pressed='true']").nth(2).wait_for()
    check_axe(page, "the discard picked, its key said")
    page.keyboard.press("c")
    (act,) = acts(fake, page, 1)
    assert act["action"].split()[0] == "discard" and sorted(act["action"].split()[1:]) == sorted(picked)

    # The count: N is Next deal.
    deal.apply(act["action"])
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    pays = deal.returns()
    fake.push(tbl=table(kind="room", status="between", totals=pays, sheet=[pays]), v=view(deal))
    nxt = page.locator("#next-deal")
    nxt.wait_for()
    assert nxt.get_attribute("aria-keyshortcuts") == "N"
    for code, label in (("it", "Prossima smazzata"), ("en", "Next deal")):
        switch(page, code)
        assert nxt.get_attribute("title") == f"{label} (N)"
    check_axe(page, "the count, Next deal's key said")
    page.evaluate("() => document.activeElement?.blur()")
    page.keyboard.press("n")
    for _ in range(200):
        if any(m.get("type") == "next" for m in fake.sent):
            break
        page.wait_for_timeout(25)
    assert [m for m in fake.sent if m.get("type") == "next"] == [{"type": "next"}]
    assert page.errors == []


@pytest.mark.parametrize(("game", "moment", "button", "word"), [
    ("calabresella", "give", "#confirm-discard", "restituisco"),
    ("calabresella", "lay", "#confirm-discard", "scarto"),
    ("ottocento", "declare", "#confirm-declare", "declare"),
])
def test_c_confirms_a_games_own_pick_too(live_server, new_page, game, moment, button, word):
    """The games' own confirm buttons take the same key: Calabresella's card given back and
    cards laid in the monte, Ottocento's declaration (the rules pages say so)."""
    seats = 4 if game == "ottocento" else 3
    deal = find_deal(lambda d: d.phase == moment and d.to_act == 0 and any(c["action"] != "declare" for c in d.view(0)["choices"]),
                     seats=seats, game=game)
    page = new_page(DESKTOP)
    fake = open_fake(page, live_server.url, table(seats=seats, game=game, kind="room"), view(deal))
    confirm = page.locator(button)
    confirm.wait_for()
    assert confirm.get_attribute("aria-keyshortcuts") == "C"
    assert confirm.get_attribute("title").endswith(" (C)")
    if moment != "declare":  # pick the cards on the hand first
        size = deal.view(0).get("lay") or 1
        for i in range(size):
            page.locator(".hand .card:not([aria-disabled='true']):not([aria-pressed='true'])").first.click()
    page.locator(f"{button}:not([disabled])").wait_for()
    page.evaluate("() => document.activeElement?.blur()")
    page.keyboard.press("C")
    (act,) = acts(fake, page, 1)
    assert act["action"].split()[0] == word and len(act["action"].split()) > 1, act
    assert page.errors == []


# --- 3. Fit: the top bar, the waiting room's seats, Ottocento's declarations -----------------

TOP = RECT + OVERLAP + """() => {
  const parts = ['.home', '.game-name', '.deal-no', '.tag.watching', '.conn', '.reconnect', '.help-link', '.sound', '.lang'];
  const seen = [];
  for (const sel of parts) {
    const el = document.querySelector(`.topbar ${sel}`);
    if (!el || !el.getClientRects().length) continue;
    const r = box(el);
    if (r.w < 2 && r.h < 2) continue;
    seen.push([sel, el, r]);
  }
  const out = [];
  for (const [sel, el, r] of seen) {
    if (r.l < -0.5 || r.t < -0.5 || r.r > innerWidth + 0.5 || r.b > innerHeight + 0.5) out.push(`${sel} outside the viewport`);
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${sel}: its text wider than its box (${el.scrollWidth} > ${el.clientWidth})`);
  }
  // The blocks the parts lie in hold them (a block squeezed to nothing lets its text spill).
  for (const block of document.querySelectorAll('.topbar > *')) {
    if (block.getClientRects().length && block.scrollWidth > block.clientWidth + 1) out.push(`.${block.className}: its content wider than its box (${block.scrollWidth} > ${block.clientWidth})`);
  }
  for (let i = 0; i < seen.length; i++)
    for (let j = i + 1; j < seen.length; j++)
      if (overlap(seen[i][2], seen[j][2])) out.push(`${seen[i][0]} overlaps ${seen[j][0]}`);
  return out;
}"""


def top_fits(page, where: str) -> None:
    assert page.evaluate(TOP) == [], where
    check_axe(page, where)


@pytest.mark.parametrize(("game", "seats"), [("sicilian", 4), ("renaissance", 3), ("calabresella", 3), ("ottocento", 4)])
def test_the_top_bar_of_the_watch_page_and_the_table_fits_a_phone(live_server, new_page, game, seats):
    """The title, the game, the deal, the spectator's badge and the buttons side by side and
    apart on the watch page at 390 and 360 px (the title lay over the deal number), and on the
    seat's own page (Italian Ottocento at 360 px: "Smazzata 1, a 800"), in both languages."""
    r = httpx.post(f"{live_server.url}/api/computer", json={"game": game, "seats": seats, "level": "random"})
    assert r.status_code == 200, r.text
    host = new_page(DESKTOP)
    host.goto(live_server.url + r.json()["link"])
    host.locator(".hand .card").first.wait_for()
    watch = host.locator("#watch-url").input_value()
    for size in ("phone", "small"):
        spectator = new_page(SIZES[size], locale="it-IT")
        spectator.goto(watch)
        spectator.locator(".topbar .deal-no").wait_for()
        spectator.locator(".seats .seat").first.wait_for()
        resize(host, SIZES[size])
        for code in ("it", "en"):
            for page, who in ((spectator, "watch"), (host, "seat")):
                switch(page, code)
                screen(page, game, f"topbar-{who}", size, code)
                top_fits(page, f"{game}, the {who} page's top bar, {size} {code}")
    assert host.errors == []


SEAT_TAGS = RECT + """() => {
  const out = [];
  for (const seat of document.querySelectorAll('.seats .seat')) {
    const s = box(seat);
    for (const tag of seat.querySelectorAll('.tag')) {
      const r = box(tag);
      if (r.l < s.l - 0.5 || r.r > s.r + 0.5 || r.t < s.t - 0.5 || r.b > s.b + 0.5)
        out.push(`seat ${seat.dataset.seat}: "${tag.textContent}" ${Math.round(r.l)}-${Math.round(r.r)} spills out of ${Math.round(s.l)}-${Math.round(s.r)}`);
      if (tag.scrollWidth > tag.clientWidth + 1) out.push(`seat ${seat.dataset.seat}: "${tag.textContent}" wider than its tag`);
    }
  }
  for (const li of document.querySelectorAll('.waiting .joined li')) {
    const l = box(li);
    for (const part of li.children) {
      const r = box(part);
      if (r.l < l.l - 0.5 || r.r > l.r + 0.5) out.push(`"${part.textContent}" spills out of its row`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["phone", "small"])
def test_not_here_yet_stays_inside_its_seat_in_the_waiting_room(live_server, new_page, size):
    """A four-seat room with two in, on phones: each absent seat's "non ancora arrivato" (and
    every other tag) lies inside its seat's box, the host's page and a guest's, in Italian (it
    spilled out) and English."""
    host = new_page(SIZES[size], locale="it-IT")
    own, guests = create_room(host, live_server.url, 4)
    host.goto(own)
    guest = new_page(SIZES[size], locale="it-IT")
    guest.goto(guests[0])
    for page in (host, guest):
        page.wait_for_function("() => document.querySelectorAll('.waiting .joined li.in').length === 2")
        assert page.locator(".seats .seat .tag", has_text="non ancora arrivato").count() == 2
    for code in ("it", "en"):
        for page, who in ((host, "host"), (guest, "guest")):
            switch(page, code)
            where = f"the waiting room, {who}, {size} {code}"
            screen(page, "sicilian", f"waiting-{who}", size, code)
            assert page.evaluate(SEAT_TAGS) == [], where
            check_axe(page, where)
    assert host.errors == [] and guest.errors == []


DECLARED = RECT + OVERLAP + """() => {
  const out = [];
  for (const seat of document.querySelectorAll('.seat')) {
    const d = seat.querySelector('.declared');
    if (!d) continue;
    const shown = box(d);
    const s = box(seat);
    if (shown.t < s.t - 0.5 || shown.b > s.b + 0.5) out.push(`seat ${seat.dataset.seat}: the declaration outside its seat`);
    const others = [...seat.querySelectorAll('.seat-head, .stat')].filter((e) => e.getClientRects().length).map((e) => [e.className, box(e)]);
    // The declaration's lines as drawn (a line cut by its scrolling box still lies where it is
    // drawn): none that shows may lie over the seat's name, total, cards or tricks.
    const lines = [...d.querySelectorAll(':scope > *')].map(box).filter((r) => overlap(r, shown));
    for (const [what, r] of others) {
      if (overlap(shown, r)) out.push(`seat ${seat.dataset.seat}: the declaration's box overlaps ${what}`);
      for (const line of lines) if (overlap(line, r)) out.push(`seat ${seat.dataset.seat}: a line of the declaration (${Math.round(line.t)}-${Math.round(line.b)}) runs into ${what} (${Math.round(r.t)}-${Math.round(r.b)})`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["phone", "small"])
def test_an_ottocento_seats_declaration_never_runs_into_its_card_count(new_page, size):
    """At the first lead the seat on the left (a rule bot) has declared eight combinations: its
    tile scrolls them, and the line the scrolling cuts lay against "15 carte" (its card count),
    at 390x844 and 360x640; no line of it that shows may lie over the seat's name, total,
    cards or tricks, in either language."""
    with running_server(chance=Scripted(3, 1, RICH["eight"], seed=5)) as server:
        page = new_page(SIZES[size])
        sit_until(page, server.url, "rule", "play")
        assert page.locator(".seat[data-seat='1'] .declared .combo").count() >= 7
        for code in ("en", "it"):
            switch(page, code)
            where = f"ottocento, the declarations beside the seats, {size} {code}"
            screen(page, "ottocento", "declared-beside-seats", size, code)
            assert page.evaluate(DECLARED) == [], where
            check_inside(page, where)
            check_axe(page, where)
        assert page.errors == []
