"""Ottocento in the browser (OTTOCENTO.md B1-B27, docs/records.md "Ottocento"): the lobby
offers it for the computer table and rooms of four; partners are marked (B5) and both sides'
totals show toward 800 (B26); the a monte question after five cards (B7); the dealer's discard
of two with the 5-point cards off (B8); the declaration step from the full best declaration,
a combination removed, then declared, and the declaration face up beside its seat on every
screen until the first lead (B9-B18); the signal toggles on the leader's screen and the
signal on the led card for all (B22); the count with both piles itemised (B21, B24, B25).
Whole deals are played by clicking, at the computer table (random players) at desktop and
phone size, and in a room of four browsers (phone and desktop, one in Italian)."""

from __future__ import annotations

import random
import time

import pytest

from tarocchi.games.ottocento import CODES
from tarocchi.server.core.hub import Chance
from tests.conftest import DESKTOP, PHONE, shot
from tests.server.live import running_server

from .checks import check_axe, check_inside, screen
from .driver import TURN_OR_COUNT, close_panels, deal_over, my_turn, open_panel, payments, phase, version, wait_version_after

pytestmark = pytest.mark.browser

FIVES = {"20", "19", "0", "F", "KC", "KO", "KS", "KB"}  # B8: never discarded
# Seat 0's hand in these tests: Tarocchi (20 19 F), Kings (KC KB KS) and sequences (B9-B16):
# at least two combinations to declare, one to remove; one coin alone (a Volo, B22).
HAND = ["20", "19", "F", "KC", "KB", "KS", "QC", "HC", "1C", "7C", "9O", "6S", "7S", "8B", "9B"]


class Scripted(Chance):
    """The first dealer, and a first deck that deals ``hand`` to ``seat``; the rest at random."""

    def __init__(self, dealer: int, seat: int = 0, hand: list[str] | None = None, seed: int = 1):
        super().__init__(random.Random(seed))
        self.dealer, self.seat, self.hand, self.dealt = dealer, seat, hand, False

    def first_dealer(self, table) -> int:
        return self.dealer

    def deck(self, table) -> list[str]:
        if self.dealt or self.hand is None:
            return super().deck(table)
        self.dealt = True
        rest = [c for c in CODES if c not in self.hand]
        self.rng.shuffle(rest)
        i = (self.seat - self.dealer - 1) % 4  # B6: packets of five from dealer + 1, three rounds
        places = [5 * (4 * r + i) + k for r in range(3) for k in range(5)]
        if self.seat == self.dealer:
            places = places[:13] + [60, 61]  # the dealer's last two are cards 61-62
        deck: list[str | None] = [None] * 62
        for p, code in zip(places, self.hand):
            deck[p] = code
        it = iter(rest)
        return [c if c is not None else next(it) for c in deck]


def cards_of(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")


def look(page, seen: dict) -> None:
    """Each phase once a page: everything inside the screen, no accessibility fault, a screenshot."""
    now = phase(page)
    if now in seen:
        return
    seen[now] = True
    width = page.viewport_size["width"]
    size = "small" if width < 380 else "phone" if width < 500 else "desktop"
    lang = page.get_attribute("html", "lang")
    where = f"ottocento {now} {size} {lang}"
    screen(page, "ottocento", now, size, lang)
    check_inside(page, where)
    check_axe(page, where)


def take_turn(page, *, seen: dict, monte: str = "gioco", remove: bool = False, signal: str | None = None) -> str:
    """One action for this page's seat by clicking, in any Ottocento phase."""
    look(page, seen)
    before = version(page)
    now = phase(page)
    if now == "monte":
        page.click(f".actions button[data-action='{monte}']")
        done = monte
    elif now == "discard":
        hand = cards_of(page, ".hand .card")
        off = cards_of(page, ".hand .card[aria-disabled='true']")
        assert set(off) == FIVES & set(hand), "exactly the 5-point cards are off (B8)"
        allowed = [c for c in hand if c not in off]
        confirm = page.locator("#confirm-discard")
        for code in allowed[:2]:
            assert confirm.is_disabled()
            page.click(f".hand .card[data-card='{code}']")
        page.locator(".hand .card[aria-pressed='true']").nth(1).wait_for()
        confirm.click()
        done = "discard " + " ".join(allowed[:2])
    elif now == "declare":
        rows = page.locator(".actions.declare .combo-row")
        chip = page.locator(".combo-row .chip:not([disabled])")
        if remove and chip.count():  # a card taken out of a combination (shrinkable), then put back
            row = page.locator(f".combo-row[data-kind='{chip.first.evaluate('e => e.closest(`.combo-row`).dataset.kind')}']")
            code, was = chip.first.get_attribute("data-card"), row.locator(".combo-points").inner_text()
            chip.first.click()
            page.locator(f".combo-row .chip[data-card='{code}'][aria-pressed='false']").first.wait_for()
            assert row.locator(".combo-points").inner_text() != was
            page.click(f".combo-row .chip[data-card='{code}'][aria-pressed='false']")
            page.locator(f".combo-row .chip[data-card='{code}'][aria-pressed='true']").first.wait_for()
            assert row.locator(".combo-points").inner_text() == was
        if remove and rows.count() >= 2:
            kind = rows.first.get_attribute("data-kind")
            total = int(page.get_attribute(".declare-total", "data-points"))
            page.click(f".combo-row[data-kind='{kind}'] .drop")
            page.locator(f".combo-row.off[data-kind='{kind}']").wait_for()
            assert int(page.get_attribute(".declare-total", "data-points")) < total
            look(page, {})  # the step with a combination left out
        confirm = page.locator("#confirm-declare")
        if confirm.count() and confirm.is_enabled():
            confirm.click()
        else:
            page.click(".actions.declare button[data-action='declare']")
        done = "declare"
    elif now == "play":
        if signal and page.locator(".ott-signals").count():
            page.click(f".ott-signals button[data-signal='{signal}']")
            page.locator(f".ott-signals button[data-signal='{signal}'][aria-pressed='true']").wait_for()
        card = page.locator(".hand .card:not([aria-disabled='true'])").first
        done = card.get_attribute("data-card")
        card.click()
        page.locator(f".hand .card[data-card='{done}']").wait_for(state="detached")
    else:
        raise AssertionError(f"my turn in phase {now!r}")
    try:
        wait_version_after(page, before)
    except Exception:
        shot(page, "ottocento-stuck")
        raise AssertionError(f"{done!r} not taken: {page.locator('#status').inner_text()}") from None
    return done


def check_count(page) -> None:
    """Both piles itemised: the declarations, the combinations in each pile with their cards and
    points, card points in pairs, the last trick, the discard, the Matto; partners score alike."""
    count = page.locator(".center.count")
    count.wait_for()
    p = payments(page)
    assert len(p) == 2  # partners score alike (B24): one line a side (issue 22)
    if count.locator(".ott-thrown").count():
        assert p == [0, 0]
        return
    sides = count.locator(".ott-side")
    assert sides.count() == 2
    for i in range(2):
        text = sides.nth(i).inner_text()
        assert int(sides.nth(i).locator(".side-score").get_attribute("data-score")) == p[i]
        assert sides.nth(i).locator("dt").count() == 4, text  # declared, pile, card points, last trick
    assert count.locator(".count-discard .mini").count() == 2
    assert count.locator(".count-fool").count() == 1


@pytest.mark.parametrize("size,name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_computer_table_deal_by_clicking(new_page, size, name):
    # Desktop: seat 3 deals, the human (seat 0) is asked a monte first, declares first and leads
    # the first trick with a signal. Phone: the human deals, discards two and declares last.
    dealer = 3 if name == "desktop" else 0
    with running_server(chance=Scripted(dealer, 0, HAND, seed=5)) as server:
        page = new_page(size)
        page.goto(server.url + "/")
        page.check("input[name='computer-game'][value='ottocento']")
        assert page.locator("input[name='computer-seats'][value='4']").is_checked()
        page.select_option("#level", "random")
        page.click("#sit-down")
        page.locator(".hand .card").first.wait_for()
        assert page.get_attribute(".table-page", "data-game") == "ottocento"
        # Partners: side A seats 0 and 2 (the partner marked), side B 1 and 3; both toward 800.
        assert page.locator(".seat[data-seat='2'] .tag.partner").count() == 1
        assert page.locator(".seat .tag.partner").count() == 1
        assert page.locator(".seat[data-seat='1'] .tag.team-b").count() == 1
        assert "800" in page.locator(".ott-totals").inner_text()
        seen: dict = {}
        if name == "desktop":
            page.wait_for_function("() => document.querySelector('.status.yours')")
            assert phase(page) == "monte" and page.locator(".hand .card").count() == 5
            assert page.locator(".actions button[data-action='a monte']").count() == 1
            shot(page, "ottocento-monte-desktop")
            take_turn(page, seen=seen, monte="gioco")
        signalled = False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            page.wait_for_function(TURN_OR_COUNT)
            if deal_over(page):
                break
            now = phase(page)
            leads = now == "play" and not signalled and page.locator(".ott-signals").count() > 0
            if leads and name == "desktop":
                # The first trick, the whole scripted hand. Volo (B22): the cards of a suit
                # still held are off with the reason; the 9 of coins, the only coin, may go.
                volo = page.locator(".ott-signals button[data-signal='volo']")
                volo.click()
                page.locator(".ott-signals button[data-signal='volo'][aria-pressed='true']").wait_for()
                off = cards_of(page, ".hand .card[aria-disabled='true']")
                assert "9O" not in off and {"KC", "7C", "20", "F", "8B"} <= set(off), off
                assert "volo" in page.locator(".hand .card[data-card='KC']").get_attribute("title")
                assert "Volo" in page.locator("#status").inner_text()
                shot(page, "ottocento-volo-desktop")
                volo.click()
                page.locator(".ott-signals button[data-signal='volo'][aria-pressed='false']").wait_for()
                assert not cards_of(page, ".hand .card[aria-disabled='true']")
            if leads:
                take_turn(page, seen=seen, signal="trionfi")
                signalled = True
                # The signal is on the led card (the trick, or the last trick once it is full).
                tag = page.locator(".center .played .signal-tag")
                if tag.count():
                    assert tag.first.inner_text().lower() == "trionfi"
                continue
            if now == "declare":
                take_turn(page, seen=seen, remove=True)
                if name == "desktop":  # the human leads first: every declaration face up until then
                    page.locator(".seat.me .declared .combo").first.wait_for()
                    page.wait_for_function("() => document.querySelectorAll('.seat .declared').length === 4")
                shot(page, f"ottocento-declared-{name}")
                continue
            take_turn(page, seen=seen)
        else:
            raise AssertionError("the deal did not finish in time")
        shot(page, f"ottocento-count-{name}")
        look(page, seen)
        check_count(page)
        # "N of 800", or "N, 800 reached" once a side is there (B26: the computers play at random,
        # and a deal of big declarations can reach it at once).
        total = page.locator(".seat.me .stat.total")
        said = total.inner_text()
        assert ("800 reached" if int(total.get_attribute("data-total")) >= 800 else "of 800") in said, said
        assert not page.errors


def test_a_room_deal_in_four_browsers(new_page):
    """Seat 3 deals. The host (seat 0) says a monte, seat 1 gioco (B7); the dealer discards two
    (B8); the host removes one combination and declares: its declaration shows face up beside
    its seat on the three other screens (B9); the host leads with Busso: the signal shows on
    the led card on every screen (B22); all four play to the same count."""
    with running_server(chance=Scripted(3, 0, HAND, seed=7)) as server:
        host = new_page(DESKTOP)
        host.goto(server.url + "/")
        host.check("input[name='room-game'][value='ottocento']")
        host.click("#create-room")
        host.locator(".room-links .link-row").nth(2).wait_for()
        links = host.locator(".room-links .link-url").evaluate_all("els => els.map(e => e.value)")
        assert len(links) == 3
        host.goto(server.url + host.locator(".room-links .host-link a").get_attribute("href"))
        guests = [new_page(PHONE), new_page(DESKTOP, locale="it-IT"), new_page(PHONE)]
        for page, link in zip(guests, links):
            page.goto(link)
        pages = [host] + guests
        seen = {id(p): {} for p in pages}
        for page in pages:
            page.locator(".hand .card").first.wait_for()
        host.wait_for_function("() => document.querySelector('.status.yours')")
        assert phase(host) == "monte"
        take_turn(host, seen=seen[id(host)], monte="a monte")
        for page in guests:
            page.wait_for_function("() => document.querySelector('.ott-monte .said li')")
        guests[0].wait_for_function("() => document.querySelector('.status.yours')")
        take_turn(guests[0], seen=seen[id(guests[0])], monte="gioco")
        dealer = guests[2]
        dealer.wait_for_function("() => document.querySelector('.status.yours')")
        assert phase(dealer) == "discard" and dealer.locator(".hand .card").count() == 17
        take_turn(dealer, seen=seen[id(dealer)])
        host.wait_for_function("() => document.querySelector('.status.yours')")
        assert phase(host) == "declare"
        kinds = host.locator(".combo-row").evaluate_all("els => els.map(e => e.dataset.kind)")
        assert len(kinds) >= 2, kinds
        take_turn(host, seen=seen[id(host)], remove=True)
        for page in guests:  # face up beside the host's seat, the removed one left out
            page.locator(".seat[data-seat='0'] .declared .combo").first.wait_for()
            shown = page.locator(".seat[data-seat='0'] .declared .combo").evaluate_all("els => els.map(e => e.dataset.kind)")
            assert shown == kinds[1:], shown
        shot(guests[1], "ottocento-declared-desktop-it")
        for page in guests:
            page.wait_for_function("() => document.querySelector('.status.yours')")
            take_turn(page, seen=seen[id(page)])
        host.wait_for_function("() => document.querySelector('.status.yours')")
        assert phase(host) == "play" and host.locator(".ott-signals button").count() == 3
        for page in guests:
            assert page.locator(".ott-signals").count() == 0  # on the leader's screen only
            assert page.locator(".seat .declared").count() == 4  # every declaration, before the first lead
        led = take_turn(host, seen=seen[id(host)], signal="busso")
        for page in pages:
            page.locator(f".center .played[data-card='{led}'] .signal-tag[data-signal='busso']").wait_for()
            assert page.locator(".seat .declared").count() == 0  # in the log from the first lead
        assert "busso" in guests[1].locator(".center .signal-tag").inner_text().lower()
        shot(guests[0], "ottocento-signal-phone")
        deadline = time.monotonic() + 150
        while not all(deal_over(p) for p in pages):
            assert time.monotonic() < deadline
            for page in pages:
                if my_turn(page) and not deal_over(page):
                    take_turn(page, seen=seen[id(page)])
            time.sleep(0.05)
        for page in pages:
            check_count(page)
            look(page, seen[id(page)])
            assert not page.errors
        assert payments(host) == payments(guests[0]) == payments(guests[1]) == payments(guests[2])
        shot(guests[1], "ottocento-count-desktop-it")
        # The log: the a monte answers, every declaration, every signal (B9, B22).
        open_panel(guests[0], "log")
        log = guests[0].locator("#panel-log").inner_text()
        assert "host: a monte" in log and "host declared" in log and "with Busso" in log, log
        shot(guests[0], "ottocento-log-phone")
        close_panels(guests[0])
        shot(guests[0], "ottocento-count-phone")


def sit_until(page, url: str, level: str, until: str) -> None:
    """At a computer Ottocento table of ``level`` players, the seat's turns taken by clicking
    (gioco at the a monte question, B7) until its turn in phase ``until``."""
    page.goto(url + "/")
    page.check("input[name='computer-game'][value='ottocento']")
    page.select_option("#level", level)
    page.click("#sit-down")
    page.locator(".hand .card").first.wait_for()
    for _ in range(10):
        page.wait_for_function(TURN_OR_COUNT)
        if phase(page) == until:
            break
        take_turn(page, seen={}, monte="gioco")
    assert phase(page) == until


# Hands of many combinations (B10-B16): eight rows (the Tarocchi, the Kings' and Queens'
# cricche, a sequence in each suit), and seven (the cricche of Kings, Queens and Knights and a
# sequence in each suit).
RICH = {"eight": "KC KO KS KB QC QO QS QB 20 19 18 1 0 F MC".split(),
        "cricche": "KC KO KS KB QC QO QS QB HC HO HS HB 20 1 F".split()}


@pytest.mark.parametrize("hand", ["eight", "cricche"])
@pytest.mark.parametrize("size", ["small", "phone", "desktop"])
@pytest.mark.parametrize("locale", ["it-IT", "en-GB"])
def test_a_hand_rich_in_combinations_declares_on_every_screen(new_page, hand, size, locale):
    """A hand of seven or eight combinations: the list scrolls within the screen, and the hand,
    the status, the Declare buttons and the list stay inside it, at 360x640 in Italian too
    (the rows once pushed the hand 250 px below the screen). The last row, scrolled to, can be
    taken out of the declaration."""
    from .checks import SIZES

    with running_server(chance=Scripted(3, 0, RICH[hand], seed=5)) as server:
        page = new_page(SIZES[size], locale=locale)
        sit_until(page, server.url, "random", "declare")
        rows = page.locator(".actions.declare .combo-row")
        assert rows.count() >= 7
        where = f"ottocento rich declaration {hand} {size} {locale}"
        screen(page, "ottocento", f"declare-{hand}", size, locale[:2])
        check_inside(page, where)
        check_axe(page, where)
        total = int(page.get_attribute(".declare-total", "data-points"))
        last = rows.last.locator("button.drop")
        last.scroll_into_view_if_needed()
        check_inside(page, where + ", scrolled")
        last.click()
        page.wait_for_function(f"() => +document.querySelector('.declare-total').dataset.points < {total}")
        assert page.errors == []


@pytest.mark.parametrize("size", ["small", "phone"])
def test_a_seat_rich_in_combinations_beside_the_first_lead_fits_the_screen(new_page, size):
    """B9, B22: until the first lead every declaration lies face up beside its seat, and the
    leader's screen offers the three signals. The seat on the left (a rule bot: the full best
    declaration) declares seven or eight combinations in a narrow tile; at the first lead the
    hand, the status, the signals and every card stay inside the screen, in both languages, and
    the declaration, when it is longer than its room, scrolls by keyboard too (a random deal
    once pushed the hand 37 px below 360x640)."""
    from .checks import SIZES
    from .test_screens import switch

    with running_server(chance=Scripted(3, 1, RICH["eight"], seed=5)) as server:
        page = new_page(SIZES[size])
        sit_until(page, server.url, "rule", "play")
        assert page.locator(".ott-signals .signal").count() == 3
        left = page.locator(".seat[data-seat='1'] .declared")
        assert left.locator(".combo").count() >= 7
        for lang in ("en", "it"):
            switch(page, lang)
            where = f"ottocento first lead, seven combinations beside a seat, {size} {lang}"
            screen(page, "ottocento", "first-lead-rich-seat", size, lang)
            check_inside(page, where)
            check_axe(page, where)
        assert left.evaluate("e => e.scrollHeight <= e.clientHeight + 1 || e.tabIndex === 0")
        assert page.errors == []
