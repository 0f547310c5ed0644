"""Issue 38 in the browser, tried as new players would: who is here (the waiting room says it
as the seat boxes do, the lobby neither lists nor fills a room whose people have gone, and
counts the people playing each game), and the way back (the lobby's "Your tables", a replay's
"Back to the table" to the seat it came from, the host's links that say who took a seat from
the lobby instead of showing a link that opens nothing). Each at the sizes where it shows, in
English and Italian, axe clean."""

from __future__ import annotations

import httpx
import pytest

from tests.browser.test_public import lobby_lists
from tests.browser.test_watch import computer_table, play_for_host

from .checks import DESKTOP, PHONE, SMALL, check_axe, check_inside
from .driver import resize
from .test_screens import look

pytestmark = pytest.mark.browser


def test_the_waiting_room_and_the_lobby_know_who_is_here(live_server, new_page):
    base = live_server.url
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.check("#room-public")
    host.click("#create-room")
    host.click(".room-links .host-link a")
    host.locator(".waiting .listed-note").wait_for()
    (listed,) = httpx.get(base + "/api/public").json()["tables"]
    table_id = listed["table"]
    guest = new_page(PHONE)
    guest.goto(base + "/")
    lobby_lists(guest, table_id).locator(".take-seat[data-seat='1']").click()
    guest.wait_for_url("**/t/**")
    here = guest.locator(".waiting .joined li[data-seat='0']")
    here.locator("small").wait_for()
    assert here.get_attribute("class") == "in" and here.locator("small").inner_text() == "here"
    host.close()  # the host closes the tab: the guest's waiting room says so, as the seat box does
    guest.wait_for_function("() => document.querySelector(\".waiting .joined li[data-seat='0']\")?.className === 'away'")
    assert here.locator("small").inner_text() == "away"
    look(guest, "sicilian", "host-away", "phone")  # (both languages, inside, axe)
    guest.set_viewport_size(SMALL)
    check_inside(guest, "the host away, 360 px")
    # A third person: the lobby lists the table with its host away, and its people counted.
    third = new_page(SMALL, locale="it-IT")
    third.goto(base + "/")
    row = lobby_lists(third, table_id)
    assert "(assente)" in row.inner_text()
    third.wait_for_function("() => document.querySelector('#playing-sicilian')?.textContent.startsWith('1 ')")
    check_axe(third, "the lobby with a host away, Italian")
    # The guest leaves too: nobody is there, and the table is no longer offered.
    guest.close()
    third.locator(f".public-table[data-table='{table_id}']").wait_for(state="detached", timeout=12_000)
    third.wait_for_function("() => document.querySelector('#playing-sicilian')?.textContent.startsWith('0 ')")
    third.click("#play-now-sicilian")
    third.wait_for_url("**/t/**")
    third.locator(".waiting").wait_for()
    assert third.locator(".waiting .joined li.in").count() == 1  # a table of its own: the old one not chosen
    assert third.errors == []


def test_your_tables_and_back_to_the_seat_from_a_replay(live_server, new_page):
    base = live_server.url
    token = computer_table(base, "renaissance", 3)
    page = new_page(PHONE, locale="it-IT")
    page.goto(f"{base}/t/{token}")
    page.locator(".hand .card").first.wait_for()
    # The tab is closed; from the lobby, "Your tables" finds the table again, whose turn it says.
    page.goto(base + "/")
    mine = page.locator("#your-tables .my-table")
    mine.first.wait_for(timeout=12_000)
    assert mine.count() == 1 and "Rinascimento" in mine.inner_text()
    assert mine.locator(".mine-turn").inner_text() in ("Tocca a te", "Tocca a computer 1", "Tocca a computer 2")
    for size in (DESKTOP, PHONE, SMALL):  # (the lobby is a page: it may scroll; "Your tables" comes first)
        resize(page, size)
        look(page, "renaissance", f"your-tables-{size['width']}", "phone", inside=False)
        assert mine.first.bounding_box()["y"] < size["height"], size
        # Its button is its row's: inside the row's box, under or beside the row's words, never
        # above them where it would seem the row before's (issue 57).
        row, words, button = (mine.first.bounding_box(), mine.first.locator(".mine-what").bounding_box(),
                              mine.first.locator("a.button").bounding_box())
        assert row["y"] <= words["y"] <= button["y"] + button["height"] / 2 <= row["y"] + row["height"], size
        assert mine.first.evaluate("li => getComputedStyle(li).borderTopStyle") == "solid"
    page.click("#your-tables .my-table a")
    page.wait_for_url(f"**/t/{token}")
    page.locator(".hand .card").first.wait_for()
    # The deal played to its end; its replay, opened from the seat, leads back to the seat.
    play_for_host(live_server, token, "renaissance")
    page.locator(".center.count").wait_for(timeout=60_000)
    page.locator("#replay-this").click()
    page.wait_for_url("**/r/**/1")
    back = page.locator("[data-focus='to-table']")
    back.wait_for()
    assert back.get_attribute("href") == f"/t/{token}"
    back.click()
    page.wait_for_url(f"**/t/{token}")
    page.locator(".table-page").wait_for()
    assert page.locator(".tag.watching").count() == 0  # the seat, not the watch page
    # Another browser that opened the same replay by its shared address goes to the watch page.
    other = new_page(DESKTOP)
    other.goto(page.evaluate("() => location.origin") + httpx.get(f"{base}/api/deals/{token}").json()["watch"]
               .replace("/w/", "/r/") + "/1")
    other.locator("[data-focus='to-table']").wait_for()
    assert other.get_attribute("[data-focus='to-table']", "href").startswith("/w/")
    assert page.errors == [] and other.errors == []


def test_the_hosts_links_say_who_took_a_seat_from_the_lobby(live_server, new_page):
    base = live_server.url
    host = new_page(DESKTOP)
    host.goto(base + "/")
    host.check("input[name='room-seats'][value='4']")
    host.check("#room-public")
    host.click("#create-room")
    links = [host.locator(f"#link-{s}").input_value() for s in (1, 2, 3)]
    host.click(".room-links .host-link a")
    host.locator(".links-to-send").wait_for()
    (listed,) = httpx.get(base + "/api/public").json()["tables"]
    stranger = new_page(PHONE)
    stranger.goto(base + "/")
    stranger.fill("#my-name", "Nino")
    stranger.click(".name-form button[type='submit']")
    lobby_lists(stranger, listed["table"]).locator(".take-seat[data-seat='2']").click()
    stranger.wait_for_url("**/t/**")
    stranger.locator(".waiting").wait_for()
    taken = host.locator(".links-to-send li.taken[data-seat='2']")
    taken.wait_for(timeout=12_000)
    assert "Nino" in taken.inner_text() and "opens nothing" in taken.inner_text()
    values = [host.locator(f"#link-{s}").input_value() for s in (1, 3)]
    assert values == [links[0], links[2]] and host.locator("#link-2").count() == 0  # the dead link is gone
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone"), (SMALL, "small")):
        resize(host, size)
        look(host, "sicilian", "links-taken", name)
    assert host.errors == [] and stranger.errors == []


def test_a_lesson_is_not_a_table_to_come_back_to(live_server, new_page):
    """Issue 57: a lesson's table is never kept in Your tables (nor posted to the account), and
    one a browser kept before is answered gone and forgotten."""
    base = live_server.url
    made = httpx.post(f"{base}/api/lessons/sicilian/1").json()
    page = new_page(PHONE)
    page.goto(base + made["link"])
    page.locator(".table-page[data-ready]").wait_for()
    page.wait_for_function("() => Number(document.querySelector('.table-page').dataset.version) > 0")
    assert page.evaluate("() => localStorage.getItem('tarocchi.seats')") in (None, "[]")
    # A lesson kept by the page of before: the server says it is gone, and the lobby forgets it.
    link = made["link"].split("?")[0]
    answer = httpx.post(f"{base}/api/my-tables", json={"links": [link]}).json()
    assert answer["tables"] == [{"link": link, "gone": True}] and isinstance(answer["now"], float)
    page.evaluate("""l => localStorage.setItem('tarocchi.seats', JSON.stringify(
      [{link: l, table: 'x', game: 'sicilian', watch: null, seat: 0, at: Date.now()}]))""", link)
    page.goto(base + "/")
    page.wait_for_function("() => localStorage.getItem('tarocchi.seats') === '[]'", timeout=12_000)
    assert page.locator("#your-tables").is_hidden()
    assert page.errors == []
