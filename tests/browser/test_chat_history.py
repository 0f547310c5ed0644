"""A page on a table with a long chat loads once and shows its state and the latest lines;
earlier lines come on request; a page whose seat was opened in another window says so and
does not take the seat back by itself (issue 10: the page used to retry from version 0
forever)."""

from __future__ import annotations

import pytest

from tarocchi.server.core.store import SqliteStore
from tarocchi.server.core.tables import CHAT_KEPT
from tests.browser.test_reconnect import SPY
from tests.conftest import DESKTOP
from tests.server.live import running_server
from tests.server.seat import new_room
from tests.trust.harness import run_async
from tests.server.seat import Seat

pytestmark = pytest.mark.browser

LINES = 600


def test_a_reload_on_a_long_chat_gets_its_state_and_earlier_lines_on_request(tmp_path, new_page):
    db = str(tmp_path / "chat.sqlite3")
    with running_server(db=db) as server:
        tokens = new_room(server.url, 3)

        async def join():
            for t in tokens:
                await (await Seat.open(server.ws_url, t)).close()
        run_async(join())
    store = SqliteStore(db)
    table_id = store.seat_of(tokens[0])[0]
    version = store.events(table_id)[-1][0]
    for n in range(LINES):
        version += 1
        store.append(table_id, version, "chat", {"seat": n % 3, "text": f"line {n}"})
    store.close()

    with running_server(db=db) as server:
        page = new_page(DESKTOP)
        page.add_init_script(SPY)
        page.goto(f"{server.url}/t/{tokens[0]}")
        page.locator(".conn.ok").wait_for()
        page.locator(".chat .chat-text", has_text=f"line {LINES - 1}").wait_for()
        texts = page.locator(".chat .chat-text").all_text_contents()
        assert texts == [f"line {n}" for n in range(LINES - CHAT_KEPT, LINES)]
        page.get_by_role("button", name="Earlier messages").click()
        page.locator(".chat .chat-text", has_text=f"line {LINES - CHAT_KEPT - 1}").wait_for()
        assert page.locator(".chat .chat-text").count() == 2 * CHAT_KEPT
        page.wait_for_timeout(1500)
        assert page.evaluate("() => window.__sockets.length") == 1  # loaded once, no retry loop
        assert page.errors == []


def test_a_seat_opened_in_another_window_says_so_and_waits_to_be_taken_back(live_server, new_page):
    token = new_room(live_server.url, 3)[1]
    first = new_page(DESKTOP)
    first.add_init_script(SPY)
    first.goto(f"{live_server.url}/t/{token}")
    first.locator(".conn.ok").wait_for()
    others = []
    for _ in range(4):  # the fifth socket on the link closes the oldest: the first page's
        p = new_page(DESKTOP)
        p.goto(f"{live_server.url}/t/{token}")
        p.locator(".conn.ok").wait_for()
        others.append(p)
    first.get_by_text("This seat is open in another window.").wait_for()
    first.wait_for_timeout(1500)
    assert first.evaluate("() => window.__sockets.length") == 1  # it did not reconnect by itself
    first.get_by_role("button", name="Play here").click()
    first.locator(".conn.ok").wait_for()
    assert first.evaluate("() => window.__sockets.length") == 2
    assert first.errors == []
