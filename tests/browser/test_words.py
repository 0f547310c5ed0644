"""Issue 38, the words that confused or misled players (two or three at once, every game, at
1366x800, 390x844 and 360x640, in English and Italian): each screen here is looked at in both
languages at every size where it shows, with no axe fault."""

from __future__ import annotations

import pytest

from tests.server.live import running_server

from .checks import SIZES
from .driver import resize
from .fake import new_deal, open_fake, table, view
from .test_screens import look, switch

pytestmark = pytest.mark.browser


def test_ottocento_play_now_waiting_room_says_one_true_thing(new_page):
    """Computers fill a Play now table's empty seats: the waiting room says so, not also that
    the match waits for all four people (it said both)."""
    with running_server(fill_seconds=120) as server:
        page = new_page(SIZES["desktop"])
        page.goto(server.url + "/")
        page.click("#play-now-ottocento")
        page.locator(".waiting .fill-clock").wait_for()
        for size in SIZES:
            resize(page, SIZES[size])
            for code, words in (("en", "all four have joined"), ("it", "tutti e quattro")):
                switch(page, code)
                waiting = page.locator(".center.waiting").inner_text()
                assert words not in waiting, waiting
                assert page.locator(".waiting .fill-clock").is_visible()
            assert page.locator("#wait-four").count() == 0
            look(page, "ottocento", "play-now-waiting", size, inside=True)
        assert page.errors == []


MARKERS_FIT = """() => {
  // The widest number of the list, as its marker is drawn, against the room the list gives it.
  const ol = document.querySelector('#panel-log ol');
  const probe = document.createElement('span');
  probe.textContent = `${ol.children.length}. `;
  probe.style.cssText = `font: ${getComputedStyle(ol.firstElementChild).font}; white-space: pre; position: absolute`;
  document.body.append(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.remove();
  return {wide, room: parseFloat(getComputedStyle(ol).paddingLeft), items: ol.children.length};
}"""


def test_a_sicilian_deal_abandoned_at_20_cards_says_why_and_the_bids_are_numbered_whole(live_server, new_page):
    """Everyone said altre cinque up to 15 cards and all passed at 20: the deal was abandoned
    because nobody went solo (altre cinque is not said at 20 cards, R5), not because "nobody
    said altre cinque"; the Bids panel's twelve items show their numbers whole (10-12 showed
    as ".0", ".1", ".2")."""
    deal = new_deal(3, "sicilian", dealer=0, seed=5)
    for _ in range(9):
        deal.apply("altre cinque")
    for _ in range(3):
        deal.apply("passo")
    assert deal.done and deal.count.abandoned
    tbl = table(3, "sicilian", status="between", sheet=[[0, 0, 0]])
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, tbl, view(deal), events=list(deal.events))
    page.locator(".center.count").wait_for()
    for size in SIZES:
        resize(page, SIZES[size])
        for code, why, wrong in (("en", "nobody said vado solo at 20 cards", "nobody said altre cinque"),
                                 ("it", "a 20 carte nessuno ha detto vado solo", "nessuno ha detto altre cinque")):
            switch(page, code)
            count = page.locator(".center.count").inner_text()
            assert why in count and wrong not in count, count
            assert why in page.locator(".lines").inner_text()
        look(page, "sicilian", "abandoned-at-20", size)
        page.click(".tab-log")
        page.locator("#panel-log.open ol li").nth(11).wait_for()
        for code in ("en", "it"):
            switch(page, code)
            fit = page.evaluate(MARKERS_FIT)
            assert fit["items"] == 12 and fit["room"] >= fit["wide"], fit
        look(page, "sicilian", "bids-twelve", size, inside=False)  # (a drawer over the table on a phone)
        if size != "desktop":
            page.click("#panel-log .close")
    assert page.errors == []
