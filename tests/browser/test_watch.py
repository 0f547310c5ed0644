"""Spectators, replays and downloads in the browser (issue 22): a host and a spectator, each in
a browser context of its own. The host copies the watch link from the table page; the
spectator's page shows the table as it goes (played cards, the count) and never a hand, and
offers no action and no chat box. Once the deal is over, the host replays it from the score
sheet (every hand face up, stepped with the buttons and the arrow keys, to the count) and
downloads the table's records, which ``tarocchi replay`` reads. The spectator's screen and the
replay pass the viewport and axe checks at every size, in English and Italian."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import httpx
import pytest

from tarocchi.bots import make_player
from tests.conftest import DESKTOP, PHONE
from tests.server.seat import Seat
from tests.trust.harness import run_async

from .checks import SIZES, check_axe
from .driver import close_panels, open_panel
from .test_screens import look

pytestmark = pytest.mark.browser


def computer_table(base: str, game: str, seats: int) -> str:
    r = httpx.post(f"{base}/api/computer", json={"game": game, "seats": seats, "level": "random"})
    assert r.status_code == 200, r.text
    return r.json()["link"].removeprefix("/t/")


def play_for_host(live, token: str, game: str, stop_after: int | None = None) -> int:
    """The host's seat plays (random legal actions, from its own socket) until the deal's
    count, or until it has taken ``stop_after`` actions; the version it saw last."""
    async def body():
        seat = await Seat.open(live.ws_url, token)
        player = make_player("random", 9, game)
        taken = 0
        while stop_after is None or taken < stop_after:
            st = await seat.wait_state(lambda st: st["view"] is not None
                                       and (st["view"]["phase"] == "done" or seat.my_turn()), 60)
            if st["view"]["phase"] == "done":
                break
            version = st["version"]
            await seat.act(player(seat.view), f"h{version}")
            await seat.wait_state(lambda st: st["version"] > version)
            taken += 1
        await seat.close()
        return seat.state["version"]
    return run_async(body())


def watch_link(host) -> str:
    open_panel(host, "info")
    url = host.locator("#watch-url").input_value()
    assert "/w/" in url
    host.click("#copy-watch")
    host.locator("#copy-watch.done").wait_for()
    close_panels(host)
    return url


def spectator_shows_no_hand(page) -> None:
    assert page.locator(".hand .card").count() == 0
    assert page.locator(".tag.watching").count() == 1
    assert not page.locator(".chat-form").is_visible()
    assert page.locator(".actions-slot button").count() == 0


def test_a_copied_link_stays_copied_when_its_panel_is_drawn_again(live_server, new_page):
    """The watch link's button says it was copied however often the info panel is drawn
    again: a CI run lost the mark when a computer's bid redrew the panel. Here the language
    switch draws it again (every text changes), the button a new element in the other language."""
    token = computer_table(live_server.url, "sicilian", 4)
    host = new_page(DESKTOP)
    host.goto(f"{live_server.url}/t/{token}")
    host.locator(".hand .card").first.wait_for()
    open_panel(host, "info")
    host.click("#copy-watch")
    host.locator("#copy-watch.done").wait_for()
    host.evaluate("document.querySelector('#copy-watch').drawnBefore = true")
    host.click("button.lang")
    host.wait_for_function("() => { const b = document.querySelector('#copy-watch'); return b && !b.drawnBefore; }")
    assert "done" in host.locator("#copy-watch").get_attribute("class").split()
    assert host.locator("#copy-watch").text_content() == "Copiato"


@pytest.mark.parametrize(("game", "seats"), [("sicilian", 4), ("renaissance", 3), ("calabresella", 3), ("ottocento", 4)])
def test_a_spectator_watches_the_host_replays_and_downloads(live_server, new_page, game, seats, tmp_path):
    token = computer_table(live_server.url, game, seats)
    host = new_page(DESKTOP)
    host.goto(f"{live_server.url}/t/{token}")
    host.locator(".hand .card").first.wait_for()
    url = watch_link(host)
    spectator = new_page(PHONE, locale="it-IT")
    spectator.goto(url)
    spectator.locator(".seats .seat").first.wait_for()
    spectator.wait_for_function("() => document.querySelector('.table-page')?.dataset.status === 'playing'")
    spectator_shows_no_hand(spectator)
    # Cards come to the table as they are played, on the spectator's screen too.
    play_for_host(live_server, token, game, stop_after=4)
    spectator.wait_for_function("() => document.querySelectorAll('.center.trick .played, .center .card-box').length > 0")
    spectator_shows_no_hand(spectator)
    play_for_host(live_server, token, game)
    spectator.locator(".center.count").wait_for(timeout=30_000)
    host.locator(".center.count").wait_for(timeout=30_000)
    spectator_shows_no_hand(spectator)
    # Under the count, "Replay this deal"; the score sheet lists it too, with the download.
    assert host.locator("#replay-this").get_attribute("href").endswith("/1")
    assert spectator.locator("#replay-this").get_attribute("href") == host.locator("#replay-this").get_attribute("href")
    open_panel(host, "sheet")
    replay_link = host.locator(".look-back .replays a").first
    replay_link.wait_for()
    # The download link is the watch link's token: sharing it hands over no seat (issue 37).
    assert host.get_attribute("#download-records", "href") == f"/api/records/{url.rsplit('/', 1)[1]}"
    assert token not in host.get_attribute("#download-records", "href")
    with host.expect_download() as download:
        host.click("#download-records")
    file = tmp_path / "records.jsonl"
    download.value.save_as(file)
    assert download.value.suggested_filename.startswith(f"tarocchi-{game}-")
    record = json.loads(file.read_text().splitlines()[0])
    done = subprocess.run([sys.executable, "-m", "tarocchi.cli", "replay", str(file)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    replay_link.click()
    host.wait_for_url("**/r/**/1")
    status = host.locator("#status")
    steps = len(record["actions"])
    host.wait_for_function("n => document.querySelector('#status')?.textContent.includes(`0 of ${n}`)", arg=steps)
    # Every hand face up at the start: the cards dealt, each seat's own.
    hands = [host.locator(f".replay-hand[data-seat='{s}'] .mini").count() for s in range(seats)]
    assert sum(hands) >= 5 * seats and min(hands) > 0, hands
    host.click("#replay-next")
    assert status.inner_text().startswith(f"Step 1 of {steps}")
    host.keyboard.press("ArrowRight")
    assert status.inner_text().startswith(f"Step 2 of {steps}")
    host.keyboard.press("ArrowLeft")
    assert status.inner_text().startswith(f"Step 1 of {steps}")
    first = record["actions"][0]
    assert f"Step 1 of {steps}: " in status.inner_text() and host.locator(".replay-seat.turn").count() <= 1
    assert first["action"].split()[0] in status.inner_text() or host.locator(".center .played").count()
    host.keyboard.press("End")
    host.locator(".replay-count .payments li").first.wait_for()
    assert [int(x) for x in host.locator(".replay-count .payments li b").all_inner_texts()] == \
        httpx.get(f"{live_server.url}/api/deals/{token}").json()["deals"][0]["payments"]
    assert host.locator("#replay-next").is_disabled() and host.locator("#replay-last").is_disabled()
    host.keyboard.press("Home")
    assert status.inner_text().startswith(f"Step 0 of {steps}")
    assert host.locator("#replay-prev").is_disabled()
    check_axe(host, f"{game} replay")
    # The step whose card completes a trick shows the whole trick and who takes it.
    shown = httpx.get(f"{live_server.url}/api/replay/{token}/1").json()
    k = next(i for i, st in enumerate(shown["steps"]) if any(e["type"] == "trick" for e in st["events"]))
    for _ in range(k):
        host.keyboard.press("ArrowRight")
    assert status.inner_text().startswith(f"Step {k} of {steps}") and re.search(r"takes? the trick", status.inner_text())
    assert host.locator(".replay-trick .played").count() == seats and host.locator(".replay-trick .played.winner").count() == 1
    # Before the first card, the latest actions in words (the auction, a discard...): step 1's first.
    host.keyboard.press("Home")
    host.keyboard.press("ArrowRight")
    assert host.locator(".replay-recent li").count() == 1
    # The replay's link can be shared: it opens as it is in a new context, at the step in its address.
    shared = new_page(PHONE)
    shared.goto(host.url.split("#")[0] + "#3")
    shared.wait_for_function("n => document.querySelector('#status')?.textContent.startsWith(`Step 3 of ${n}`)", arg=steps)
    assert host.errors == [] and spectator.errors == [] and shared.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone", "small"])
def test_the_spectator_and_the_replay_fit_every_screen_without_an_accessibility_fault(live_server, new_page, size):
    token = computer_table(live_server.url, "sicilian", 4)
    play_for_host(live_server, token, "sicilian", stop_after=3)
    host = new_page(SIZES[size])
    host.goto(f"{live_server.url}/t/{token}")
    host.locator(".hand .card").first.wait_for()
    watch = watch_link(host)
    open_panel(host, "info")
    look(host, "watch", "host-info", size, inside=size == "desktop")
    close_panels(host)
    spectator = new_page(SIZES[size])
    spectator.goto(watch)
    spectator.locator(".seats .seat").first.wait_for()
    spectator_shows_no_hand(spectator)
    look(spectator, "watch", "spectator-play", size)
    play_for_host(live_server, token, "sicilian")
    spectator.locator(".center.count").wait_for(timeout=30_000)
    look(spectator, "watch", "spectator-count", size)
    open_panel(spectator, "sheet")
    spectator.locator(".look-back .replays a").first.wait_for()
    look(spectator, "watch", "spectator-look-back", size, inside=size == "desktop")
    spectator.locator(".look-back .replays a").first.click()
    spectator.wait_for_url("**/r/**")
    spectator.locator(".replay-hand .mini").first.wait_for()
    look(spectator, "replay", "start", size)
    for _ in range(12):
        spectator.keyboard.press("ArrowRight")
    look(spectator, "replay", "middle", size)
    spectator.keyboard.press("End")
    spectator.locator(".replay-count").wait_for()
    look(spectator, "replay", "count", size)
    assert spectator.errors == [] and host.errors == []


def test_a_replay_of_a_deal_not_finished_says_so_and_shows_no_card(live_server, new_page):
    token = computer_table(live_server.url, "renaissance", 3)
    play_for_host(live_server, token, "renaissance", stop_after=2)
    page = new_page(DESKTOP)
    page.goto(f"{live_server.url}/r/{token}/1")
    page.locator(".error[role='alert']").wait_for()
    assert "not finished" in page.locator(".error").inner_text()
    assert page.locator(".mini, .card-box").count() == 0
    check_axe(page, "an unfinished deal's replay")


def test_a_public_table_in_the_lobby_has_its_watch_link(live_server, new_page):
    """The lobby lists a public room with a Watch link beside its free seats: a stranger
    watches the waiting room as a spectator, without taking a seat."""
    r = httpx.post(f"{live_server.url}/api/rooms", json={"game": "ottocento", "seats": 4, "public": True})
    assert r.status_code == 200, r.text
    host = new_page(DESKTOP)
    host.goto(live_server.url + r.json()["links"][0])
    host.locator(".waiting").wait_for()
    (listed,) = httpx.get(f"{live_server.url}/api/public").json()["tables"]
    assert listed["watch"] == host.locator("#watch-url").input_value().removeprefix(live_server.url)
    stranger = new_page(PHONE)
    stranger.goto(live_server.url + "/")
    row = stranger.locator(f".public-table[data-table='{listed['table']}']")
    row.wait_for(timeout=12_000)
    check_axe(stranger, "the lobby with a watch link")
    row.locator("a.watch-public").click()
    stranger.wait_for_url("**/w/**")
    stranger.locator(".waiting").wait_for()
    assert stranger.locator(".tag.watching").count() == 1 and stranger.locator(".waiting-name").count() == 0
    check_axe(stranger, "a spectator in the waiting room")
    # Watching takes no seat: the room still waits for three.
    assert httpx.get(f"{live_server.url}/api/public").json()["tables"][0]["free"] == [1, 2, 3]
    assert stranger.errors == [] and host.errors == []
