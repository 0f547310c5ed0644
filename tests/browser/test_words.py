"""Issue 38, the words that confused or misled players (two or three at once, every game, at
1366x800, 390x844 and 360x640, in English and Italian): each screen here is looked at in both
languages at every size where it shows, with no axe fault."""

from __future__ import annotations

import pytest

from tests.server.live import running_server

from .checks import SIZES
from .driver import resize
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
