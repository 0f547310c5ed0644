"""Chat: shown as text wherever it appears, limited in size, and each socket has a message
budget (a burst, then so many a second) past which it is told why and closed (4429)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from tarocchi.server.core.messages import BURST, CLOSE_TOO_MANY, MAX_FRAME, PER_SECOND, TOO_MANY
from tarocchi.server.core.tables import CHAT_EMPTY, CHAT_LIMIT, CHAT_LONG
from tests.server.seat import Seat
from tests.trust.harness import new_room_ids, open_all, run_async, running

ATTACKS = [
    '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>',
    '"><svg onload="window.__pwned=2"></svg><b onmouseover="window.__pwned=3">bold</b>',
    "{names}{reason}&lt;i&gt;&amp;<iframe src=\"javascript:window.parent.__pwned=4\"></iframe>",
]
NOTHING_RAN = """() => window.__pwned === undefined
    && document.querySelectorAll('[onerror],[onload],[onmouseover],iframe,.chat-text *').length === 0"""


@pytest.fixture(scope="module")
def server():
    with running(seed=9) as s:
        yield s


def chat_texts(page) -> list[str]:
    return page.locator(".chat .chat-text").evaluate_all("els => els.map(e => e.textContent)")


def wait_line(page, text: str) -> None:
    page.wait_for_function("t => [...document.querySelectorAll('.chat .chat-text')].some(e => e.textContent === t)",
                           arg=text)


@pytest.mark.browser
def test_chat_markup_is_text_in_the_waiting_room_at_the_table_and_after_a_reload(server, browser):
    """Two browsers (English and Italian) in a three-seat room, the third seat a socket: the
    markup posted in the waiting room, at the table, and replayed to a reloaded page shows as
    the same literal text everywhere, and none of it runs."""
    _, tokens = new_room_ids(server.url, 3)
    contexts = [browser.new_context(locale=loc, viewport={"width": 1366, "height": 900}) for loc in ("en-GB", "it-IT")]
    try:
        pages = []
        for ctx, token in zip(contexts, tokens[:2]):
            ctx.set_default_timeout(15_000)
            page = ctx.new_page()
            page.errors = []
            page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
            page.goto(f"{server.url}/t/{token}")
            page.locator(".waiting").wait_for()
            pages.append(page)
        host, guest = pages
        # The waiting room's chat.
        host.fill("#chat-input", ATTACKS[0])
        host.press("#chat-input", "Enter")
        for page in pages:
            wait_line(page, ATTACKS[0])
            assert page.evaluate(NOTHING_RAN)
            assert page.locator(".waiting").count() == 1
        # The third seat joins from a socket: the table starts; it posts more markup.

        async def third():
            seat = await Seat.open(server.ws_url, tokens[2])
            await seat.wait_state(lambda st: st["view"] is not None)
            for text in ATTACKS[1:2]:
                await seat.send({"type": "chat", "text": text})
                line = await seat.until(lambda m: m["type"] == "chat" and m["seat"] == 2)
                assert line["text"] == text and line["name"] == "guest 2"  # stored and sent as is
            await seat.close()
        run_async(third())
        for page in pages:
            page.locator(".hand .card").first.wait_for()
            wait_line(page, ATTACKS[1])
            assert page.evaluate(NOTHING_RAN)
        # The guest posts from the table, then reloads: the replayed lines are text too.
        guest.fill("#chat-input", ATTACKS[2])
        guest.press("#chat-input", "Enter")
        wait_line(host, ATTACKS[2])
        guest.reload()
        guest.locator(".hand .card").first.wait_for()
        for text in ATTACKS:
            wait_line(guest, text)
        for page in pages:
            assert chat_texts(page) == ATTACKS, (page is guest, chat_texts(page))
            assert page.evaluate(NOTHING_RAN)
            # The speaker is named by the seat's fixed name, as text.
            names = page.locator(".chat .chat-lines b").evaluate_all("els => els.map(e => e.textContent)")
            assert len(names) == 3 and all(n.endswith(": ") for n in names)
            assert page.errors == []
    finally:
        for ctx in contexts:
            ctx.close()


def test_chat_lines_have_a_size_limit(server):
    async def body():
        _, tokens = new_room_ids(server.url, 3)
        seats = await open_all(server.ws_url, tokens)
        me = seats[1]
        version = me.state["version"]
        await me.send({"type": "chat", "text": "é" * CHAT_LIMIT})  # at the limit: fine
        line = await me.until(lambda m: m["type"] == "chat")
        assert line["version"] == version + 1 and len(line["text"]) == CHAT_LIMIT
        for s in (seats[0], seats[2]):
            assert (await s.until(lambda m: m["type"] == "chat"))["version"] == version + 1
        version += 1
        for text, kind, words in [("x" * (CHAT_LIMIT + 1), "refused", CHAT_LONG),
                                  (" \n\t ", "refused", CHAT_EMPTY),
                                  ("y" * (CHAT_LIMIT * 4 + 1), "error", "bad message"),
                                  ("z" * MAX_FRAME, "error", f"at most {MAX_FRAME} bytes")]:
            await me.send({"type": "chat", "text": text})
            answer = await me.until(lambda m: True, timeout=5)
            assert answer["type"] == kind and words in answer["reason"], answer
            if kind == "refused":
                assert answer == {"type": "refused", "id": None, "reason": words, "version": version}
        for s in seats:
            assert await s.quiet(0.2) == []
        await me.send({"type": "hello", "since": version})
        assert (await me.until(lambda m: m["type"] == "state"))["version"] == version
        for s in seats:
            await s.close()
    run_async(body())


async def flood(ws, n: int, message: str) -> None:
    for _ in range(n):
        await ws.send(message)


def test_a_socket_over_its_message_budget_is_told_and_closed(server):
    """A burst over the budget gets an error with the reason, then a close with 4429 and the
    same reason. The table and the other seats carry on; the seat reconnects at once."""
    async def body():
        _, tokens = new_room_ids(server.url, 3)
        seats = await open_all(server.ws_url, tokens)
        version = seats[0].state["version"]
        async with websockets.connect(f"{server.ws_url}/ws/{tokens[1]}") as ws:
            await ws.send(json.dumps({"type": "hello", "since": version}))
            await flood(ws, BURST + 20, json.dumps({"type": "next"}))
            got = []
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            assert closed.value.rcvd.code == CLOSE_TOO_MANY == 4429
            assert closed.value.rcvd.reason == TOO_MANY
            assert got[-1] == {"type": "error", "reason": TOO_MANY}
            refused = [m for m in got if m["type"] == "refused"]
            assert BURST - 1 - 5 <= len(refused) <= BURST + 5  # the burst was answered, then no more
        # Nothing changed for anyone, and the seat comes back on a new socket.
        back = await Seat.open(server.ws_url, tokens[1], since=version)
        assert back.state["version"] == version
        actor = next(s for s in seats if s.my_turn())
        await actor.act("passo", "after-flood")
        for s in seats + [back]:
            await s.wait_state(lambda st: st["version"] == version + 1)
        for s in seats + [back]:
            await s.close()
    run_async(body())


def test_a_socket_within_its_budget_is_never_closed(server):
    """The burst, then messages at the allowed rate for a while: all answered, still open."""
    async def body():
        _, tokens = new_room_ids(server.url, 3)
        await open_all(server.ws_url, tokens)
        async with websockets.connect(f"{server.ws_url}/ws/{tokens[0]}") as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            await flood(ws, BURST - 10, json.dumps({"type": "next"}))
            gap = 1.5 / PER_SECOND
            start = time.monotonic()
            sent = BURST - 9
            while time.monotonic() - start < 1.5:
                await ws.send(json.dumps({"type": "next"}))
                sent += 1
                await asyncio.sleep(gap)
            answers = []
            while len([m for m in answers if m["type"] == "refused"]) < sent - 1:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            assert all(m["type"] in ("state", "history", "refused") for m in answers), answers[-3:]
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "state":
                pass
    run_async(body())
