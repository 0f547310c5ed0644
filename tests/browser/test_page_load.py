"""Each page loads what it shows (issue 60): the lobby asks for no module only a table uses, a
table for none only the lobby uses; a repeat visit asks the network for no unchanged static file;
and a signed-out visitor's page asks nothing that fails (no GET /api/me, no console error)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.conftest import PHONE
from tests.server.seat import new_computer

pytestmark = pytest.mark.browser

TABLE_ONLY = ("/static/hint.js", "/static/replay.js", "/static/games/")
LOBBY_ONLY = ("/static/players.js",)
GAMES_ONLY = ("/static/archive.js",)  # a player's games (issue 58): loaded on that page alone
# The /static/ files the page took from the network (a 200 or a 304), not from the browser's cache.
FROM_NETWORK = """() => performance.getEntriesByType('resource')
  .filter((e) => new URL(e.name).pathname.startsWith('/static/') && e.transferSize > 0)
  .map((e) => new URL(e.name).pathname)"""


def watched(page) -> tuple[list[str], list[str]]:
    """The paths the page asks for, and its console's errors, from now on."""
    asked, errors = [], []
    page.on("request", lambda r: asked.append(urlsplit(r.url).path))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return asked, errors


def test_the_lobby_loads_no_table_module_and_a_repeat_visit_asks_for_no_unchanged_file(live_server, new_page):
    page = new_page(PHONE)
    asked, errors = watched(page)
    page.goto(live_server.url + "/")
    page.locator("#play-now-sicilian").wait_for()
    page.wait_for_load_state("networkidle")
    assert "/static/lobby.js" in asked and "/static/players.js" in asked
    assert not [u for u in asked if u.startswith(TABLE_ONLY + GAMES_ONLY)], asked
    assert "/api/me" not in asked and errors == []  # (signed out: nothing asked that fails)
    page.reload()
    page.locator("#play-now-sicilian").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.evaluate(FROM_NETWORK) == []
    assert page.errors == []


def test_a_table_loads_no_lobby_module(live_server, new_page):
    token = new_computer(live_server.url, 3)
    page = new_page(PHONE)
    asked, errors = watched(page)
    page.goto(f"{live_server.url}/t/{token}")
    page.locator(".hand .card").first.wait_for()
    assert {"/static/hint.js", "/static/replay.js", "/static/games/sicilian.js"} <= set(asked)
    assert not [u for u in asked if u.startswith(LOBBY_ONLY + GAMES_ONLY)], asked
    assert "/api/me" not in asked and errors == []
    page.reload()
    page.locator(".hand .card").first.wait_for()
    assert page.evaluate(FROM_NETWORK) == []
    assert page.errors == []


def test_the_daily_page_loads_its_own_module_and_no_table_or_lobby_one(live_server, new_page):
    page = new_page(PHONE)
    asked, errors = watched(page)
    page.goto(live_server.url + "/daily/sicilian")
    page.locator("#daily-play").wait_for()
    page.wait_for_load_state("networkidle")
    assert {"/static/daily.js", "/static/daily.i18n.js"} <= set(asked)
    assert not [u for u in asked if u.startswith(TABLE_ONLY + LOBBY_ONLY)], asked
    assert "/api/me" not in asked and errors == [] and page.errors == []


def test_the_report_dialog_comes_when_asked_and_the_moderators_page_loads_no_other_pages_module(live_server, new_page):
    from tests.browser.test_moderation import signed_up

    base = live_server.url
    other = new_page(PHONE)
    signed_up(other, base, "Bruno")
    page = new_page(PHONE)
    signed_up(page, base, "Anna")
    asked, errors = watched(page)
    page.goto(f"{base}/@/Bruno")
    page.locator("#report-player").wait_for()
    page.wait_for_load_state("networkidle")
    assert "/static/players.js" in asked
    assert not [u for u in asked if u in ("/static/report.js", "/static/mod.js") or u.startswith(TABLE_ONLY)], asked
    page.click("#report-player")
    page.get_by_role("dialog").wait_for()
    assert "/static/report.js" in asked and "/static/mod.js" not in asked
    asked.clear()
    page.goto(f"{base}/mod")  # (not a moderator: the page says so)
    page.locator("#mod-refused").wait_for()
    page.wait_for_load_state("networkidle")
    assert "/static/mod.js" in asked
    assert not [u for u in asked if u.startswith(TABLE_ONLY + LOBBY_ONLY)], asked
    assert len(errors) == 1 and "403" in errors[0], errors  # (/api/mod/reports said no; nothing else asked)
    assert page.errors == []
