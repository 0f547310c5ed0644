"""Issue 12's defects, each shown to the page as the server would send it (tests/browser/fake.py
routes the page's websocket to the test, with real engine views), and the table's new
features (names, rematch, the last trick, the score sheet, help, the turn alert, the level
picker, the persistent status line) on a real server."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from tests.conftest import DESKTOP, PHONE

from .checks import check_axe
from .driver import TURN_OR_COUNT, deal_over, my_turn, open_panel, phase, play_deal, take_turn, version
from .fake import new_deal, open_fake, table, view

pytestmark = pytest.mark.browser


def play_until(deal, stop, seed: int = 3):
    """Random legal actions until stop(deal) (checked before each action)."""
    rng = random.Random(seed)
    while not stop(deal):
        assert not deal.done, "the deal ended before the moment wanted"
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def find_deal(stop, seats: int = 3, game: str = "sicilian", tries: int = 200):
    for seed in range(tries):
        deal = new_deal(seats, game, dealer=seed % seats, seed=seed)
        try:
            return play_until(deal, stop, seed)
        except AssertionError:
            continue
    raise AssertionError("no deal reaches that moment")


def last_card(deal) -> bool:
    if deal.phase != "play":
        return False
    after = deal.copy()
    after.apply(after.legal_actions()[0])
    return after.done


@pytest.mark.parametrize("game", ["sicilian", "renaissance"])
def test_the_last_trick_is_held_before_the_count(live_server, new_page, game):
    deal = find_deal(last_card, game=game)
    page = new_page(DESKTOP)
    fake = open_fake(page, live_server.url, table(game=game), view(deal))
    page.locator(".center.trick").wait_for()
    deal.apply(deal.legal_actions()[0])
    assert deal.done
    pays = deal.returns()
    fake.push(tbl=table(game=game, status="between", totals=pays, sheet=[pays]), v=view(deal))
    held = page.locator(".center.trick.last")
    held.wait_for()
    # The score waits for the count: the seats keep their totals while the trick is shown.
    shown = lambda: [int(page.locator(f".seat[data-seat='{s}'] .stat[data-total]").get_attribute("data-total")) for s in range(deal.seats)]
    assert shown() == [0] * deal.seats
    winner = deal.view(0)["last_trick"]["winner"]
    assert page.locator(".center.trick.last .played").count() == deal.seats
    assert page.locator(".center.trick.last .played.winner").get_attribute("data-seat") == str(winner)
    assert page.locator(".center.count").count() == 0
    page.locator(".center.count").wait_for(timeout=4000)  # then the count
    assert shown() == pays
    assert page.errors == []


def test_lines_about_the_reader_are_in_the_second_person(live_server, new_page):
    """"You lead.", "You announce Scommessa.", "You win." (and "Tocca a te", "Vinci tu")."""
    deal = find_deal(lambda d: d.phase == "play" and d.to_act == 0 and not d.trick and d.leader == 0)
    page = new_page(DESKTOP)
    events = [{"type": "announce", "seat": 0, "announce": "scommessa"}, {"type": "bid", "seat": 0, "bid": "vado solo"}]
    fake = open_fake(page, live_server.url, table(), view(deal), events)
    v = view(deal)
    v["last_trick"] = None
    v["announcements"] = [{"seat": 0, "announce": "scommessa"}]
    fake.push(v=v)
    page.locator(".center-note", has_text="You lead.").wait_for()
    text = page.locator(".table-page").inner_text() + page.locator(".log").text_content()
    assert "You announce Scommessa." in text
    assert not re.search(r"\byou (leads|announces|wins|plays|takes)\b", text, re.I), text
    page.click("button.lang")
    page.locator(".center-note", has_text="Tocca a te").wait_for()
    text = page.locator(".table-page").inner_text() + page.locator(".log").text_content()
    assert "Esce tu" not in text and "tu annuncia" not in text.lower(), text
    # The match's end: "Vinci tu." for the winner's own page.
    done = find_deal(lambda d: d.done)
    fake.push(tbl=table(status="over", winners=[0], totals=[4, -2, -2], sheet=[done.returns()], deal_number=3), v=view(done))
    page.locator(".result .winners").wait_for(timeout=5000)
    assert page.locator(".result .winners").inner_text() == "Vinci tu."
    page.click("button.lang")
    page.locator(".result .winners", has_text="You win.").wait_for()


def test_one_jocu_two_jochi(live_server, new_page):
    deal = new_deal(3)
    page = new_page(DESKTOP)
    open_fake(page, live_server.url, table(totals=[1, -1, 2]), view(deal))
    stats = [page.locator(f".seat[data-seat='{s}'] .stat.jochi").inner_text() for s in range(3)]
    assert stats == ["1 jocu", "-1 jocu", "2 jochi"], stats
    page.click("button.lang")
    page.locator(".seat[data-seat='2'] .stat.jochi", has_text="2 jochi").wait_for()
    assert page.locator(".seat[data-seat='0'] .stat.jochi").inner_text() == "1 jocu"


def test_the_deal_panel_names_a_chiamo_at_four_seats_while_the_others_speak(live_server, new_page):
    def after_chiamo(d):  # a chiamo said, the speaking not over yet
        bids = d.view(0)["bids"]
        return d.phase == "speak" and bool(bids) and bids[-1]["bid"] == "chiamo"
    deal = find_deal(after_chiamo, seats=4)
    v = view(deal)
    assert v["bidder"] is None and v["phase"] == "speak"
    page = new_page(DESKTOP)
    open_fake(page, live_server.url, table(seats=4), v)
    contract = page.locator(".info .contract")
    contract.wait_for()
    assert "chiamo" in contract.inner_text() and "nobody" not in contract.inner_text(), contract.inner_text()


def test_the_announcements_log_shows_whole_lines_and_follows_the_newest(live_server, new_page):
    deal = new_deal(3)
    v = view(deal)
    v["bids"] = [{"seat": i % 3, "bid": "passo", "cards": 5 + 5 * (i // 3)} for i in range(14)]
    page = new_page(DESKTOP)
    open_fake(page, live_server.url, table(), v)
    open_panel(page, "log")
    page.locator(".log li").nth(13).wait_for()
    box = page.evaluate("""() => { const ol = document.querySelector('.log ol'); const r = ol.getBoundingClientRect();
        const last = ol.lastElementChild.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, lastTop: last.top, lastBottom: last.bottom, scrolls: ol.scrollHeight > ol.clientHeight,
                focusable: ol.tabIndex >= 0}; }""")
    assert box["scrolls"] and box["focusable"], box
    assert box["top"] - 1 <= box["lastTop"] and box["lastBottom"] <= box["bottom"] + 1, box  # the newest, whole
    check_axe(page, "the long log")


def test_a_left_out_seat_link_says_so_plainly(live_server, new_page):
    from .test_room import create_room
    host = new_page(DESKTOP)
    own, links = create_room(host, live_server.url, 4)
    host.goto(own)
    for link in links[:2]:
        new_page(PHONE).goto(link)
    host.locator("#start-three").click()
    host.locator(".hand .card").first.wait_for()
    late = new_page(PHONE)
    late.goto(links[2])
    late.locator(".error").wait_for()
    late.wait_for_timeout(300)
    body = late.locator("body").inner_text()
    assert "does not open any seat" in body
    assert "Connecting" not in body, body
    assert not re.search(r"\(?\b[RACB]\d+\)?", body), body  # no ruling ids for players
    check_axe(late, "a left-out link")


def test_the_question_is_only_what_the_view_offers(live_server, new_page):
    deal = find_deal(lambda d: d.phase == "announce" and d.to_act == 0)
    v = view(deal)
    page = new_page(DESKTOP)
    fake = open_fake(page, live_server.url, table(), v)
    # Only "no" offered (a newer server asks only when there is a choice): no question at all.
    only_no = dict(v, choices=[{"action": "no", "reason": None}])
    fake.push(v=only_no)
    page.wait_for_function("() => document.querySelectorAll('.actions button.word').length === 1")
    assert page.locator(".actions button.word").get_attribute("data-action") == "no"
    assert page.locator(".actions .question").count() == 0
    assert "Scommessa" not in page.locator(".actions").inner_text() and "Rivanto" not in page.locator(".actions").inner_text()
    # Rivanto and no offered: the question is Rivanto's alone.
    fake.push(v=dict(v, choices=[{"action": "rivanto", "reason": None}, {"action": "no", "reason": None}]))
    page.locator(".actions .question", has_text="Rivanto").wait_for()
    assert "Scommessa" not in page.locator(".actions").inner_text()
    # An announcement the page has no sentence for is still said in the log.
    fake.push(v=dict(v, announcements=[{"seat": 1, "announce": "scommessa_impossible"}]),
              events=[{"type": "announce", "seat": 1, "announce": "scommessa_impossible"}])
    page.locator(".log li", has_text="scommessa impossible").wait_for(state="attached")


def test_the_played_cards_panel_has_a_legend_and_says_who_played(live_server, new_page):
    deal = find_deal(lambda d: d.phase == "play" and len(d.view(0)["played"][1]) >= 2)
    v = view(deal)
    page = new_page(DESKTOP)
    open_fake(page, live_server.url, table(), v)
    open_panel(page, "played")
    panel = page.locator(".played-panel")
    panel.locator(".legend").first.wait_for()  # drawn once the deck's description has come (a CI run looked before)
    assert panel.locator(".legend").count() == 1
    legend = panel.locator(".legend").inner_text()
    assert "computer 1" in legend and "not played yet" in legend
    mark = panel.locator(".legend li.who", has_text="computer 1").locator(".by-key").inner_text()
    chip = panel.locator(".row-cards .mini.was-played[aria-label*='computer 1']").first
    assert chip.locator(".by").inner_text() == mark  # who played it, shown on the chip itself
    assert panel.locator(".row-cards .mini.was-played").count() == sum(len(p) for p in v["played"])
    check_axe(page, "the played-cards panel")  # color-contrast included


def test_a_name_typed_once_is_kept_and_shown_as_text(live_server, new_page):
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    page.fill("#my-name", "Ada <b>x</b>")
    page.click(".name-form button[type='submit']")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    me = page.locator(".seat.me .seat-name")
    me.wait_for()
    page.wait_for_function("() => document.querySelector('.seat.me .seat-name').textContent.startsWith('Ada')")
    assert me.text_content() == "Ada <b>x</b> (you)"
    assert page.locator(".seat-name b").count() == 0
    page.goto(live_server.url + "/")
    assert page.input_value("#my-name") == "Ada <b>x</b>"  # kept in the browser


def test_a_guest_names_itself_in_the_waiting_room(live_server, new_page):
    from .test_room import create_room
    host = new_page(DESKTOP)
    own, links = create_room(host, live_server.url, 3)
    host.goto(own)
    guest = new_page(PHONE)
    guest.goto(links[0])
    guest.locator("#my-name").fill("Bea")
    guest.click(".name-form button[type='submit']")
    host.locator(".waiting .joined li", has_text="Bea").wait_for()
    assert page_errors(host, guest) == []


def page_errors(*pages):
    return [e for p in pages for e in p.errors]


def test_rematch_keeps_the_table_and_the_link(live_server, new_page):
    page = new_page(PHONE)
    page.goto(live_server.url + "/")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    url = page.url
    for deal in range(1, 4):
        page.wait_for_function("n => (document.querySelector('.deal-no')?.textContent || '').includes(`Deal ${n} of 3`)", arg=deal)
        play_deal(page, prefer="passo")
        if deal < 3:
            page.click("#next-deal")
    page.locator(".result").wait_for()
    # The score sheet: each deal's payment and the running total, one tap away.
    open_panel(page, "sheet")
    rows = page.locator(".sheet-table tbody tr")
    assert rows.count() == 3
    totals = [int(x) for x in page.locator(".sheet-table tfoot td").all_inner_texts()]
    assert sum(totals) == 0
    page.keyboard.press("Escape")
    check_axe(page, "the match's end")
    page.click("#play-again")
    page.wait_for_function("() => /Deal 1 of 3/.test(document.querySelector('.deal-no')?.textContent || '')")
    assert page.url == url
    assert page.locator(".result").count() == 0
    assert [page.locator(f".seat[data-seat='{s}'] .stat.jochi").inner_text() for s in range(3)] == ["0 jochi"] * 3
    assert page.errors == []


def test_status_line_is_one_live_region_speaking_once_per_turn(live_server, new_page):
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.wait_for_function(TURN_OR_COUNT)
    page.evaluate("""() => {
        const s = document.querySelector('#status');
        s.__mark = 'kept';
        window.__said = [s.textContent];
        new MutationObserver(() => { if (s.textContent !== window.__said.at(-1)) window.__said.push(s.textContent); else window.__said.push('(same again)'); })
          .observe(s, {subtree: true, childList: true, characterData: true});
    }""")
    turns = 0
    while turns < 8 and not deal_over(page):
        page.wait_for_function(TURN_OR_COUNT)
        if deal_over(page):
            break
        take_turn(page)
        turns += 1
    status = page.locator("#status")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    assert page.evaluate("() => document.querySelector('#status').__mark") == "kept", "the live region was re-created"
    said = page.evaluate("() => window.__said")
    # Every change is a new sentence: the line is never rewritten with the same words, and a
    # turn of ours says "Your turn" once.
    assert "(same again)" not in said, said
    assert all(a != b for a, b in zip(said, said[1:])), said
    assert sum(1 for s in said if s.startswith("Your turn")) <= turns + 1, said
    assert page.errors == []


def test_turn_alert_title_last_trick_key_help_and_tooltips(live_server, new_page):
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    games = httpx.get(live_server.url + "/api/games").json()["games"]
    sic = next(g for g in games if g["name"] == "sicilian")
    # The level picker: the server's default level chosen, the strongest named as such.
    assert page.input_value("#level") == sic["default_level"]
    options = page.locator("#level option").all_inner_texts()
    assert "strongest" in options[-1] and not any("strongest" in o for o in options[:-1])
    # Help: each game's rules page, in the page's language.
    assert page.locator(".game-row a.help-link").first.get_attribute("href") == "/static/help/sicilian.en.html"
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.wait_for_function(TURN_OR_COUNT)
    assert page.locator(".topbar a.help-link").get_attribute("href") == "/static/help/sicilian.en.html"
    if phase(page) == "speak":
        assert page.title().startswith("●")
        tips = page.locator(".actions button.word").evaluate_all("els => els.map(e => e.title)")
        assert all(tips), tips
    # Play on until a trick is gathered, then L shows the last trick on demand.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_function(TURN_OR_COUNT)
        if deal_over(page):
            break
        if phase(page) == "play" and page.locator("#last-trick").count():
            if not my_turn(page):
                continue
            assert page.title().startswith("●")
            if page.locator(".center.trick.last").count() == 0:
                page.keyboard.press("l")
                page.locator(".center.trick.last").wait_for()
                assert page.get_attribute("#last-trick", "aria-pressed") == "true"
                page.keyboard.press("Escape")
                page.wait_for_function("() => !document.querySelector('.center.trick.last') || document.querySelector('.center.trick:not(.last)') === null")
                break
        take_turn(page)
    assert page.errors == []


def test_keys_move_along_the_hand_and_pick_the_speaking_buttons(live_server, new_page):
    page = new_page(DESKTOP)
    page.goto(live_server.url + "/")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.wait_for_function(TURN_OR_COUNT)
    assert phase(page) == "speak"
    cards = page.locator(".hand .card")
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards.nth(1).get_attribute("data-card")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards.nth(0).get_attribute("data-card")
    # The focus ring on a card: dark inside, bright outside, seen on any card's colour.
    ring = page.evaluate("() => getComputedStyle(document.activeElement.querySelector('.card-face')).boxShadow")
    assert "rgb(17, 17, 17)" in ring and "rgb(255, 213, 74)" in ring, ring
    # The number keys: 1 is the first speaking button (passo).
    first = page.locator(".actions button.word").first
    assert first.get_attribute("data-key") == "1" and first.get_attribute("data-action") == "passo"
    before = version(page)
    page.keyboard.press("1")
    page.wait_for_function("v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before)
    assert page.errors == []
