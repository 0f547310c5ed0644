"""The real page against the server as a subprocess: after a SIGKILL and a restart on the same
port it reconnects by itself, without a reload, and the player acts again; in a room it marks an
away seat, offers the computer after the room's time, and drops the mark when the human is back."""

from __future__ import annotations

import contextlib
import json

import pytest
from websockets.sync.client import connect

from tests.browser.driver import TURN_OR_COUNT, deal_over, take_turn, version
from tests.faults.server import ServerProcess
from tests.server.seat import new_computer, new_room

pytestmark = pytest.mark.browser


def test_page_reconnects_after_sigkill_and_restart_and_plays_on(tmp_path, new_page):
    server = ServerProcess(str(tmp_path / "page.sqlite3"), bot_delay=0.05).start()
    try:
        token = new_computer(server.url, 3)
        page = new_page()
        page.goto(f"{server.url}/t/{token}")
        page.wait_for_function(TURN_OR_COUNT)
        page.evaluate("() => { window.__same_page = true; }")  # gone if the page reloads
        seen = version(page)
        hand = page.locator(".hand .card").all_inner_texts()
        server.kill9()
        page.locator(".conn.lost").wait_for()
        server.start()  # same database, same port
        page.locator(".conn.ok").wait_for(timeout=30_000)
        assert page.evaluate("() => window.__same_page === true"), "the page was reloaded"
        assert version(page) == seen
        assert page.locator(".hand .card").all_inner_texts() == hand
        page.wait_for_function(TURN_OR_COUNT)
        assert not deal_over(page)
        before = version(page)
        take_turn(page)
        assert version(page) > before
        assert page.errors == []
    finally:
        server.stop()


def guest(stack: contextlib.ExitStack, server: ServerProcess, token: str):
    ws = stack.enter_context(connect(f"{server.ws_url}/ws/{token}"))
    ws.send(json.dumps({"type": "hello", "since": 0}))
    return ws


def test_page_marks_an_away_seat_offers_the_computer_and_sees_the_human_back(tmp_path, new_page):
    server = ServerProcess(str(tmp_path / "room.sqlite3"), bot_delay=5, away_timeout=1.0).start()
    try:
        with contextlib.ExitStack() as stack:
            tokens = new_room(server.url, 3)
            page = new_page()
            page.goto(f"{server.url}/t/{tokens[0]}")
            leaving = guest(stack, server, tokens[1])
            guest(stack, server, tokens[2])
            panel = page.locator(".seat[data-seat='1']")
            page.locator(".table-page[data-status='playing']").wait_for()
            assert panel.locator(".tag.away").count() == 0
            leaving.close()  # guest 1 drops out
            panel.locator(".tag.away").wait_for()
            assert panel.locator(".tag.away").inner_text() == "away"
            page.click("button.lang")
            assert panel.locator(".tag.away").inner_text() == "assente"
            page.click("button.lang")
            at = version(page)
            # After the room's time the button shows up by itself, on the away seat only.
            button = panel.locator("button.takeover")
            button.wait_for(timeout=10_000)
            assert page.locator("button.takeover").count() == 1
            assert "guest 1" in (button.get_attribute("aria-label") or "").lower()
            assert version(page) == at
            button.click()
            panel.locator(".tag.away").wait_for(state="detached")
            page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=at)
            standin = panel.locator(".tag", has_text="computer")
            assert standin.count() == 1
            assert page.locator("button.takeover").count() == 0
            # Guest 1 opens the link again: the seat is the human's, no mark.
            guest(stack, server, tokens[1])
            standin.wait_for(state="detached")
            assert panel.locator(".tag.away").count() == 0
            assert page.errors == []
    finally:
        server.stop()
