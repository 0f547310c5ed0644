"""Issue 22, the lobby in the browser: a host lists a room and a stranger takes a seat from the
lobby with one click (two who click the same seat at once: one gets it, the other the next
and says so), Play now counts down and fills the empty seats with computers (a computer gives
its seat to the next person between deals), the turn clock counts down on every screen and
plays for the late; every new screen fits 1366x800, 390x844 and 360x640 with no axe fault,
in English and Italian. Several browser contexts, each its own player."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from tarocchi.server.core.hub import Chance
from tests.conftest import DESKTOP, PHONE
from tests.server.live import running_server

from .checks import SIZES, SMALL, check_axe, check_inside, screen
from .driver import version
from .fake import new_deal, open_fake, table, view
from .test_screens import switch

pytestmark = pytest.mark.browser

GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"]
SEATS = {"sicilian": 3, "renaissance": 3, "calabresella": 3, "ottocento": 4}


def both_languages(page, where: str, inside: bool = True) -> None:
    for code in ("en", "it"):
        switch(page, code)
        if inside:
            check_inside(page, f"{where} {code}")
        check_axe(page, f"{where} {code}")
        screen(page, "lobby", where, "", code)
    switch(page, "en")


def lobby_lists(page, table_id: str):
    """The lobby's row for a public table (the lobby asks every few seconds)."""
    row = page.locator(f".public-table[data-table='{table_id}']")
    row.wait_for(timeout=12_000)
    return row


def test_a_host_lists_a_room_and_strangers_take_its_seats_from_the_lobby(live_server, new_page):
    base = live_server.url
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.locator("#create-room").wait_for()
    host.check("input[name='room-seats'][value='4']")
    host.check("#room-public")
    host.click("#create-room")
    host.click(".room-links .host-link a")
    host.locator(".waiting .listed-note").wait_for()
    assert host.locator("#make-public").get_attribute("aria-pressed") == "true"
    (listed,) = httpx.get(base + "/api/public").json()["tables"]
    table_id = listed["table"]
    assert listed["free"] == [1, 2, 3] and listed["clock"] == 30

    # Two strangers see seat 1 free and click it at the same moment.
    late = [new_page(SMALL), new_page(DESKTOP)]
    for page in late:
        page.goto(base + "/")
        lobby_lists(page, table_id).locator(".take-seat[data-seat='1']").wait_for()
    for page in late:  # (both clicks go before either answer comes back)
        page.evaluate("() => document.querySelector(\".take-seat[data-seat='1']\").click()")
    for page in late:
        page.wait_for_url("**/t/**")
        page.locator(".waiting").wait_for()
    told = [p for p in late if p.locator(".waiting .taken-note").count()]
    assert len(told) == 1, [p.url for p in late]  # one got seat 1, the other the next free seat, and is told so
    check_axe(told[0], "the seat taken first")
    seats = sorted(int(p.locator(".seats.mine .seat").get_attribute("data-seat")) for p in late)
    assert seats == [1, 2]
    host.wait_for_function("() => document.querySelectorAll('.waiting .joined li.in').length === 3")

    # One more from the lobby, on a phone: the last free seat with one click.
    stranger = new_page(PHONE)
    stranger.goto(base + "/")
    row = lobby_lists(stranger, table_id)
    assert "Sicilian" in row.inner_text() and "1 of 4 seats free" in row.inner_text()
    assert "host" in row.inner_text()  # the names seated
    both_languages(stranger, "public-list-phone", inside=False)  # (the lobby is a page: it may scroll)
    row.locator(".take-seat[data-seat='3']").click()  # one click
    stranger.wait_for_url("**/t/**")
    for page in [host, stranger] + late:
        page.locator(".hand .card").first.wait_for()  # all four seats taken: the match starts
    assert host.locator(".seats .seat").count() == 4
    assert httpx.get(base + "/api/public").json()["tables"] == []  # no longer waiting: no longer listed
    for page in [host, stranger] + late:
        assert page.errors == []


def test_on_a_phone_a_seat_refused_says_why_beside_the_seat_pressed(live_server, new_page):
    """Issue 56, point 7: a browser at a table already presses another seat of it in the lobby:
    the refusal is shown in that table's row, inside the phone's screen (the Play now card, where
    it was shown before, is out of sight by then), not at the top of the lobby."""
    base = live_server.url
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.locator("#create-room").wait_for()
    host.check("input[name='room-seats'][value='4']")
    host.check("#room-public")
    host.click("#create-room")
    host.click(".room-links .host-link a")
    host.locator(".waiting .listed-note").wait_for()
    (listed,) = httpx.get(base + "/api/public").json()["tables"]
    table_id = listed["table"]
    phone = new_page(PHONE)
    phone.goto(base + "/")
    lobby_lists(phone, table_id).locator(".take-seat[data-seat='1']").click()
    phone.wait_for_url("**/t/**")
    phone.locator(".waiting").wait_for()
    phone.goto(base + "/")
    row = lobby_lists(phone, table_id)
    row.locator(".take-seat[data-seat='2']").click()
    refusal = row.locator(".error[role='alert']")
    refusal.wait_for()
    assert "you are at this table already" in refusal.inner_text()
    box = refusal.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    assert phone.locator("#play-now .error").count() == 0 and "/t/" not in phone.url
    check_axe(phone, "a seat refused on a phone")
    assert phone.errors == [] and host.errors == []


def test_the_host_lists_the_waiting_room_from_the_table(live_server, new_page):
    base = live_server.url
    host = new_page(PHONE)
    host.goto(base + "/")
    host.check("input[name='room-game'][value='calabresella']")
    host.click("#create-room")
    host.click(".room-links .host-link a")
    button = host.locator("#make-public")
    button.wait_for()
    assert button.get_attribute("aria-pressed") == "false"
    assert httpx.get(base + "/api/public").json()["tables"] == []
    button.click()
    host.locator(".waiting .listed-note").wait_for()
    (listed,) = httpx.get(base + "/api/public").json()["tables"]
    assert listed["game"] == "calabresella" and listed["free"] == [1, 2]
    for size in ("phone", "small", "desktop"):
        host.set_viewport_size(SIZES[size])
        both_languages(host, f"waiting-public-{size}")
    host.locator("#make-public").click()
    host.locator(".waiting .listed-note").wait_for(state="detached")
    assert httpx.get(base + "/api/public").json()["tables"] == []
    assert host.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_play_now_counts_down_then_computers_fill_the_empty_seats(new_page, game):
    with running_server(fill_seconds=4, public_clock=30) as server:
        page = new_page(DESKTOP)
        page.goto(server.url + "/")
        page.locator(f"#play-now-{game}").click()
        page.wait_for_url("**/t/**")
        clock = page.locator(".waiting .fill-clock")
        clock.wait_for()
        seconds = int(re.search(r"(\d+) s", clock.inner_text()).group(1))
        assert 1 <= seconds <= 4
        page.wait_for_function("n => { const m = /(\\d+) s/.exec(document.querySelector('.fill-clock')?.textContent || '');"
                               " return m && Number(m[1]) < n; }", arg=seconds)  # it counts down
        page.locator(".hand .card").first.wait_for(timeout=15_000)
        seats = page.locator(".seats .seat")
        assert seats.count() == SEATS[game]
        assert page.get_attribute(".table-page", "data-status") in ("playing", "between")
        assert page.errors == []


def test_a_page_whose_own_clock_is_an_hour_wrong_counts_down_the_servers_time(new_page):
    """Two phones whose clocks are an hour ahead and an hour behind: Play now's wait and then
    the turn clock show the seconds the server gives, on both (each deadline is counted against
    the server's time, which every state frame carries, not against the phone's clock)."""
    with running_server(fill_seconds=5, public_clock=30) as server:
        pages = []
        for hours in (1, -1):
            page = new_page(PHONE)
            page.add_init_script(f"{{ const real = Date.now; Date.now = () => real() + {hours * 3_600_000}; }}")
            page.goto(server.url + "/")
            page.locator("#play-now-sicilian").click()
            page.wait_for_url("**/t/**")
            pages.append(page)
        for page in pages:  # the second joined the first's table: one countdown, the server's
            clock = page.locator(".waiting .fill-clock")
            clock.wait_for()
            seconds = int(re.search(r"(\d+) s", clock.inner_text()).group(1))
            assert 1 <= seconds <= 5
        for page in pages:
            page.locator(".hand .card").first.wait_for(timeout=15_000)
            page.locator(".turn-clock").wait_for()
            shown = page.locator(".turn-clock").inner_text()
            assert 1 <= int(re.search(r"(\d+) s", shown).group(1)) <= 30, shown
            assert page.errors == []


def test_a_computer_gives_its_seat_to_the_next_person_between_deals(new_page):
    # A seeded deck: a first deal that could end the match (a solissimo scegliete made pays 32,
    # C18, past the 21 of C21) would leave no next deal to play; this seed's first deal is a
    # solo that pays 4 (the rule players are deterministic from their views).
    chance = Chance(random.Random(1))
    with running_server(fill_seconds=2, public_clock=2, bot_delay=0.02, trick_pause=0.02, chance=chance) as server:
        first = new_page(DESKTOP)
        first.goto(server.url + "/")
        first.click("#play-now-calabresella")
        first.locator(".hand .card").first.wait_for(timeout=15_000)  # filled with computers
        second = new_page(PHONE)
        second.goto(server.url + "/")
        second.click("#play-now-calabresella")
        second.wait_for_url("**/t/**")
        arrived = second.locator(".turn-clock.arrived")
        arrived.wait_for()  # mid-deal: the computer plays on until the deal ends
        assert "Deal 1" in second.locator(".deal-no").inner_text()
        check_inside(second, "arrived phone")
        check_axe(second, "arrived phone")
        # Nobody at the first screen plays: its clock plays for it; the deal ends, the seat is his.
        arrived.wait_for(state="detached", timeout=120_000)
        assert second.get_attribute(".table-page", "data-status") != "over", "the seed's first deal ended the match"
        second.locator(".status.yours").wait_for(timeout=60_000)  # his own turn: he plays it now
        assert second.get_attribute(".table-page", "data-status") in ("playing", "between")
        you = int(second.locator(".seats.mine .seat").get_attribute("data-seat"))
        assert you in (1, 2)
        assert second.errors == [] and first.errors == []


def test_the_turn_clock_counts_down_on_every_screen_and_the_computer_plays_for_the_late(live_server, new_page):
    base = live_server.url
    # The host sets a clock in the lobby; a room by link has none otherwise.
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.select_option("#room-clock", "15")
    host.click("#create-room")
    # The links come with the server's answer: wait for them, evaluate_all does not.
    host.locator(".room-links .link-row").nth(1).wait_for()
    links = host.locator(".room-links .link-url").evaluate_all("els => els.map(e => e.value)")
    assert len(links) == 2
    host.click(".room-links .host-link a")
    guests = [new_page(PHONE), new_page(SMALL)]
    for page, link in zip(guests, links):
        page.goto(link)
    pages = [host] + guests
    for page in pages:
        page.locator(".hand .card").first.wait_for()
        page.locator(".turn-clock").wait_for()
    shown = [p.locator(".turn-clock").inner_text() for p in pages]
    assert all(re.search(r"\b(1[0-5]|[1-9]) s\b", s) for s in shown), shown
    turn = next(p for p in pages if p.locator(".status.yours").count())
    assert turn.locator(".turn-clock").inner_text().startswith("Your turn")
    others = [p for p in pages if p is not turn]
    assert all(not p.locator(".turn-clock").inner_text().startswith("Your turn") for p in others)
    # Nobody acts: after 15 s the computer plays that turn, and the clock restarts for the next.
    before = version(turn)
    deadline = time.monotonic() + 25
    turn.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before,
                           timeout=25_000)
    assert time.monotonic() < deadline
    for page in pages:
        assert page.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone", "small"])
@pytest.mark.parametrize("game", GAMES)
def test_the_clock_fits_every_screen_in_both_languages(live_server, new_page, game, size):
    """The table with its clock running, for you and for another seat, as the server sends it."""
    deal = new_deal(SEATS[game], game)
    page = new_page(SIZES[size])
    turn = deal.view(0)["turn"]
    # "10 min" however long the page takes to show it (a deadline 600 s away read "9 min" on a
    # loaded machine and "10 min" on an idle one, and only the longer wrapped an Italian seat).
    far = time.time() + 630
    tbl = table(SEATS[game], game, kind="room", public=True, quick=True, filled=[False] * SEATS[game],
                arrived=[False] * SEATS[game], clock={"seconds": 30, "seats": [turn], "deadline": far})
    fake = open_fake(page, live_server.url, tbl, view(deal))
    page.locator(".turn-clock").wait_for()
    both_languages(page, f"clock-{game}-{size}")
    # Another seat to act: its name on the clock; then a seat a computer keeps for you.
    other = (turn + 1) % SEATS[game]
    fake.push(tbl={**tbl, "clock": {"seconds": 30, "seats": [other], "deadline": far}}, v=view(deal))
    page.wait_for_function("() => !/Your turn/.test(document.querySelector('.turn-clock')?.textContent || 'Your turn')")
    check_inside(page, f"clock other {game} {size}")
    fake.push(tbl={**tbl, "bots": [True] * SEATS[game], "standin": [True] * SEATS[game],
                   "filled": [True] * SEATS[game], "arrived": [True] + [False] * (SEATS[game] - 1)}, v=view(deal))
    page.locator(".turn-clock.arrived").wait_for()
    both_languages(page, f"arrived-{game}-{size}")
    assert page.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone", "small"])
def test_the_play_now_waiting_room_fits_every_screen(new_page, size):
    with running_server(fill_seconds=120) as server:
        page = new_page(SIZES[size])
        page.goto(server.url + "/")
        page.locator("#play-now-ottocento").wait_for()
        both_languages(page, f"lobby-{size}", inside=False)
        page.click("#play-now-ottocento")
        page.locator(".waiting .fill-clock").wait_for()
        seen = page.evaluate("""() => { const r = document.querySelector('.fill-clock').getBoundingClientRect();
            const w = document.querySelector('.center.waiting').getBoundingClientRect();
            return r.top >= w.top && r.bottom <= w.bottom && r.bottom <= innerHeight; }""")
        assert seen, "the countdown is in sight without scrolling"
        both_languages(page, f"fill-wait-{size}")
        assert page.errors == []
