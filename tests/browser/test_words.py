"""Issue 38, the words that confused or misled players (two or three at once, every game, at
1366x800, 390x844 and 360x640, in English and Italian): each screen here is looked at in both
languages at every size where it shows, with no axe fault."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from tarocchi.engine.game import get_game
from tarocchi.engine.playout import random_action
from tarocchi.server.tables import Table, encode_json
from tarocchi.server.watch import Past, replay_of
from tests.server.live import running_server

from .checks import SIZES
from .driver import close_panels, open_panel, resize
from .fake import new_deal, open_fake, table, view
from .test_screens import look, switch
from .test_watch import computer_table, play_for_host

pytestmark = pytest.mark.browser


def test_ottocento_play_now_waiting_room_says_one_true_thing(new_page):
    """Computers fill a Play now table's empty seats: the waiting room says so, not also that
    the match waits for all four people (it said both)."""
    with running_server(fill_seconds=120) as server:
        page = new_page(SIZES["desktop"])
        page.goto(server.url + "/")
        page.click("#play-now-ottocento")
        page.locator(".waiting .fill-clock").wait_for()
        for size in SIZES:
            resize(page, SIZES[size])
            for code, words in (("en", "all four have joined"), ("it", "tutti e quattro")):
                switch(page, code)
                waiting = page.locator(".center.waiting").inner_text()
                assert words not in waiting, waiting
                assert page.locator(".waiting .fill-clock").is_visible()
            assert page.locator("#wait-four").count() == 0
            look(page, "ottocento", "play-now-waiting", size, inside=True)
        assert page.errors == []


MARKERS_FIT = """() => {
  // The widest number of the list, as its marker is drawn, against the room the list gives it.
  const ol = document.querySelector('#panel-log ol');
  const probe = document.createElement('span');
  probe.textContent = `${ol.children.length}. `;
  probe.style.cssText = `font: ${getComputedStyle(ol.firstElementChild).font}; white-space: pre; position: absolute`;
  document.body.append(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.remove();
  return {wide, room: parseFloat(getComputedStyle(ol).paddingLeft), items: ol.children.length};
}"""


def test_a_sicilian_deal_abandoned_at_20_cards_says_why_and_the_bids_are_numbered_whole(live_server, new_page):
    """Everyone said altre cinque up to 15 cards and all passed at 20: the deal was abandoned
    because nobody went solo (altre cinque is not said at 20 cards, R5), not because "nobody
    said altre cinque"; the Bids panel's twelve items show their numbers whole (10-12 showed
    as ".0", ".1", ".2")."""
    deal = new_deal(3, "sicilian", dealer=0, seed=5)
    for _ in range(9):
        deal.apply("altre cinque")
    for _ in range(3):
        deal.apply("passo")
    assert deal.done and deal.count.abandoned
    tbl = table(3, "sicilian", status="between", sheet=[[0, 0, 0]])
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, tbl, view(deal), events=list(deal.events))
    page.locator(".center.count").wait_for()
    for size in SIZES:
        resize(page, SIZES[size])
        for code, why, wrong in (("en", "nobody said vado solo at 20 cards", "nobody said altre cinque"),
                                 ("it", "a 20 carte nessuno ha detto vado solo", "nessuno ha detto altre cinque")):
            switch(page, code)
            count = page.locator(".center.count").inner_text()
            assert why in count and wrong not in count, count
            assert why in page.locator(".lines").inner_text()
        look(page, "sicilian", "abandoned-at-20", size)
        page.click(".tab-log")
        page.locator("#panel-log.open ol li").nth(11).wait_for()
        for code in ("en", "it"):
            switch(page, code)
            fit = page.evaluate(MARKERS_FIT)
            assert fit["items"] == 12 and fit["room"] >= fit["wide"], fit
        look(page, "sicilian", "bids-twelve", size, inside=False)  # (a drawer over the table on a phone)
        if size != "desktop":
            page.click("#panel-log .close")
    assert page.errors == []


def test_a_play_now_table_names_its_computers_computers_and_has_no_host(new_page):
    """Play now: the computers that take the empty seats are "computer 1/2", the one who
    opened it a player, never "host" or "guest"; and no host is said to have refused hints."""
    with running_server(fill_seconds=1) as server:
        page = new_page(SIZES["desktop"])
        page.goto(server.url + "/")
        page.click("#play-now-sicilian")
        page.locator(".hand .card").first.wait_for(timeout=15_000)
        for size in SIZES:
            resize(page, SIZES[size])
            for code, names in (("en", ["player 1 (you)", "computer 1", "computer 2"]),
                                ("it", ["giocatore 1 (tu)", "computer 1", "computer 2"])):
                switch(page, code)
                shown = [page.locator(f".seat[data-seat='{s}'] .seat-name").inner_text() for s in range(3)]
                assert shown == names, shown
                open_panel(page, "info")
                note = page.locator(".hints-note").inner_text()
                assert note in ("Hints are not given at this table.", "A questo tavolo non si danno suggerimenti."), note
                body = page.locator("body").inner_text().lower()
                assert not re.search(r"\b(host|guest|padrone di casa|ospite)\b", body), body
                close_panels(page)
            look(page, "sicilian", "play-now-names", size)
        assert page.errors == []


def sicilian_deal_with_a_no():
    """A finished three-seat Sicilian deal whose first speaker goes solo and whose two others,
    who spoke after, answer no to Rivanto (R12)."""
    deal = new_deal(3, "sicilian", dealer=2, seed=3)
    rng = random.Random(3)
    while not deal.done:
        seat = deal.to_act
        legal = [c["action"] for c in deal.view(seat)["choices"] if c["reason"] is None]
        if deal.phase == "speak":
            deal.apply("vado solo" if "vado solo" in legal and not deal.bids else "passo", seat)
        elif deal.phase == "announce":
            deal.apply("no", seat)
        else:
            deal.apply(get_game("sicilian").action_text(random_action(deal.copy(), rng)), seat)
    return deal


def test_a_replay_says_each_step_as_the_table_does(live_server, new_page):
    """A replay's steps in the table's words ("computer 1: no Rivanto.", not "computer 1:
    no"), the human of a computer table "you" in their own browser, not "host"."""
    deal = sicilian_deal_with_a_no()
    created = {"game": "sicilian", "kind": "computer", "seats": 3, "names": ["you", "computer 1", "computer 2"],
               "bots": [None, "rule", "rule"]}
    body = encode_json(replay_of(Past(Table("t1", created), [(0, 0, deal)], []), 1))
    steps = json.loads(body)["steps"]
    asked = next(i for i, s in enumerate(steps) if s["action"] == "no" and s["seat"] != deal.bidder)
    page = new_page(SIZES["desktop"])
    page.add_init_script("localStorage.setItem('tarocchi.seat.watchtoken0000', '0')")  # (the table page keeps it)
    page.route("**/api/replay/watchtoken0000/1", lambda route: route.fulfill(body=body, content_type="application/json"))
    page.goto(f"{live_server.url}/r/watchtoken0000/1#{asked}")
    status = page.locator("#status")
    page.wait_for_function("n => document.querySelector('#status')?.textContent.startsWith(`Step ${n} of`)", arg=asked)
    for size in SIZES:
        resize(page, SIZES[size])
        for code, said, you in (("en", ": no Rivanto.", "you"), ("it", ": niente Rivanto.", "tu")):
            switch(page, code)
            assert status.inner_text().endswith(said), status.inner_text()
            assert page.locator(".replay-seat[data-seat='0'] .seat-name").inner_text() == you
            assert "host" not in page.locator("body").inner_text()
            recent = page.locator(".replay-recent li").all_inner_texts()
            assert recent[-1] == status.inner_text().split(": ", 1)[1], recent
            assert not any(re.search(r": (no|passo|vado solo)$", line) for line in recent), recent
        look(page, "replay", "words", size, inside=False)  # (a replay is a page: it may scroll)
    assert page.errors == []


def test_the_replay_of_a_computer_table_names_its_human_you_at_home_and_player_elsewhere(live_server, new_page):
    token = computer_table(live_server.url, "sicilian", 3)
    host = new_page(SIZES["phone"])
    host.goto(f"{live_server.url}/t/{token}")
    host.locator(".hand .card").first.wait_for()
    play_for_host(live_server, token, "sicilian")
    host.locator("#replay-this").click()
    host.wait_for_url("**/r/**")
    name = host.locator(".replay-seat[data-seat='0'] .seat-name")
    name.wait_for()
    assert name.inner_text() == "you"
    look(host, "replay", "computer-table-you", "phone", inside=False)
    stranger = new_page(SIZES["small"], locale="it-IT")  # the link shared: not their seat
    stranger.goto(host.url)
    stranger.locator(".replay-seat[data-seat='0'] .seat-name").wait_for()
    assert stranger.locator(".replay-seat[data-seat='0'] .seat-name").inner_text() == "giocatore"
    switch(stranger, "en")
    assert stranger.locator(".replay-seat[data-seat='0'] .seat-name").inner_text() == "player"
    for page in (host, stranger):
        assert "host" not in page.locator("body").inner_text()
        assert page.errors == []


CLOCK_LINES = [
    {"type": "play", "seat": 1, "card": "20", "clock": True},
    {"type": "bid", "seat": 0, "bid": "passo", "cards": 5, "clock": True},
    {"type": "clock", "seat": 2, "next": True},
]


def test_what_the_turn_clock_did_says_so_in_the_lines(live_server, new_page):
    """A card the computer played for a late seat reads as the clock's, not the seat's choice
    ("guest 1 plays Trump 20." it said); a word said for you, and Next deal pressed, alike."""
    deal = new_deal(3, "sicilian")
    tbl = table(3, "sicilian", kind="room", public=True,
                clock={"seconds": 30, "seats": [deal.view(0)["turn"]], "deadline": time.time() + 600})
    page = new_page(SIZES["desktop"])
    open_fake(page, live_server.url, tbl, view(deal), events=CLOCK_LINES)
    page.locator(".lines li").nth(2).wait_for()
    said = {"en": [r"^guest 1's time ran out: the computer played Trump 20\.$",
                   r"^Your time ran out: the computer chose for you\. You say passo\.$",
                   r"^guest 2's time ran out: the computer pressed Next deal\.$"],
            "it": [r"^Tempo scaduto per ospite 1: il computer ha giocato .*20\.$",
                   r"^Il tuo tempo è scaduto: ha scelto il computer per te\. Dici passo\.$",
                   r"^Tempo scaduto per ospite 2: il computer ha premuto Prossima smazzata\.$"]}
    for size in SIZES:
        resize(page, SIZES[size])
        for code in ("en", "it"):
            switch(page, code)
            lines = page.locator(".lines li").all_inner_texts()
            assert len(lines) == 3 and all(re.match(p, line) for p, line in zip(said[code], lines)), lines
        look(page, "sicilian", "clock-lines", size)
    assert page.errors == []


SEEN_CLOCK = """setInterval(() => {
  const lines = document.querySelector('.lines')?.innerText || '';
  if (/time ran out/.test(lines)) window.clockSeen = lines;
}, 30);"""


def test_every_screen_of_the_table_is_told_the_clock_played(new_page):
    """Nobody plays at a Play now table: the clock's computer plays for its one person, and
    their screen and a spectator's both say so."""
    with running_server(fill_seconds=1, public_clock=3, bot_delay=0.5) as server:
        seat = new_page(SIZES["desktop"])
        seat.add_init_script(SEEN_CLOCK)
        seat.goto(server.url + "/")
        seat.click("#play-now-sicilian")
        seat.locator(".hand .card").first.wait_for(timeout=15_000)
        open_panel(seat, "info")
        watch = seat.locator("#watch-url").input_value()
        spectator = new_page(SIZES["phone"])
        spectator.add_init_script(SEEN_CLOCK)
        spectator.goto(watch)
        for page in (seat, spectator):
            page.wait_for_function("() => window.clockSeen", timeout=30_000)
        assert "Your time ran out: the computer chose for you." in seat.evaluate("window.clockSeen")
        assert "player 1's time ran out: the computer chose." in spectator.evaluate("window.clockSeen")
        assert seat.errors == [] and spectator.errors == []
