"""Issue 41's story in the browser: a three-player Renaissance match by correspondence played to
its end in pages closed between moves, each opened from the link a delivered push message
brought (the test's own push service) in a new tab of that player's own browser (a context of
its own, signed in to that player's account: its cookie and its cache), as a notification's
click opens one (sw.js). What the page shows as the player's (their turn; a trick they won
leads the next; their own card ending a deal asks for their Next deal) they do there and then,
as a person would; whatever else is theirs, a push tells them.

The pages play from the push for the card that ends the second deal to the match's end: its
Next deal and the last deal, each move's page opened from its push. Until then each push is
answered by the player's own socket (the server's test of the same story, move by move,
tests/server/test_correspondence.py): the first two deals' pages would only repeat the last
deal's, and a page opened from a push takes a second (docs/benchmarks.md, issue 60)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tarocchi.bots import make_player
from tests.conftest import DESKTOP, PHONE
from tests.push_service import PushService
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_correspondence import play_what_is_theirs
from .driver import take_turn, version

pytestmark = [pytest.mark.browser, pytest.mark.slow]
# A match of one round (A16): three deals of 76 moves (the dealer's discard, 25 tricks of three).
DEAL_MOVES = 1 + 25 * 3
MATCH_MOVES = 3 * DEAL_MOVES
PAGES_FROM = 2  # the deal whose last card the pages play, and everything after it


def own_browser(browser, base: str, cookie: str, address: str, size: dict):
    """A player's own browser (a context), signed in to their account, at their own address."""
    context = browser.new_context(viewport=size, extra_http_headers={"X-Forwarded-For": address},
                                  service_workers="block")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "tarocchi_session", "value": cookie, "url": base}])
    return context


def new_tab(context):
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def settle(page) -> None:
    """The page has its state, drawn with its game's module and deck (until they load, a turn is
    not shown as the seat's). (The server takes a trick at once, trick_pause=0: the frame after a
    trick's last card already shows who leads the next.)"""
    page.wait_for_function("() => { const p = document.querySelector('.table-page');"
                           " return Number(p?.dataset.version || 0) > 0 && p.hasAttribute('data-ready'); }")


# What a push told the player is theirs, shown: their turn, or the count with their Next deal.
THEIRS = """() => !!document.querySelector('.status.yours')
  || (document.querySelector('.table-page')?.dataset.status === 'between' && !!document.querySelector('#next-deal:not([disabled])'))"""


# What the page shows, in one round trip to the browser (each costs tens of milliseconds on a
# loaded machine, and a match has 228 moves): whose turn, the table's status, whether its Next deal is pressed.
SHOWN = """() => ({yours: !!document.querySelector('.status.yours'),
  status: document.querySelector('.table-page')?.dataset.status || '',
  nextDone: !!document.querySelector('#next-deal[disabled]')})"""


def play_here(page) -> int:
    """What the page shows as this player's: their cards while it is their turn, their Next
    deal once a deal is counted. How many moves."""
    moves = 0
    while True:
        shown = page.evaluate(SHOWN)
        if shown["yours"] and shown["status"] == "playing":
            before = version(page)
            take_turn(page, prefer="")  # (waits for the frame after the move: the version after before)
            moves += 1
            assert version(page) > before
        elif shown["status"] == "between" and not shown["nextDone"]:
            before = version(page)
            page.locator("#next-deal").click()  # (waits for the count's button to be drawn)
            page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before)
        else:
            return moves


def pages_take_over(state: dict) -> bool:
    """The move is the card that ends deal PAGES_FROM: the seat's last one, into a trick of the
    other two's."""
    view = state["view"]
    return (state["table"]["deal_number"] == PAGES_FROM and view["phase"] == "play" and len(view["hand"]) == 1
            and len(view["trick"]) == 2)


async def answer_on_socket(ws_url: str, link: str, player) -> tuple[int, bool]:
    """What a push told the player is theirs, answered from their own socket (the seat's link,
    as the page would open it): their moves, their Next deal. How many moves, and whether the
    pages take over here (the card that ends deal PAGES_FROM, left to the page)."""
    seat = await Seat.open(ws_url, link.removeprefix("/t/"))
    try:
        moves = await play_what_is_theirs(seat, player, leave=pages_take_over)
        return moves, seat.my_turn()
    finally:
        await seat.close()


def test_a_renaissance_match_by_correspondence_move_by_move_from_pushed_links(browser):
    with PushService() as service, running_server(push_hosts=(service.origin,), bot_delay=0.02, trick_pause=0) as server:
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
        own = [own_browser(browser, base, cookies[n], f"192.0.2.{n + 1}", sizes[n]) for n in range(3)]
        started, handled, moves, pages = time.monotonic(), 0, 0, 0
        players = [make_player("rule", n, "renaissance") for n in range(3)]
        sockets = ThreadPoolExecutor(1)  # (its own event loop: Playwright's sync API holds this thread's)
        in_pages = False  # whether the pages answer the pushes now
        page_moves = 0
        # Everyone sits down once, each in a tab closed at once; the last one's arrival starts
        # the match, and whoever it is then plays from the page they are on.
        for n, link in enumerate(made["links"]):
            page = new_tab(own[n])
            page.goto(base + link)
            page.locator(".table-page").wait_for()
            if n == 2:  # (the match starts as they sit down: if its first turn is theirs, they see it)
                page.wait_for_function("() => document.querySelector('.table-page')?.dataset.status === 'playing'")
                settle(page)
                moves += play_here(page)
            page.close()
        while True:
            message = service.wait(lambda m: service.messages.index(m) >= handled, timeout=30)
            handled = service.messages.index(message) + 1
            if message["what"] == "ended":
                break
            if message["what"] not in ("turn", "counted"):
                continue
            n = next(i for i, b in enumerate(browsers) if message["browser"] in b.endpoint)
            if not in_pages:
                played, in_pages = sockets.submit(asyncio.run, answer_on_socket(server.ws_url, message["url"], players[n])).result()
                moves += played
                if not in_pages:
                    continue
            page = new_tab(own[n])
            page.goto(base + message["url"], wait_until="commit")  # the notification's click opens this
            pages += 1
            settle(page)
            page.wait_for_function(THEIRS)
            played = play_here(page)
            moves += played
            page_moves += played
            assert page.errors == [], page.errors
            page.close()
        sockets.shutdown()
        for context in own:
            context.close()
        # The pages played the second deal's last card and the whole third deal, each move from
        # a page a push opened (a trick won leads the next from the same page).
        assert moves == MATCH_MOVES and page_moves == 1 + DEAL_MOVES and pages > DEAL_MOVES // 2, (moves, page_moves, pages)
        # Those not looking are told the match ended (the last to play saw it), and nothing after.
        for k, pushed in enumerate(browsers):
            if k != n:  # (n: whose page played the match's last card)
                service.wait(lambda m, pushed=pushed: m["what"] == "ended" and m["browser"] in pushed.endpoint)
        assert all(m["what"] == "ended" for m in service.messages[handled - 1:])
        profile = clients[2].get("/api/players/Postino2").json()
        assert profile["matches"][0]["game"] == "renaissance"
        print(f"{moves} moves, {page_moves} of them from {pages} pages opened by pushes, {time.monotonic() - started:.0f} s")
