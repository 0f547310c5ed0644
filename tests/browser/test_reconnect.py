"""After a dropped connection the page reconnects by itself, says hello with the last version
it saw, and the seat carries on where it was (docs/protocol.md, "Reconnecting")."""

from __future__ import annotations

import json

import pytest

from tests.conftest import PHONE
from .driver import TURN_OR_COUNT, deal_over, take_turn, version

pytestmark = pytest.mark.browser

# Keep a hand on every socket the page opens and every frame it sends.
SPY = """
window.__sockets = []; window.__sent = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
  send(data) { window.__sent.push(data); return super.send(data); }
};
"""


def test_reconnects_after_a_drop_and_carries_on(live_server, new_page):
    page = new_page(PHONE)
    page.add_init_script(SPY)
    page.goto(live_server.url + "/")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.wait_for_function(TURN_OR_COUNT)
    seen = version(page)
    assert seen > 0
    page.evaluate("() => window.__sockets.at(-1).close()")  # the line drops
    page.locator(".conn.lost").wait_for()
    page.locator(".conn.ok").wait_for()
    assert page.evaluate("() => window.__sockets.length") == 2
    hellos = [json.loads(m) for m in page.evaluate("() => window.__sent") if '"hello"' in m]
    assert [h["since"] for h in hellos] == [0, seen]
    # And the game goes on from the same place.
    page.wait_for_function(TURN_OR_COUNT)
    if not deal_over(page):
        before = version(page)
        take_turn(page)
        assert version(page) > before
    assert page.errors == []
