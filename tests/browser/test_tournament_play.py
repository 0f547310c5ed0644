"""Issue 59 in the browser: each kind of tournament played to its end by a person, signed in,
clicking what the pages show (tarocchi/web/static/tournament.js, the table page, the bell; the
server's side is tarocchi/server/tournaments.py), at the server's own waits (a turn clock of
30 s, 60 s for a seat nobody opens, a tick a second): nothing here is shortened.

Each test is one flow: the person signs up, joins from the tournament's page before it starts,
goes to their seat from the page's "Play your seat" (arena, duplicate) or the bell's "Your table
is ready" (Swiss), plays Sicilian at three by clicking (a "vado solo" where offered: each deal
played out), goes back from the table's "Tournament: round N" and finds the podium. The other
people play from sockets of their own (random legal moves, tests/browser/test_accounts.py's
play_match); a seat nobody holds is the computer's. The three tests share out the sizes
(desktop, 390x844, 360x640) and the languages; the tournament's page is axe-clean under way and
at the end."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import pytest

from tests.conftest import DESKTOP, PHONE
from tests.server.live import running_server

from .checks import SMALL, check_axe
from .test_accounts import play_match, sign_up
from .test_screens import switch
from .test_social import account, bell_count, play_to_the_end

pytestmark = pytest.mark.browser

STARTS = 12  # seconds from making it to its start: the person signs up before, joins from the page in between
COOKIE = "tarocchi_session"
# The tournament's page shows a seat not played yet (the one just played shows until its result is
# written), or the podium.
NEW_SEAT_OR_PODIUM = """played => { const a = document.querySelector('.tournament-seat a');
  return !!document.querySelector('.podium li') || (!!a && !played.includes(a.getAttribute('href'))); }"""
BELL_COUNT = "() => Number((document.querySelector('#bell-button')?.getAttribute('aria-label') || '').match(/\\d+/)?.[0] || 0)"


class Others:
    """The other people of the tournament, each in a thread of its own: while the tournament is
    not over, each plays every new seat the tournament's page gives them, to its match's end."""

    def __init__(self, server, tid: str, clients: list[httpx.Client]):
        self.server, self.tid, self.clients = server, tid, clients
        self.played: list[list[str]] = [[] for _ in clients]
        self.errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self.run, args=(n,), daemon=True) for n in range(len(clients))]
        for thread in self.threads:
            thread.start()

    def run(self, n: int) -> None:
        client = self.clients[n]
        headers = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}", "X-Forwarded-For": client.headers["X-Forwarded-For"]}
        try:
            while True:
                page = client.get(f"/api/tournaments/{self.tid}").json()
                if page["status"] == "finished":
                    return
                link = page["seat"]
                if link and link not in self.played[n]:
                    self.played[n].append(link)
                    end = asyncio.run(play_match(self.server.ws_url, [link.removeprefix("/t/")], "sicilian",
                                                 headers=headers))
                    assert end["table"]["status"] == "over"
                else:
                    time.sleep(0.5)  # (the page's own pace: it asks every 3 s)
        except BaseException as e:  # noqa: BLE001  (told to the test)
            self.errors.append(e)

    def join(self, seconds: float = 120) -> None:
        for thread in self.threads:
            thread.join(seconds)
        assert not any(thread.is_alive() for thread in self.threads)
        assert self.errors == []


def step(began: float, what: str) -> None:
    """How long the flow took to get here (pytest -s shows it: the figures in tests/conftest.py LONGEST)."""
    print(f"{time.monotonic() - began:6.1f} s  {what}", flush=True)


def made(maker: httpx.Client, body: dict) -> str:
    r = maker.post("/api/tournaments", json={"game": "sicilian", "seats": 3, "starts": STARTS, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def joined_from_the_page(page, base: str, tid: str) -> None:
    """The person opens the tournament's page and presses Join: it is still to start."""
    page.goto(f"{base}/tournament/{tid}")
    with page.expect_response(lambda r: r.url.endswith(f"/api/tournaments/{tid}/join")) as answer:
        page.locator("button[data-focus=join]").click()
    assert answer.value.status == 200
    page.locator("button[data-focus=leave]").wait_for()
    assert httpx.get(f"{base}/api/tournaments/{tid}").json()["status"] == "upcoming"  # (joined before its start)


def play_seat(page) -> int:
    """The person, at their seat, plays the match to its end by clicking; then back to the
    tournament's page from the table's "Tournament: round N"; the moves made."""
    page.wait_for_url("**/t/**")
    page.locator(".table-page[data-ready]").wait_for()
    moves = play_to_the_end([page], lambda _: None)
    back = page.locator("#tournament-note-back")
    back.wait_for()
    href = back.get_attribute("href")
    back.click()
    page.wait_for_url(f"**{href}")
    return moves


def the_end(page, names: set[str], where: str, seconds: float = 120) -> list[str]:
    """The tournament's page once it is over: the podium, every player ranked; axe-clean."""
    page.locator(".podium li").first.wait_for(timeout=seconds * 1000)
    podium = page.locator(".podium li").all_inner_texts()
    assert 1 <= len(podium) <= 3 and podium[0].startswith("1. ")
    ranked = {page.locator(".tournament-standings tbody tr th span").nth(i).inner_text()
              for i in range(page.locator(".tournament-standings tbody tr").count())}
    assert ranked == names  # (computers are never ranked)
    assert page.locator("button[data-focus=join], button[data-focus=leave]").count() == 0  # (over: neither)
    check_axe(page, where)
    return podium


def test_an_arena_is_played_from_its_page_to_its_podium_on_a_desktop_in_english(new_page):
    """Three people, an arena of one minute (the least): all three free at its start, seated at
    once; as their table ends they are seated again while the minute lasts, and the last table
    begun is played out after it."""
    began = time.monotonic()
    with running_server(bot_delay=0.02, trick_pause=0) as server:
        base = server.url
        page = new_page(DESKTOP)
        sign_up(page, base, "Anna")
        others = [account(base, "Bruno", 2), account(base, "Carla", 3)]
        tid = made(others[0], {"kind": "arena", "minutes": 1})
        joined_from_the_page(page, base, tid)
        for c in others:
            assert c.post(f"/api/tournaments/{tid}/join").status_code == 200
        check_axe(page, "an arena to start, desktop")
        playing = Others(server, tid, others)
        seats: list[str] = []
        moves = 0
        while True:  # (from the page: each new table ready, until the podium)
            page.wait_for_function(NEW_SEAT_OR_PODIUM, arg=seats, timeout=120_000)
            if page.locator(".podium li").count():
                break
            if not seats:
                assert page.locator(".tournament-facts").inner_text().startswith("Under way")
                check_axe(page, "an arena under way with the seat's link, desktop")
            seats.append(page.locator(".tournament-seat a").get_attribute("href"))
            page.locator(".tournament-seat a").click()
            moves += play_seat(page)
        tables = len(seats)
        playing.join()
        assert tables >= 1 and moves > 10
        assert len(playing.played[0]) == len(playing.played[1]) == tables  # (the three seated together each time)
        podium = the_end(page, {"Anna", "Bruno", "Carla"}, "an arena's podium, desktop")
        assert len(podium) == 3
        assert len(page.locator(".tournament-round").all()) == tables
        assert page.errors == []
    print(f"the arena: {tables} tables, {time.monotonic() - began:.0f} s")


def test_a_swiss_is_played_from_the_bells_link_on_a_phone_in_italian(new_page):
    """Two people and a computer, a Swiss of one round (the least): the person's bell says the
    tournament has started and their table is ready, with their seat's link; at the end it says
    where they placed, linking the tournament's page."""
    began = time.monotonic()
    with running_server(bot_delay=0.02, trick_pause=0) as server:
        base = server.url
        page = new_page(PHONE, locale="it-IT")
        sign_up(page, base, "Anna")
        step(began, f"signed up {base}")
        bruno = account(base, "Bruno", 2)
        tid = made(bruno, {"kind": "swiss", "rounds": 1})
        step(began, "made")
        joined_from_the_page(page, base, tid)
        step(began, "joined")
        assert bruno.post(f"/api/tournaments/{tid}/join").status_code == 200
        page.locator(".tournament-seat a").wait_for(timeout=60_000)  # (the page shows it: the bell has it)
        step(began, "the seat on the page")
        check_axe(page, "a Swiss under way, 390x844, in Italian")
        playing = Others(server, tid, [bruno])
        # Anna goes to the lobby (the bell is asked again once a minute, and at each page's load):
        # its bell says the tournament started and her table is ready.
        page.goto(base + "/")
        page.wait_for_function(f"() => ({BELL_COUNT})() >= 2")
        unread = bell_count(page)
        page.locator("#bell-button").click()
        ready = page.locator("#bell-panel .bell-item[data-kind='tournament']", has_text="Il tuo tavolo è pronto (turno 1)")
        ready.wait_for()
        started = page.locator("#bell-panel .bell-item[data-kind='tournament']", has_text="Il torneo è cominciato")
        assert started.locator("a.bell-link").get_attribute("href") == f"/tournament/{tid}"
        check_axe(page, "the bell with a tournament's items, 390x844, in Italian")
        assert unread >= 2 and bell_count(page) == 0  # (opened: read)
        step(began, "the bell")
        ready.locator("a.bell-link").click()
        moves = play_seat(page)
        step(began, "played")
        assert page.locator("#tournament-note-back").count() == 0  # (back on the tournament's page)
        playing.join()
        podium = the_end(page, {"Anna", "Bruno"}, "a Swiss's podium, 390x844, in Italian")
        assert len(podium) == 2 and moves > 10
        assert page.locator("h1").inner_text().startswith("Torneo svizzero di ")
        # The bell's last word (asked at the page's next load): where Anna placed, linking the
        # tournament's page.
        rank = next(p for p in podium if p.endswith("Anna")).split(".")[0]
        page.reload()
        page.locator("#bell-button").click()
        over = page.locator("#bell-panel .bell-item[data-kind='tournament']", has_text="Il torneo è finito")
        over.wait_for(timeout=30_000)
        assert f"{rank}° posto per te" in over.inner_text()
        assert over.locator("a.bell-link").get_attribute("href") == f"/tournament/{tid}"
        assert page.errors == []
    print(f"the Swiss: {time.monotonic() - began:.0f} s")


def test_a_duplicate_is_played_from_its_page_on_a_small_phone_then_read_in_italian(new_page):
    """Two people and a computer, a duplicate of one round: the person goes to their seat from
    the page, plays it, and the podium is read in English and Italian at 360x640."""
    began = time.monotonic()
    with running_server(bot_delay=0.02, trick_pause=0) as server:
        base = server.url
        page = new_page(SMALL)
        sign_up(page, base, "Anna")
        bruno = account(base, "Bruno", 2)
        tid = made(bruno, {"kind": "duplicate", "rounds": 1})
        joined_from_the_page(page, base, tid)
        assert bruno.post(f"/api/tournaments/{tid}/join").status_code == 200
        seat = page.locator(".tournament-seat a")
        seat.wait_for(timeout=60_000)
        check_axe(page, "a duplicate under way, 360x640")
        # (its round still playing: no table's watch link, the others play the same cards)
        assert page.locator(".tournament-tables a").count() == 0
        playing = Others(server, tid, [bruno])
        seat.click()
        moves = play_seat(page)
        playing.join()
        podium = the_end(page, {"Anna", "Bruno"}, "a duplicate's podium, 360x640")
        assert len(podium) == 2 and moves > 10
        assert page.locator(".tournament-standings thead").inner_text().split()[:2] == ["#", "Player"]
        switch(page, "it")
        page.locator("h2#podium-h", has_text="Podio").wait_for()
        check_axe(page, "a duplicate's podium, 360x640, in Italian")
        assert page.errors == []
    print(f"the duplicate: {time.monotonic() - began:.0f} s")
