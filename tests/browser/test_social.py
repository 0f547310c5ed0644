"""Issue 58 in the browser: friends, challenges and the bell (tarocchi/web/static/social.js; the
server's side is tarocchi/server/social.py).

- A challenge made from the challenged player's profile page (a name nobody has refused in the
  server's words first), accepted from the lobby in the other player's browser, the third named
  player accepting by the API and playing from a socket of their own; both pages go to their seat
  from the lobby's "Go to your seat" and play the Sicilian match (three deals at three) to its
  end, clicking what the table shows; the challenger's bell then has the rated result, linked to
  the match's replay.
- The bell followed at 360x640, 390x844 and a desktop, in English and Italian: its count in its
  accessible name, the panel inside the screen, axe clean, Escape closing it with the focus back
  on the button, the count gone after opening it (read on every device: another page of the same
  account shows none), and a signed-out page showing no bell and asking for no social module.
- Follow, block (confirmed) and the lobby's list of the players one follows."""

from __future__ import annotations

import asyncio
import re
import threading

import httpx
import pytest

from tests.conftest import DESKTOP, PHONE
from tests.server.live import running_server

from .checks import SMALL, check_axe, check_inside
from .driver import resize, take_turn, version
from .test_accounts import fits, play_match, sign_up

pytestmark = pytest.mark.browser

PASSWORD = "segreto123"
# What the table page shows, in one round trip: whose turn, the table's status, its Next deal pressed.
SHOWN = """() => ({yours: !!document.querySelector('.status.yours'),
  status: document.querySelector('.table-page')?.dataset.status || '',
  nextDone: !!document.querySelector('#next-deal[disabled]')})"""
# Something is this page's to do, or the match is over.
THEIRS_OR_OVER = """() => { const p = document.querySelector('.table-page');
  if (!p || !p.hasAttribute('data-ready')) return false;
  const s = p.dataset.status;
  return s === 'over' || (s === 'playing' && !!document.querySelector('.status.yours'))
    || (s === 'between' && !!document.querySelector('#next-deal:not([disabled])')); }"""


def account(base: str, name: str, n: int) -> httpx.Client:
    """A signed-up account's client (its session cookie), at an address of its own."""
    client = httpx.Client(base_url=base, headers={"X-Forwarded-For": f"192.0.2.{n}"})
    assert client.post("/api/account", json={"name": name, "password": PASSWORD}).status_code == 201
    return client


def signed_in(page, base: str, client: httpx.Client) -> None:
    """The page's browser signed in to the client's account (its session cookie and the hint)."""
    page.context.add_cookies([{"name": k, "value": v, "url": base} for k, v in client.cookies.items()])


def bell_count(page) -> int:
    label = page.locator("#bell-button").get_attribute("aria-label")
    found = re.search(r"(\d+)", label or "")
    assert found, label
    return int(found[1])


def play_to_the_end(pages, on_first_turn) -> int:
    """Each page does what it shows as its own (its cards on its turn, its Next deal after a
    count) until both show the match over; how many moves the pages made. ``on_first_turn(page)``
    runs at each page's first turn."""
    moves = 0
    turned = set()
    while True:
        busy = False
        for page in pages:
            shown = page.evaluate(SHOWN)
            if shown["yours"] and shown["status"] == "playing":
                if id(page) not in turned:
                    turned.add(id(page))
                    on_first_turn(page)
                take_turn(page)  # (a "vado solo" where offered: every deal is played out)
                moves += 1
                busy = True
            elif shown["status"] == "between" and not shown["nextDone"]:
                before = version(page)
                page.locator("#next-deal").click()
                page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before)
                busy = True
        if all(page.evaluate(SHOWN)["status"] == "over" for page in pages):
            return moves
        if not busy:  # (the other seats are playing: wait until one of these pages has its own to do)
            for page in pages:
                try:
                    page.wait_for_function(THEIRS_OR_OVER, timeout=500)
                    break
                except Exception:  # noqa: BLE001  (Playwright's timeout: the next page)
                    continue


def test_a_challenge_from_a_profile_accepted_in_the_lobby_is_played_to_its_end(new_page):
    with running_server(bot_delay=0.02, trick_pause=0) as server:
        base = server.url
        ciro = account(base, "Ciro", 3)
        alba, bice = new_page(DESKTOP), new_page(PHONE, locale="it-IT")
        sign_up(alba, base, "Alba", PASSWORD)
        sign_up(bice, base, "Bice", PASSWORD)
        # Alba challenges Bice from Bice's profile, naming Ciro for the third seat.
        alba.goto(f"{base}/@/Bice")
        alba.locator("#challenge").click()
        form = alba.locator("#challenge-form")
        form.wait_for()
        assert alba.locator("#challenge-game").evaluate("e => e.value") == "sicilian"
        alba.fill("#challenge-other-0", "Nessuno")
        alba.click("#challenge-send")
        error = alba.locator("#social-error .error")
        error.wait_for()
        assert error.inner_text() == "No player has that name: Nessuno."  # (the server's words, nothing stored)
        assert httpx.get(base + "/api/me/challenges", cookies=dict(ciro.cookies)).json()["challenges"] == []
        check_axe(alba, "a profile's challenge form with the server's refusal")
        alba.fill("#challenge-other-0", "Ciro")
        alba.check("#challenge-rated")
        with alba.expect_request(lambda r: r.url.endswith("/api/challenges") and r.method == "POST") as sent:
            alba.click("#challenge-send")
        assert sent.value.post_data_json == {"to": ["Bice", "Ciro"], "game": "sicilian", "seats": 3, "rated": True, "open": False}
        alba.locator("#social-done .ok-note").wait_for()
        assert alba.locator("#social-error .error").count() == 0
        # Alba's lobby lists it, to whom, with Cancel; Bice's (in Italian) with Accept and Decline.
        alba.goto(base + "/")
        outgoing = alba.locator("#challenges .challenge.outgoing")
        outgoing.wait_for()
        assert "To Bice, Ciro" in outgoing.inner_text() and outgoing.locator(".challenge-cancel").count() == 1
        bice.goto(base + "/")
        incoming = bice.locator("#challenges .challenge.incoming")
        incoming.wait_for()
        text = incoming.inner_text()
        assert "Da Alba" in text and "Tarocchi siciliani · 3 posti · classificata · Senza orologio" in text, text
        assert bell_count(bice) == 1  # (the challenge is on Bice's bell too)
        check_axe(bice, "the lobby at 390x844 in Italian with a challenge")
        incoming.locator(".challenge-accept").click()
        bice.locator("#challenges .challenge.incoming :text('Hai accettato')").wait_for()
        # (Alba's list says who accepted, in its next look: it looks often while one is pending)
        alba.locator("#challenges .challenge-accepted:text('Accepted by Bice')").wait_for()
        (challenge,) = ciro.get("/api/me/challenges").json()["challenges"]
        seated = ciro.post(f"/api/challenges/{challenge['id']}/accept").json()
        assert seated["status"] == "accepted" and seated["link"].startswith("/t/")
        # Both lobbies give the seat; the third plays from a socket of its own.
        for page in (alba, bice):
            go = page.locator("#challenges a.go-seat")
            go.wait_for()
            go.click()
            page.wait_for_url("**/t/**")
        links = {page.url.split(base, 1)[1] for page in (alba, bice)} | {seated["link"]}
        assert len(links) == 3  # (each their own seat)
        ended: dict = {}
        third = threading.Thread(target=lambda: ended.update(end=asyncio.run(play_match(
            server.ws_url, [seated["link"].removeprefix("/t/")], "sicilian", headers={"Cookie": f"tarocchi_session={ciro.cookies['tarocchi_session']}"}))))
        third.start()
        def with_the_bell(page):
            """A signed-in seat's top bar has the bell: the hand and the status stay inside the
            screen, at the page's size and at 360x640 (then back)."""
            size = page.viewport_size
            assert page.locator(".table-page .topbar #bell-button").count() == 1
            check_inside(page, f"a challenge's table with the bell at {size}")
            if size != DESKTOP:
                resize(page, SMALL)
                check_inside(page, "a challenge's table with the bell at 360x640")
                check_axe(page, "a challenge's table with the bell at 360x640, in Italian")
                resize(page, size)

        moves = play_to_the_end([alba, bice], with_the_bell)
        third.join(60)
        assert ended["end"]["table"]["status"] == "over" and ended["end"]["table"]["rated"] is True
        assert moves > 20, moves  # (three deals: each page played its cards)
        for page in (alba, bice):
            assert page.locator(".table-page").get_attribute("data-status") == "over"
            page.locator(".rating-changes li").nth(2).wait_for()
        # Alba's bell: Bice and Ciro accepted, and the rated result with the match's replay.
        alba.goto(base + "/")
        alba.locator("#bell-button").click()
        rated = alba.locator("#bell-panel .bell-item[data-kind='rated']")
        rated.wait_for()
        assert re.search(r"Sicilian tarocchi \(3 seats\) ended: your rating 1500 → \d+", rated.inner_text()), rated.inner_text()
        replay = rated.locator("a.bell-link").get_attribute("href")
        assert re.fullmatch(r"/r/[A-Za-z0-9_-]+\.1/1", replay) and httpx.get(f"{base}/api/replay/{replay[3:]}").status_code == 200
        assert alba.locator("#bell-panel .bell-item[data-kind='challenge_accepted']").count() >= 1
        # The link opens the match's replay, whose top bar has the bell too, all read now.
        rated.locator("a.bell-link").click()
        alba.wait_for_url("**/r/**")
        alba.locator(".replay-page .topbar #bell-button").wait_for()
        assert bell_count(alba) == 0
        assert alba.errors == [] and bice.errors == []


def open_bell(page, where: str) -> None:
    """The bell opened by keyboard: the panel shows, inside the screen, axe clean; Escape closes
    it and the focus is back on the button."""
    button = page.locator("#bell-button")
    button.focus()
    page.keyboard.press("Enter")
    panel = page.locator("#bell-panel")
    panel.wait_for()
    assert button.get_attribute("aria-expanded") == "true"
    box = panel.bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] and box["y"] + 10 < size["height"], (where, box, size)
    check_axe(page, f"{where}, the bell open")
    fits(page, f"{where}, the bell open")
    page.keyboard.press("Escape")
    panel.wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement?.id") == "bell-button"


def test_the_bell_at_every_size_in_both_languages_and_the_friends_list(new_page, live_server):
    base = live_server.url
    dora, ezio = account(base, "Dora", 1), account(base, "Ezio", 2)
    # Ezio's bell: three challenges from Dora (a 4-seat one with an open seat).
    made = [dora.post("/api/challenges", json={"to": ["Ezio"], "seats": seats, "game": "sicilian", "clock": 30})
            for seats in (3, 4, 3)]
    assert [r.status_code for r in made] == [201, 201, 201]
    assert dora.post("/api/me/friends", json={"name": "Ezio"}).status_code == 204
    assert ezio.post("/api/me/friends", json={"name": "Dora"}).status_code == 204
    # Signed out: no bell, no social module asked for.
    stranger = new_page(SMALL)
    asked = []
    stranger.on("request", lambda r: asked.append(r.url))
    stranger.goto(base + "/")
    stranger.locator("#play-now-sicilian").wait_for()
    stranger.wait_for_load_state("networkidle")
    assert stranger.locator("#bell-button").count() == 0
    assert not [u for u in asked if "/static/social" in u or "/api/me" in u], asked
    pages = {"small": new_page(SMALL), "phone": new_page(PHONE, locale="it-IT"), "desktop": new_page(DESKTOP)}
    for page in pages.values():
        signed_in(page, base, ezio)
    # Every page of the site has it: the lobby, the account, a profile, a leaderboard, a table.
    small = pages["small"]
    for path in ("/account", "/@/Dora", "/leaderboard/sicilian"):
        small.goto(base + path)
        small.locator("#bell-button").wait_for()
        assert bell_count(small) == 3, path
    # (here, on Dora's profile at 360x640: the challenge form fits and is axe clean)
    small.goto(base + "/@/Dora")
    small.click("#challenge")
    small.locator("input[name='challenge-seats'][value='4']").check()
    small.locator("#challenge-other-1").wait_for()
    check_axe(small, "the challenge form at 360x640")
    fits(small, "the challenge form at 360x640")
    small.click("#challenge-cancel")
    assert small.evaluate("() => document.activeElement?.id") == "challenge"
    room = dora.post("/api/rooms", json={"seats": 3, "game": "sicilian"}).json()
    small.goto(base + room["links"][1])
    small.locator(".table-page .topbar #bell-button").wait_for()
    open_bell(small, "a table at 360x640")
    assert bell_count(small) == 0  # (opening it read them)
    assert ezio.get("/api/me/bell").json()["unread"] == 0  # (on every device)
    # A new challenge rings again: the phone's page (Italian) and the desktop's see it.
    assert dora.post("/api/challenges", json={"to": ["Ezio"], "game": "sicilian", "correspondence": 2}).status_code == 201
    phone = pages["phone"]
    phone.goto(base + "/")
    phone.locator("#bell-button").wait_for()
    assert phone.locator("#bell-button").get_attribute("aria-label") == "Notifiche: 1 da leggere"
    assert phone.locator("#bell-button .bell-count").inner_text() == "1"
    check_axe(phone, "the lobby at 390x844 in Italian, the bell closed")
    phone.locator("#bell-button").click()
    items = phone.locator("#bell-panel .bell-item")
    items.nth(3).wait_for()
    assert items.count() == 4
    texts = items.all_inner_texts()
    assert texts[0].startswith("Nuova:")  # (said to a screen reader; the new item is marked by its border)
    assert "Dora ti sfida a Tarocchi siciliani." in texts[0] and phone.locator("#bell-panel .bell-item.new").count() == 1
    assert phone.locator("#bell-panel .bell-item.new a.bell-link").get_attribute("href") == "/#challenges"
    phone.keyboard.press("Escape")
    assert bell_count(phone) == 0
    open_bell(phone, "the lobby at 390x844 in Italian")
    # The lobby's challenges: the two still pending, with Accept and Decline; the friend, online
    # at no table (nobody's socket is open).
    incoming = phone.locator("#challenges .challenge.incoming")
    incoming.nth(3).wait_for()
    assert incoming.count() == 4 and phone.locator("#challenges .challenge-accept").count() == 4
    assert "2 giorni a mossa" in incoming.first.inner_text() and "4 posti" in incoming.nth(2).inner_text()
    assert "30 s a turno" in incoming.nth(1).inner_text()
    friend = phone.locator("#friends .friend.mutual[data-name='Dora']")
    assert friend.locator(".friend-state").inner_text() == "non in linea"
    check_axe(phone, "the lobby's challenges at 390x844 in Italian")
    fits(phone, "the lobby's challenges at 390x844 in Italian")
    # Declining one takes it off the list (and rings Dora's bell).
    incoming.first.locator(".challenge-decline").click()
    phone.wait_for_function("() => document.querySelectorAll('#challenges .challenge.incoming').length === 3")
    kinds = [i["kind"] for i in dora.get("/api/me/bell").json()["items"]]
    assert kinds == ["challenge_declined"], kinds
    # Ezio's own challenge to Dora (made elsewhere: the lobby's next look shows it), cancelled here.
    assert ezio.post("/api/challenges", json={"to": ["Dora"], "game": "sicilian"}).status_code == 201
    outgoing = phone.locator("#challenges .challenge.outgoing")
    outgoing.wait_for()
    assert outgoing.locator(".challenge-who").inner_text() == "A Dora"
    outgoing.locator(".challenge-cancel").click()
    outgoing.wait_for(state="detached")
    assert [c["status"] for c in dora.get("/api/me/challenges").json()["challenges"] if not c["mine"]] == ["cancelled"]
    # The desktop, in English: nothing unread now (read on the phone), the panel at the right.
    desktop = pages["desktop"]
    desktop.goto(f"{base}/@/Dora")
    desktop.locator("#bell-button").wait_for()
    assert desktop.locator("#bell-button").get_attribute("aria-label") == "Notifications: 0 unread"
    open_bell(desktop, "a profile on a desktop")
    # Follow, unfollow and block from the profile (the block confirmed first, Dora never told).
    assert desktop.locator("#friend-note").inner_text() == "You and Dora follow each other: friends."
    desktop.click("#unfollow")
    desktop.locator("#follow").wait_for()
    assert [f["name"] for f in ezio.get("/api/me/friends").json()["following"]] == []
    assert desktop.locator("#friend-note").count() == 0
    desktop.click("#follow")
    desktop.locator("#friend-note").wait_for()  # (Dora follows Ezio: friends again, said at once)
    assert desktop.locator("#social-done").inner_text() == "You follow Dora."
    desktop.click("#block")
    desktop.locator("#block-confirm").wait_for()
    check_axe(desktop, "a profile, the block asked to confirm")
    desktop.click("#block-yes")
    desktop.locator("#unblock").wait_for()
    assert ezio.get("/api/me/blocks").json()["blocked"] == ["Dora"]
    assert desktop.locator("#challenge").count() == 0  # (no challenge to one blocked)
    # (Dora's pending challenges ended as if declined, docs/protocol.md: nothing says a block)
    assert {i["kind"] for i in dora.get("/api/me/bell").json()["items"]} == {"challenge_declined", "challenge"}
    # Every kind an item may be, an unknown one too, each a line (a moderator's words as text,
    # never markup), its link where it has one and only to the site's own pages.
    other = new_page(PHONE)
    signed_in(other, base, ezio)
    items = [
        {"id": "9", "kind": "warning", "data": {"text": "<b>Be kind</b> in the chat"}, "at": 1_780_000_900, "read": False},
        {"id": "8", "kind": "turn", "data": {"table": "x", "link": "/t/abc", "game": "renaissance"}, "at": 1_780_000_800, "read": False},
        {"id": "7", "kind": "started", "data": {"table": "x", "link": "https://elsewhere.example/t/abc", "game": "sicilian"}, "at": 1_780_000_700, "read": False},
        {"id": "6", "kind": "rated", "data": {"table": "tab1", "match": 2, "key": "calabresella/3", "before": None, "after": [25, 8],
                                               "rating_before": 1500, "rating_after": 1512}, "at": 1_780_000_600, "read": True},
        {"id": "5", "kind": "something_later", "data": {"x": 1}, "at": 1_780_000_500, "read": True},
    ]
    other.route("**/api/me/bell", lambda route: route.fulfill(json={"items": items, "unread": 3}))
    other.goto(base + "/leaderboard/sicilian")
    other.locator("#bell-button").wait_for()
    other.wait_for_function("() => /3/.test(document.querySelector('#bell-button').getAttribute('aria-label'))")
    other.locator("#bell-button").click()
    shown = other.locator("#bell-panel .bell-item")
    shown.nth(4).wait_for()
    assert shown.nth(0).locator(".bell-text").inner_text() == "A word from a moderator: <b>Be kind</b> in the chat"
    assert shown.nth(1).locator("a").get_attribute("href") == "/t/abc" and "Your turn at Renaissance" in shown.nth(1).inner_text()
    assert shown.nth(2).locator("a").count() == 0  # (another site's address is never linked)
    assert "your rating 1500 → 1512 (+12)" in shown.nth(3).inner_text()
    assert shown.nth(3).locator("a").get_attribute("href") == "/r/tab1.2/1"
    assert shown.nth(4).locator(".bell-text").inner_text() == "Something new on your account."
    check_axe(other, "the bell's every kind at 390x844")
    assert all(page.errors == [] for page in [stranger, other, *pages.values()])
