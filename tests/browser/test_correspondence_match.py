"""Issue 41's story in the browser: a three-player Renaissance match by correspondence whose first
BROWSER_MOVES moves are played in browser contexts closed between moves, each made from the link
a delivered push message brought (the test's own push service), in a fresh context signed in to
that player's account; what the page shows as the player's (a trick won leads the next, their
own card ending a deal asks for their Next deal) they play there and then, as a person would.
The rest of the match is played the same way over sockets, to its end (a page in the browser
costs about a second a move: the whole match, some 240 pages, would add minutes to the suite;
tests/server/test_correspondence.py plays a whole one over sockets)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import DESKTOP, PHONE
from tests.push_service import PushService
from tests.server.live import running_server
from .driver import my_turn, take_turn, version

pytestmark = [pytest.mark.browser, pytest.mark.slow]
BROWSER_MOVES = 24  # moves made in fresh browser contexts (a second each), the rest over sockets


def open_as(browser, base: str, cookie: str, address: str, size: dict):
    context = browser.new_context(viewport=size, extra_http_headers={"X-Forwarded-For": address},
                                  service_workers="block")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "tarocchi_session", "value": cookie, "url": base}])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return context, page


def settle(page) -> None:
    """The page has its state, and a trick just taken has been shown (the table's pause)."""
    page.wait_for_function("() => Number(document.querySelector('.table-page')?.dataset.version || 0) > 0")
    page.wait_for_timeout(150)


def play_here(page) -> int:
    """What the page shows as this player's: their cards while it is their turn, their Next
    deal once a deal is counted. How many moves."""
    moves = 0
    while True:
        if my_turn(page) and status(page) == "playing":
            before = version(page)
            take_turn(page, prefer="")
            moves += 1
            assert version(page) > before
        elif status(page) == "between" and not page.locator("#next-deal[disabled]").count():
            before = version(page)
            page.locator("#next-deal").click()  # (waits for the count's button to be drawn)
            page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before)
        else:
            return moves
        settle(page)


async def finish_over_sockets(server, service, handled: int, links: list[str], browsers) -> None:
    """The rest of the match, each move from a pushed link (tests/server/test_correspondence.py's way)."""
    from tarocchi.bots import make_player
    from tests.server.seat import Seat
    from tests.server.test_correspondence import play_what_is_theirs

    players = [make_player("rule", n, "renaissance") for n in range(3)]
    while True:
        message = service.wait(lambda m: service.messages.index(m) >= handled, timeout=30)
        handled = service.messages.index(message) + 1
        if message["what"] == "ended":
            return
        if message["what"] not in ("turn", "counted"):
            continue
        n = next(i for i, b in enumerate(browsers) if message["browser"] in b.endpoint)
        page = await Seat.open(server.ws_url, message["url"].removeprefix("/t/"))
        await play_what_is_theirs(page, players[n])
        await page.close()


def status(page) -> str:
    return page.get_attribute(".table-page", "data-status") or ""


def test_a_renaissance_match_by_correspondence_move_by_move_from_pushed_links(browser):
    with PushService() as service, running_server(push_hosts=(service.origin,), bot_delay=0.02,
                                                  trick_pause=0.02) as server:
        base = server.url
        browsers, cookies, clients = [service.browser() for _ in range(3)], [], []
        for n, pushed in enumerate(browsers):
            client = httpx.Client(base_url=base, headers={"X-Forwarded-For": f"192.0.2.{n + 1}"})
            assert client.post("/api/account", json={"name": f"Postino{n}", "password": "segreto123"}).status_code == 201
            assert client.post("/api/push", json=pushed.subscription).status_code == 204
            cookies.append(client.cookies["tarocchi_session"])
            clients.append(client)
        made = clients[0].post("/api/rooms", json={"seats": 3, "game": "renaissance", "correspondence": 2}).json()
        for client, link in zip(clients[1:], made["links"][1:]):
            client.post("/api/me/seats", json={"links": [link]})
        sizes = [DESKTOP, PHONE, DESKTOP]
        started = time.monotonic()
        # Everyone sits down once, each in a context closed at once; the last one's arrival
        # starts the match, and whoever it is then plays from the page they are on.
        for n, link in enumerate(made["links"]):
            context, page = open_as(browser, base, cookies[n], f"192.0.2.{n + 1}", sizes[n])
            page.goto(base + link)
            page.locator(".table-page").wait_for()
            if n == 2:  # (the match starts as they sit down: if its first turn is theirs, they see it)
                page.wait_for_function("() => document.querySelector('.table-page')?.dataset.status === 'playing'")
                settle(page)
                play_here(page)
            context.close()
        handled, moves, pages = 0, 0, 0
        while True:  # the first deal, in the browser
            message = service.wait(lambda m: service.messages.index(m) >= handled, timeout=30)
            if message["what"] in ("counted", "ended") or moves >= BROWSER_MOVES:
                break  # (the rest of the match: over sockets)
            handled = service.messages.index(message) + 1
            if message["what"] != "turn":
                continue
            n = next(i for i, b in enumerate(browsers) if message["browser"] in b.endpoint)
            context, page = open_as(browser, base, cookies[n], f"192.0.2.{n + 1}", sizes[n])
            page.goto(base + message["url"])  # the notification's click opens this
            page.locator(".table-page").wait_for()
            pages += 1
            settle(page)
            assert my_turn(page), message
            moves += play_here(page)
            assert page.errors == [], page.errors
            context.close()
        assert moves >= BROWSER_MOVES and pages > 10
        with ThreadPoolExecutor(1) as other:  # (a loop of its own: Playwright's runs in this thread)
            other.submit(asyncio.run, finish_over_sockets(server, service, handled, made["links"], browsers)).result()
        profile = clients[2].get("/api/players/Postino2").json()
        assert profile["matches"][0]["game"] == "renaissance"
        print(f"{moves} moves from {pages} pages opened by pushes, {time.monotonic() - started:.0f} s")
