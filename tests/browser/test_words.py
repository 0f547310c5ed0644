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
from tarocchi.server.core.tables import Table, encode_json
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
    page.add_init_script("localStorage.setItem('tarocchi.seats', JSON.stringify([{link: '/t/seat0000', table: 't1', "
                         "game: 'sicilian', watch: 'watchtoken0000', seat: 0, at: 0}]))")  # (the table page keeps it: seats.js)
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


# Every line a page has shown, kept: a table's lines are its current deal's, and a clock that
# passes for everyone ends the deal at once (CI once read "pressed Next deal" where the first
# deal's "chose" had been).
SEEN_LINES = """window.linesSeen = new Set();
setInterval(() => {
  document.querySelectorAll('.lines li').forEach(li => window.linesSeen.add(li.innerText));
}, 30);"""


def wait_for_line(page, start: str):
    page.wait_for_function("(start) => [...window.linesSeen].some(l => l.startsWith(start))",
                           arg=start, timeout=30_000)


def test_every_screen_of_the_table_is_told_the_clock_played(new_page):
    """Nobody plays at a Play now table: the clock's computer plays for its one person, and
    their screen and a spectator's both say so."""
    with running_server(fill_seconds=1, public_clock=3, bot_delay=0.5) as server:
        seat = new_page(SIZES["desktop"])
        seat.add_init_script(SEEN_LINES)
        seat.goto(server.url + "/")
        seat.click("#play-now-sicilian")
        seat.locator(".hand .card").first.wait_for(timeout=15_000)
        open_panel(seat, "info")
        watch = seat.locator("#watch-url").input_value()
        spectator = new_page(SIZES["phone"])
        spectator.add_init_script(SEEN_LINES)
        spectator.goto(watch)
        wait_for_line(seat, "Your time ran out: the computer chose for you.")
        wait_for_line(spectator, "player 1's time ran out: the computer chose.")
        assert seat.errors == [] and spectator.errors == []


def ottocento_at_the_declaration(seed: int = 0):
    """An Ottocento deal at seat 0's declaration (B9), the seats before it having declared."""
    game = get_game("ottocento")
    deal = new_deal(4, "ottocento", dealer=3, seed=seed)
    rng = random.Random(seed)
    while not (deal.phase == "declare" and deal.to_act == 0):
        legal = [c["action"] for c in deal.view(deal.to_act)["choices"] if c["reason"] is None]
        if deal.phase in ("monte", "declare"):
            deal.apply(next((a for a in legal if a != "a monte"), legal[0]), deal.to_act)
        else:
            deal.apply(game.action_text(random_action(deal.copy(), rng)), deal.to_act)
    return deal


HINT_FITS = """() => {
  const box = document.querySelector('.hint-box').getBoundingClientRect();
  const status = document.querySelector('#status').getBoundingClientRect();
  return {bottom: box.bottom, status: status.top};
}"""


def test_an_ottocento_declaration_hint_says_the_combinations_briefly(live_server, new_page):
    """The hint names a declaration as the declare editor does ("declare Queens ×3, Coins ×3
    ... (34)"), not in the engine's notation, and lies over the other seats, never over the
    status line (on a phone it covered that and the editor); its scores in points a player
    knows (not "points of margin"), never "−0.0"."""
    deal = ottocento_at_the_declaration()
    v = view(deal)
    offered = [c for c in v["choices"] if c["reason"] is None][:3]
    actions = [{"action": c["action"], "score": s} for c, s in zip(offered, (12.34, -0.04, None))]
    page = new_page(SIZES["desktop"])
    fake = open_fake(page, live_server.url, table(4, "ottocento", hints=True), v)
    page.click("#hint-button")
    fake.send({"type": "hint", "deal": 1, "acted": 0, "actions": actions})
    page.locator(".hint-box .hint-list li").nth(len(actions) - 1).wait_for()
    for size in SIZES:
        resize(page, SIZES[size])
        for code, unit in (("en", "points"), ("it", "punti")):
            switch(page, code)
            box = page.locator(".hint-box").inner_text()
            assert not re.search(r"\b[a-z]+:[0-9A-Z]", box), box  # no "queens:QC,QO,QS"
            assert "×3" in box and f"({offered[0]['points']})" in box and unit in box, box
            assert "margin" not in box and "−0.0" not in box and "-0.0" not in box, box
            fits = page.evaluate(HINT_FITS)
            assert fits["bottom"] <= fits["status"] + 1, fits  # over the other seats, not the status line below
        look(page, "ottocento", "declare-hint", size)
    assert page.errors == []


REVIEW = [
    {"index": 3, "phase": "speak", "trick": None, "played": "passo", "best": "passo", "same": True,
     "best_score": 1.2, "played_score": 1.2, "cost": 0.0},
    {"index": 9, "phase": "play", "trick": 2, "played": "KC", "best": "7C", "same": False,
     "best_score": 0.51, "played_score": 0.55, "cost": -0.04},
    {"index": 13, "phase": "play", "trick": 3, "played": "20", "best": "5C", "same": False,
     "best_score": 2.0, "played_score": -0.5, "cost": 2.5},
]


def test_a_review_line_opens_the_replay_at_its_step_and_about_the_same_is_no_mistake(live_server, new_page):
    """Each decision of the review opens the deal's replay at its step (decision ``index`` of
    the record is the replay's step index + 1); a choice worth about the same as the computer's
    is not coloured as a mistake, and no amount reads "−0.0"."""
    deal = new_deal(3, "sicilian", dealer=2, seed=3)
    while not deal.done:  # (any finished deal: the count shows the review)
        deal.apply("vado solo" if not deal.bids and deal.phase == "speak" else
                   get_game("sicilian").action_text(random_action(deal.copy(), random.Random(1))), deal.to_act)
    page = new_page(SIZES["desktop"])
    page.route("**/api/deals/**", lambda route: route.fulfill(json={"deals": [
        {"number": n, "match": 1, "deal": n, "dealer": 0, "payments": [0, 0, 0]} for n in (1, 2, 3, 4)]}))
    tbl = table(3, "sicilian", status="between", deal_number=4, deals_in_match=4, sheet=[[0, 0, 0]] * 4,
                watch="/w/watchtoken0000", hints=True)  # (a review where hints are allowed: issue 37)
    fake = open_fake(page, live_server.url, tbl, view(deal))
    page.click("#review-button")
    fake.send({"type": "review", "deal": 4, "decisions": 3, "items": REVIEW, "done": True})
    page.locator(".review-list li a").nth(2).wait_for()
    hrefs = page.locator(".review-list li a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert hrefs == [f"/r/watchtoken0000/4#{item['index'] + 1}" for item in REVIEW], hrefs
    colour = "el => getComputedStyle(el).color"
    same, even, worse = (page.locator(".review-list li").nth(i) for i in range(3))
    assert "even" in even.get_attribute("class").split()
    assert even.evaluate(colour) == same.evaluate(colour) != worse.evaluate(colour)
    for size in SIZES:
        resize(page, SIZES[size])
        for code, about in (("en", "worth about the same"), ("it", "più o meno uguale")):
            switch(page, code)
            review = page.locator(".review").inner_text()
            assert about in even.inner_text() and "−0.0" not in review and "-0.0" not in review, review
        page.locator(".center.count").evaluate("el => { el.scrollTop = el.scrollHeight; }")
        look(page, "sicilian", "review-links", size)
    assert page.errors == []


def test_a_review_line_opens_the_replay_at_the_decision_it_names(live_server, new_page):
    """A computer table's deal played to the count, reviewed: a decision's link opens the
    replay at the step where that decision is taken (the status line says it was yours)."""
    token = computer_table(live_server.url, "sicilian", 3)
    page = new_page(SIZES["phone"])
    page.goto(f"{live_server.url}/t/{token}")
    page.locator(".hand .card").first.wait_for()
    play_for_host(live_server, token, "sicilian")
    page.locator("#review-button").click()
    page.locator(".review[data-done='true']").wait_for(timeout=60_000)
    link = page.locator(".review-list li a").last
    link.wait_for()
    index = int(page.locator(".review-list li").last.get_attribute("data-index"))
    link.click()
    page.wait_for_url(f"**/r/**/1#{index + 1}")
    page.wait_for_function("n => document.querySelector('#status')?.textContent.startsWith(`Step ${n} of`)", arg=index + 1)
    said = page.locator("#status").inner_text()
    assert re.search(r"Step \d+ of \d+: You\b", said), said  # (the decision is the seat's own)
    assert page.errors == []


def sicilian_at_seat_0s_card():
    """A three-seat Sicilian deal in play, seat 0 to play with a choice of cards."""
    game = get_game("sicilian")
    for seed in range(1, 50):
        deal = new_deal(3, "sicilian", dealer=2, seed=seed)
        rng = random.Random(seed)
        while not deal.done and not (deal.phase == "play" and deal.to_act == 0):
            speaking = deal.phase == "speak"
            deal.apply("vado solo" if speaking and not deal.bids else "passo" if speaking else
                       game.action_text(random_action(deal.copy(), rng)), deal.to_act)
        if not deal.done and sum(c["reason"] is None for c in deal.view(0)["choices"]) >= 2:
            return deal
    raise AssertionError("no seed gives seat 0 a choice of cards")


def acts(fake, page, n: int) -> list[str]:
    """The actions the page sent, once it has sent ``n`` (or after a moment, for none more)."""
    for _ in range(40 if n else 6):
        sent = [m["action"] for m in fake.sent if m.get("type") == "act"]
        if n and len(sent) >= n:
            break
        page.wait_for_timeout(50)  # (the fake hears the socket while the page waits)
    return sent


def test_confirm_before_playing_a_first_tap_chooses_a_second_plays(live_server, new_page):
    """An option kept in the browser (off by default): the first tap on a card chooses it and
    shows a button to play it; the second tap, the button or Enter plays it."""
    deal = sicilian_at_seat_0s_card()
    v = view(deal)
    playable = [c["action"] for c in v["choices"] if c["reason"] is None]
    page = new_page(SIZES["desktop"])
    fake = open_fake(page, live_server.url, table(3, "sicilian"), v)
    open_panel(page, "info")
    option = page.locator("#confirm-cards")
    assert not option.is_checked()  # off by default
    option.check()
    page.reload()  # kept in the browser
    page.locator(".hand .card").first.wait_for()
    open_panel(page, "info")
    assert page.locator("#confirm-cards").is_checked()
    close_panels(page)
    first, second = (page.locator(f".hand .card[data-card='{code}']") for code in playable[:2])
    first.click()
    page.locator("#confirm-play").wait_for()
    assert acts(fake, page, 0) == [] and first.get_attribute("aria-pressed") == "true"
    second.click()  # another card: chosen instead
    page.wait_for_function("c => document.querySelector(`.hand .card[data-card='${c}']`).getAttribute('aria-pressed') === 'true'",
                           arg=playable[1])
    assert acts(fake, page, 0) == [] and first.get_attribute("aria-pressed") == "false"
    for size in SIZES:
        resize(page, SIZES[size])
        for code, word in (("en", "Play "), ("it", "Gioca ")):
            switch(page, code)
            assert page.locator("#confirm-play").inner_text().startswith(word)
            assert word.strip() in page.locator("#status").inner_text()
        look(page, "sicilian", "confirm-play", size)
    second.click()  # the second tap plays it
    page.wait_for_function("() => !document.querySelector('#confirm-play')")
    assert acts(fake, page, 1) == [playable[1]]
    fake.send({"type": "refused", "id": None, "reason": "the deal is over"})  # (answered: the page may act again)
    first.click()
    page.click("#confirm-play")  # the button plays it
    assert acts(fake, page, 2) == [playable[1], playable[0]]
    fake.send({"type": "refused", "id": None, "reason": "the deal is over"})
    first.click()
    page.keyboard.press("Enter")  # Enter plays it
    page.wait_for_function("() => !document.querySelector('#confirm-play')")
    assert acts(fake, page, 3) == [playable[1], playable[0], playable[0]]
    assert page.errors == []
    # Off (a browser that never chose it): one tap plays, as before.
    other = new_page(SIZES["phone"])
    plain = open_fake(other, live_server.url, table(3, "sicilian"), v)
    other.locator(f".hand .card[data-card='{playable[0]}']").click()
    assert acts(plain, other, 1) == [playable[0]] and other.locator("#confirm-play").count() == 0
