"""A room by links: host and guests each in their own browser context join by link, chat
(escaped, nothing runs), play a complete deal, and one reloads mid-trick and carries on (R17)."""

from __future__ import annotations

import time

import pytest

from tests.conftest import DESKTOP, PHONE, shot
from .checks import check_axe
from .driver import close_panels, deal_over, my_turn, open_panel, payments, phase, take_turn

pytestmark = pytest.mark.browser

ATTACK = "<img src=x onerror=window.__pwned=1><script>window.__pwned=1</script>"


def create_room(host, base: str, seats: int) -> tuple[str, list[str]]:
    """The host creates a room in the lobby; returns the host's link and the guests' links."""
    host.goto(base + "/")
    host.locator(f"input[name='room-seats'][value='{seats}']").check()
    host.click("#create-room")
    rows = host.locator(".room-links .link-row")
    rows.first.wait_for()
    assert rows.count() == seats - 1
    guests = [u for u in host.locator(".room-links .link-url").evaluate_all("els => els.map(e => e.value)")]
    own = host.locator(".room-links .host-link a").get_attribute("href")
    assert own.startswith("/t/") and all(u.startswith(base + "/t/") for u in guests)
    assert len({own.removeprefix("/t/")} | {u.rsplit("/", 1)[1] for u in guests}) == seats  # one link per seat
    copy = rows.first.locator("button.copy")
    copy.click()
    host.wait_for_function("() => document.querySelector('.link-row button.copy.done')")
    return base + own, guests


def trick_on_table(page) -> list[tuple[str, str]]:
    return [(f.get_attribute("data-seat"), f.locator(".card-box").get_attribute("aria-label"))
            for f in page.locator(".center.trick:not(.last) .played").all()]


def test_room_join_chat_play_and_reload(live_server, new_page):
    base = live_server.url
    host = new_page(DESKTOP)
    own, guest_links = create_room(host, base, 3)
    shot(host, "room-lobby-desktop")
    host.goto(own)
    host.locator(".waiting .joined li").first.wait_for()
    # Everyone sees who has joined: the host is here, the guests not yet.
    assert host.locator(".waiting .joined li.in").count() == 1
    assert host.locator(".waiting .joined li.out").count() == 2
    shot(host, "room-waiting-desktop")
    check_axe(host, "the waiting room")

    guests = []
    for i, link in enumerate(guest_links):
        page = new_page(PHONE)
        page.goto(link)
        guests.append(page)
        if i == 0:
            host.wait_for_function("() => document.querySelectorAll('.waiting .joined li.in').length === 2")
    pages = [host] + guests
    for page in pages:
        page.locator(".hand .card").first.wait_for()
        assert page.locator(".seats .seat").count() == 3

    # Chat: the attack is shown as text on every screen, and nothing of it runs.
    for page in pages:
        open_panel(page, "chat")  # (a drawer on a phone)
    guests[0].fill("#chat-input", ATTACK)
    guests[0].press("#chat-input", "Enter")
    for page in pages:
        line = page.locator(".chat .chat-text", has_text="onerror")
        line.wait_for()
        assert line.text_content() == ATTACK
        assert page.locator(".chat img, .chat script").count() == 0
        assert page.evaluate("() => window.__pwned") is None
    host.fill("#chat-input", "ciao a tutti")
    host.press("#chat-input", "Enter")
    guests[1].locator(".chat .chat-text", has_text="ciao a tutti").wait_for()
    for page in pages:
        close_panels(page)

    reloaded = False
    deadline = time.monotonic() + 120
    while not all(deal_over(p) for p in pages):
        assert time.monotonic() < deadline, "the room's deal did not finish"
        turn = next((p for p in pages if my_turn(p)), None)
        if turn is None:
            time.sleep(0.03)
            continue
        if not reloaded and phase(turn) == "play" and len(trick_on_table(turn)) == 1:
            # Mid-trick: reload, and the seat is back exactly where it was.
            before = trick_on_table(turn)
            hand = turn.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
            shot(turn, "room-midtrick-" + ("desktop" if turn is host else "phone"))
            turn.reload()
            turn.locator(".hand .card").first.wait_for()
            turn.wait_for_function("() => document.querySelector('.status.yours')")
            assert trick_on_table(turn) == before
            assert turn.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
            assert turn.locator(".chat .chat-text", has_text="ciao a tutti").count() == 1  # chat kept
            reloaded = True
        take_turn(turn)
    assert reloaded, "nobody reloaded mid-trick"

    paid = [payments(p) for p in pages]
    assert paid[0] == paid[1] == paid[2] and sum(paid[0]) == 0
    shot(host, "room-count-desktop")
    shot(guests[1], "room-count-phone")
    for page in pages:
        assert page.errors == []
        page.click("#next-deal")
    for page in pages:
        page.wait_for_function("() => /Deal 2 of 3/.test(document.querySelector('.deal-no')?.textContent || '')")


def test_four_seat_room_starts_with_three(live_server, new_page):
    base = live_server.url
    host = new_page(DESKTOP)
    own, guest_links = create_room(host, base, 4)
    host.goto(own)
    host.locator(".waiting").wait_for()
    assert host.locator("#start-three").count() == 0  # only once three have joined
    # The host sees the guests' links again while the room waits.
    assert host.locator(".waiting .link-row").count() == 3
    late = new_page(PHONE)
    for link in guest_links[:2]:
        new_page(PHONE).goto(link)
    host.locator("#start-three").click()  # R17: plays as a three-seat game
    host.locator(".hand .card").first.wait_for()
    assert host.locator(".seats .seat").count() == 3
    assert "of 3" in host.locator(".deal-no").inner_text()
    late.goto(guest_links[2])
    late.locator(".error").wait_for()  # the seat left out opens nothing now
    assert "does not open any seat" in late.locator(".error").inner_text()


def test_an_ottocento_room_of_four_waits_for_four(live_server, new_page):
    """Issue 18: R17's early start is Sicilian; Ottocento is played by exactly four (B5). With
    three of four in, the host gets no start button, only the word that it waits for four, and
    the match starts when the fourth comes."""
    base = live_server.url
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.check("input[name='room-game'][value='ottocento']")
    host.click("#create-room")
    host.locator(".room-links .link-row").nth(2).wait_for()
    links = host.locator(".room-links .link-url").evaluate_all("els => els.map(e => e.value)")
    host.goto(base + host.locator(".room-links .host-link a").get_attribute("href"))
    guests = [new_page(PHONE) for _ in range(3)]
    for page, link in zip(guests[:2], [links[0], links[2]]):
        page.goto(link)
    host.wait_for_function("() => document.querySelectorAll('.waiting .joined li.in').length === 3")
    assert host.locator("#start-three").count() == 0
    assert "played by four" in host.locator("#wait-four").inner_text()
    check_axe(host, "an Ottocento room waiting for its fourth")
    guests[2].goto(links[1])
    for page in [host] + guests:
        page.locator(".hand .card").first.wait_for()
        assert page.locator(".seats .seat").count() == 4
