"""The Renaissance three-hand game in the browser (seed 001, RENAISSANCE.md): the lobby offers
it beside Sicilian, the cards are drawn from the deck the server describes, and whole deals are
played by clicking, at the computer table and in a room of three browsers. The dealer's three
extra cards are marked on the dealer's screen only (A6, A7); the discard is three cards picked,
then confirmed, with Kings, trumps and the Fool switched off and the reason beside them (A7); the
Fool's debt shows as a line (A13, A14); the count itemises every pile (A4, A15)."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from tarocchi.server.core.hub import TABLE_GAMES, Chance
from tests.conftest import DESKTOP, PHONE, shot
from tests.server.live import running_server

from .driver import deal_over, my_turn, payments, phase, play_deal, take_turn, wait_version_after
from .test_catalogue import block

pytestmark = pytest.mark.browser

FORBIDDEN = "you may not discard a King, a trump or the Fool"


class FirstDealer(Chance):
    """Seeded luck with a chosen first dealer (the computer table's human is seat 0)."""

    def __init__(self, dealer: int, seed: int):
        super().__init__(random.Random(seed))
        self.dealer = dealer

    def first_dealer(self, table) -> int:
        return self.dealer


def describe(base: str, name: str) -> dict:
    games = httpx.get(base + "/api/games").json()["games"]
    return next(g for g in games if g["name"] == name)


def shown_name(deck: dict, code: str) -> str:
    """A card's name as the page says it: the deck's, a trump with its number ("Star (17)")."""
    name = deck["names"][code]["en"]
    return f"{name} ({code})" if code.isdigit() else name


def hand_codes(page) -> list[str]:
    return page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


def check_hand_drawn_from_the_deck(page, deck: dict) -> None:
    """The hand is in the description's group order (trumps 21..1, cups and pentacles K Q H M
    1..10, swords and wands K Q H M 10..1, the Fool apart: A2), and each card's label and face
    come from the description's names and points."""
    order = [c for g in deck["groups"] for c in g["cards"]]
    hand = hand_codes(page)
    assert hand == sorted(hand, key=order.index)
    for code in hand:
        card = page.locator(f".hand .card[data-card='{code}']")
        label = card.locator(".card-label").text_content()
        name = deck["names"][code]["en"]
        assert label.startswith(name), (code, label)
        pts = deck["points"][code]
        assert (f"{pts} points" if pts > 1 else "1 point") in label
        if code.isdigit():  # a trump: its number on the chip and its name on the face (Magician .. World)
            assert f"({code})" in label
            face = card.locator("svg text").all_text_contents()
            assert code in face and " ".join(face).replace(" ", "").find(name.replace(" ", "")) >= 0, (code, face)


def check_discard_screen(page, deck: dict) -> list[str]:
    """The dealer's discard, by clicking: 28 cards, the three extra ones marked, Kings, trumps
    and the Fool switched off with the reason beside them; a switched-off card says why and
    sends nothing; confirm only with three chosen. Returns the discard."""
    assert phase(page) == "discard" and my_turn(page)
    hand = hand_codes(page)
    assert len(hand) == 28
    extra = page.locator(".hand .card.extra")
    assert extra.count() == 3
    extra_codes = [extra.nth(i).get_attribute("data-card") for i in range(3)]
    assert all("extra" in extra.nth(i).locator(".card-label").text_content() for i in range(3))
    assert page.locator(".center.extra .card-box").count() == 3  # and shown in the middle
    assert sorted(page.locator(".info .extra-cards .mini").evaluate_all("els => els.map(e => e.title)")) == \
        sorted(shown_name(deck, c) for c in extra_codes)
    off = {c for c in hand if c.isdigit() or c == "F" or c.startswith("K")}
    for code in hand:
        card = page.locator(f".hand .card[data-card='{code}']")
        if code in off:
            assert card.get_attribute("aria-disabled") == "true", code
            assert card.get_attribute("title") == FORBIDDEN
    if len(hand) - len(off) >= 3:  # (else A7's fallback switches some trumps on)
        assert all(page.locator(f".hand .card[data-card='{c}']").get_attribute("aria-disabled") is None
                   for c in hand if c not in off)
    assert FORBIDDEN in page.locator(".actions.discard .discard-why").inner_text()
    # A switched-off card: the status line says why, and nothing is sent.
    before = int(page.get_attribute(".table-page", "data-version"))
    page.locator(".hand .card[aria-disabled='true']").first.click(force=True)
    page.locator(".status .status-note", has_text=FORBIDDEN).wait_for()
    assert int(page.get_attribute(".table-page", "data-version")) == before
    allowed = [c for c in hand if page.locator(f".hand .card[data-card='{c}']").get_attribute("aria-disabled") is None]
    chosen = allowed[-3:]
    confirm = page.locator("#confirm-discard")
    for i, code in enumerate(chosen):
        assert confirm.is_disabled()
        page.click(f".hand .card[data-card='{code}']")
        assert page.locator(".discard-count").inner_text() == f"{i + 1} of 3 chosen"
    # A fourth card is not taken; a chosen one can be put back.
    page.click(f".hand .card[data-card='{allowed[0]}']")
    assert page.locator(".hand .card[aria-pressed='true']").count() == 3
    page.click(f".hand .card[data-card='{chosen[0]}']")
    assert page.locator(".hand .card[aria-pressed='true']").count() == 2 and confirm.is_disabled()
    page.click(f".hand .card[data-card='{chosen[0]}']")
    return chosen


def check_count(page, deck: dict, *, discard: list[str] | None, totals_before: list[int]) -> list[int]:
    """Each pile itemised: its cards worth 2 or more, the number of 1-point cards, the threes,
    the points, minus 26; the columns add up to the deck (59 one-pointers, 26 threes, 78
    points, scores summing to 0: A3, A4, A15); the discard face up; where the Fool's card went."""
    english = page.get_attribute("html", "lang") == "en"
    pts = re.compile(r"(\d+) (?:points|punti)")
    count = page.locator(".center.count")
    rows = count.locator(".piles-table tbody tr.pile-row")
    assert rows.count() == 3
    scores = []
    for i in range(3):
        row = rows.nth(i)
        ones, threes, points = (int(row.locator(f".{k}").inner_text()) for k in ("ones", "threes", "points"))
        score_text = row.locator(".score").text_content()  # (a phone hides the "points − 26 =")
        score = int(re.search(r"([+-]?\d+)$", score_text).group(1))
        assert score == points - 26 and f"{points} − 26" in score_text
        seat = row.get_attribute("data-seat")
        cards = count.locator(f".pile-cards-row[data-seat='{seat}'] .mini")
        labels = cards.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        assert all(int(pts.search(lab).group(1)) >= 2 for lab in labels), labels
        worth = sum(int(pts.search(lab).group(1)) for lab in labels)
        assert points == worth + ones - 2 * threes  # A4
        assert (len(labels) + ones) == 3 * threes  # every pile a multiple of three
        scores.append(score)
    foot = count.locator(".piles-table tfoot td").all_inner_texts()
    assert [x.strip() for x in foot] == ["59", "26", "78", "0"], foot
    assert sum(scores) == 0 and payments(page) == scores
    shown = count.locator(".ren-discard .card-box").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(shown) == 3  # the discard, face up to all at the count (A7)
    if discard and english:
        assert sorted(label.split(",")[0] for label in shown) == sorted(shown_name(deck, c) for c in discard)
    fool = count.locator(".count-fool").inner_text()
    if english:
        assert "played the Fool into" in fool and ("keeps the Fool and gives" in fool or "keep the Fool and give" in fool
                                                    or "the Fool itself goes to" in fool), fool
    else:
        assert "il Matto nell" in fool, fool
    totals = [int(page.locator(f".seats .seat[data-seat='{s}'] .stat.total").get_attribute("data-total")) for s in range(3)]
    assert totals == [b + s for b, s in zip(totals_before, scores)]
    return totals


def fool_watch(seen: list):
    """An on_turn hook: once the Fool has gone into another seat's trick (it never wins: A12),
    the line is there and says who owes whom (A13): "X owes Y a card" while no plain card is
    in X's pile, else where the card goes. ``seen`` gets the first line seen."""
    def on_turn(page, taken):
        line = page.locator(".board .fool-line")
        fool_played = page.locator(".played-panel .played-row").last.locator(".mini.was-played").count() == 1
        in_open_trick = page.locator(".center.trick:not(.last) .played[data-card='F']").count() == 1
        if fool_played and not in_open_trick:
            assert line.count() == 1, "the Fool was played: its line shows"
        if line.count():
            assert fool_played
            text = line.inner_text()
            if page.get_attribute("html", "lang") == "en":
                assert re.search(r"owes? .+ a card|played the Fool into", text), text
            else:
                assert re.search(r"deve una carta|Devi una carta|il Matto nell", text), text
            if not seen:
                seen.append(text)
                shot(page, f"renaissance-fool-{'phone' if page.viewport_size['width'] < 500 else 'desktop'}")
    return on_turn


def test_lobby_offers_both_games(live_server, new_page):
    page = new_page(PHONE)
    page.goto(live_server.url + "/")
    for card in ("computer-game", "room-game"):
        games = page.locator(f"input[name='{card}']")
        games.first.wait_for()
        assert games.evaluate_all("els => els.map(e => e.value)") == list(TABLE_GAMES)  # Sicilian first
        assert games.first.is_checked()
    assert page.locator("input[name='computer-seats']").count() == 2  # Sicilian: three or four
    page.check("input[name='computer-game'][value='renaissance']")
    # Renaissance is played at three: one seats choice, and the game's own levels.
    seats = page.locator("input[name='computer-seats']")
    assert seats.count() == 1 and seats.first.get_attribute("value") == "3" and seats.first.is_checked()
    levels = page.locator("select#level option").evaluate_all("els => els.map(e => e.value)")
    assert levels == describe(live_server.url, "renaissance")["levels"]
    page.check("input[name='room-game'][value='renaissance']")
    assert page.locator("input[name='room-seats']").count() == 1
    shot(page, "lobby-games-phone")
    page.get_by_role("button", name="Leggi in italiano").click()
    page.get_by_text("Tarocchi del Rinascimento").first.wait_for()
    assert page.locator(".game-pick legend").first.inner_text() == "Gioco"
    assert page.errors == []


@pytest.mark.parametrize("dealer,size", [(0, DESKTOP), (1, PHONE)], ids=["dealer-desktop", "not-dealer-phone"])
def test_renaissance_deal_at_the_computer_table(new_page, dealer, size):
    tag = f"renaissance-computer-{'desktop' if size is DESKTOP else 'phone'}"
    with running_server(chance=FirstDealer(dealer, seed=11 + dealer)) as server:
        deck = describe(server.url, "renaissance")["deck"]
        page = new_page(size)
        page.goto(server.url + "/")
        page.check("input[name='computer-game'][value='renaissance']")
        page.select_option("select", "random")
        page.click("#sit-down")
        page.wait_for_url("**/t/**")
        page.locator(".hand .card").first.wait_for()
        assert page.get_attribute(".table-page", "data-game") == "renaissance"
        assert page.locator(".seats .seat").count() == 3
        assert page.locator(".deal-no").inner_text() == "Deal 1 of 3"  # deal k of 3N (A16)
        assert page.locator(f".seats .seat[data-seat='{dealer}'] .tag.dealer").count() == 1
        assert page.locator(".log").count() == 0  # nothing is announced (A8)
        page.wait_for_function("() => document.querySelector('.status.yours') || document.querySelector('.center.count')")
        check_hand_drawn_from_the_deck(page, deck)
        chosen = None
        if dealer == 0:
            chosen = check_discard_screen(page, deck)
            shot(page, f"{tag}-discard")
            before = int(page.get_attribute(".table-page", "data-version"))
            page.click("#confirm-discard")
            wait_version_after(page, before)
            page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 25")
            assert sorted(page.locator(".info .discard-cards .mini").evaluate_all("els => els.map(e => e.title)")) == \
                sorted(shown_name(deck, c) for c in chosen)
            assert not set(chosen) & set(hand_codes(page))
        else:
            # Not the dealer: 25 cards, nothing marked, and the dealer's cards unseen.
            assert len(hand_codes(page)) == 25
            assert page.locator(".card.extra, .center.extra, .info .extra-cards").count() == 0
        dimmed: list = []
        seen_fool: list = []
        shots = {"play": False}
        watch = fool_watch(seen_fool)

        def on_turn(p, taken):
            watch(p, taken)
            if not shots["play"] and p.locator(".center.trick:not(.last) .played").count() == 2:
                shots["play"] = True
                shot(p, f"{tag}-play")
        play_deal(page, check_dimmed=dimmed, on_turn=on_turn, timeout=120)
        assert deal_over(page)
        assert dimmed, "a switched-off card in play said why (follow cups, play a trump ...)"
        shot(page, f"{tag}-count")
        totals = check_count(page, deck, discard=chosen, totals_before=[0, 0, 0])
        assert page.locator(".board .fool-line").count() == 0  # settled at the count
        assert page.errors == []
        page.click("#next-deal")
        page.wait_for_function("() => (document.querySelector('.deal-no')?.textContent || '') === 'Deal 2 of 3'")
        assert page.locator(f".seats .seat[data-seat='{(dealer + 1) % 3}'] .tag.dealer").count() == 1  # A5
        assert [int(page.locator(f".seats .seat[data-seat='{s}'] .stat.total").get_attribute("data-total"))
                for s in range(3)] == totals


def test_renaissance_room_in_three_browsers(new_page):
    """Host, guest 1 (in Italian) and guest 2 each in their own browser context: the host deals,
    only the host sees the extra cards, the discard goes by clicks, every seat plays its cards,
    refusals read in each page's language (by reason id), and all three see the same count."""
    italian_ids = set(block("REASON_IDS_IT").values())
    with running_server(chance=FirstDealer(0, seed=5)) as server:
        host = new_page(DESKTOP)
        host.goto(server.url + "/")
        host.check("input[name='room-game'][value='renaissance']")
        assert host.locator("input[name='room-seats']").count() == 1
        host.click("#create-room")
        host.locator(".room-links .link-row").nth(1).wait_for()
        guests_links = host.locator(".room-links .link-url").evaluate_all("els => els.map(e => e.value)")
        own = server.url + host.locator(".room-links .host-link a").get_attribute("href")
        host.goto(own)
        guests = [new_page(PHONE, locale="it-IT"), new_page(PHONE)]
        for page, link in zip(guests, guests_links):
            page.goto(link)
        pages = [host] + guests
        for page in pages:
            page.locator(".hand .card").first.wait_for()
            assert page.get_attribute(".table-page", "data-game") == "renaissance"
        host.wait_for_function("() => document.querySelector('.status.yours')")
        # The dealer's three extra cards: on the dealer's screen only.
        assert host.locator(".hand .card.extra").count() == 3
        extra = host.locator(".hand .card.extra").evaluate_all("els => els.map(e => e.dataset.card)")
        for page in guests:
            assert page.locator(".card.extra, .center.extra, .info .extra-cards").count() == 0
            assert len(hand_codes(page)) == 25
        assert "discards three" in guests[1].locator(".status").inner_text()
        assert "scarta tre carte" in guests[0].locator(".status").inner_text()
        shot(guests[0], "renaissance-room-waiting-discard-phone-it")
        deck = describe(server.url, "renaissance")["deck"]
        chosen = check_discard_screen(host, deck)
        shot(host, "renaissance-room-discard-desktop")
        take_turn_confirm = host.locator("#confirm-discard")
        before = int(host.get_attribute(".table-page", "data-version"))
        take_turn_confirm.click()
        wait_version_after(host, before)
        host.wait_for_function("() => document.querySelectorAll('.hand .card').length === 25")
        # A reload comes back to the same screen: the hand, the extra cards still marked, the discard.
        hand = hand_codes(host)
        host.reload()
        host.locator(".hand .card").first.wait_for()
        assert hand_codes(host) == hand
        assert sorted(host.locator(".hand .card.extra").evaluate_all("els => els.map(e => e.dataset.card)")) == \
            sorted(set(extra) & set(hand))
        assert host.locator(".info .discard-cards .mini").count() == 3 and host.locator(".info .extra-cards .mini").count() == 3

        tricks_seen = 0
        checked_italian = False
        seen_fool: list = []
        watch = fool_watch(seen_fool)
        deadline = time.monotonic() + 150
        while not all(deal_over(p) for p in pages):
            assert time.monotonic() < deadline, "the room's deal did not finish"
            turn = next((p for p in pages if my_turn(p)), None)
            if turn is None:
                time.sleep(0.03)
                continue
            assert phase(turn) == "play"
            if turn is guests[0] and not checked_italian and turn.locator(".hand .card[aria-disabled='true']").count():
                # Translated by id: "rispondi a coppe", "gioca un trionfo", ...
                title = turn.locator(".hand .card[aria-disabled='true']").first.get_attribute("title")
                assert title in italian_ids, title
                assert "Tocca a te: gioca una carta." in turn.locator(".status").inner_text()
                shot(turn, "renaissance-room-play-phone-it")
                checked_italian = True
            if turn.locator(".center.trick.last").count():
                tricks_seen += 1
            watch(turn, [])
            take_turn(turn)
        assert tricks_seen >= 5
        assert checked_italian, "guest 1 never had a switched-off card"
        scores = [payments(p) for p in pages]
        assert scores[0] == scores[1] == scores[2] and sum(scores[0]) == 0
        for page in pages:
            check_count(page, deck, discard=chosen if page is host else None, totals_before=[0, 0, 0])
            assert page.errors == []
        assert guests[0].locator(".center.count h2").first.inner_text() == "Il conto"
        shot(host, "renaissance-room-count-desktop")
        shot(guests[0], "renaissance-room-count-phone-it")


def test_refusals_translate_by_id_then_by_text(live_server, new_page):
    """The catalogue's reason(text, id): a refusal with an id reads in Italian by its id
    whatever its English wording; one without an id (Sicilian, the server's own) by its text;
    one the catalogue does not know stays as the server said it."""
    page = new_page(PHONE, locale="it-IT")
    page.goto(live_server.url + "/")
    page.get_by_text("Al tavolo col computer").wait_for()
    said = page.evaluate("""async () => {
        const m = await import("/static/i18n.js");
        return [m.reason("play a trump", "play_trump"), m.reason("a wording that changed", "follow_pentacles"),
                m.reason("follow the suit"), m.reason("the match is over", null), m.reason("something new", "no_such_id")];
    }""")
    assert said == ["gioca un trionfo", "rispondi a denari", "rispondi al seme", "la partita è finita", "something new"]
    page.get_by_role("button", name="Read in English").click()
    assert page.evaluate("""async () => (await import("/static/i18n.js")).reason("play a trump", "play_trump")""") == "play a trump"


class T9Deck(FirstDealer):
    """RENAISSANCE.md T9: the dealer (seat 0) holds all 21 trumps, the Fool, four Kings, QC and
    10S, so the discard must be QC, 10S and one of trumps 2-20 (A7's fallback)."""

    DEALER = [str(n) for n in range(1, 22)] + ["F", "KC", "KO", "KS", "KB", "QC", "10S"]

    def deck(self, table) -> list[str]:
        codes = describe_codes()
        rest = [c for c in codes if c not in self.DEALER]
        random.Random(9).shuffle(rest)
        mine = iter(self.DEALER)
        others = iter(rest)
        order = []
        for i in range(15):  # A6: packets of five from dealer + 1: seats 1, 2, 0, five rounds
            source = mine if (1 + i) % 3 == 0 else others
            order += [next(source) for _ in range(5)]
        return order + [next(mine) for _ in range(3)]  # cards 76-78 to the dealer


def describe_codes() -> list[str]:
    from tarocchi.engine.game import get_game

    import tarocchi.games  # noqa: F401 (registers the games)
    return list(get_game("renaissance").deck.codes)


def test_discard_fallback_in_italian(new_page):
    """T9 by clicking, in Italian: only QC, 10S and trumps 2-20 switched on, with the note that
    trumps fill the discard; two trumps are refused by the server, by reason id, in Italian;
    QC, 10S and one trump go."""
    with running_server(chance=T9Deck(0, seed=1)) as server:
        page = new_page(PHONE, locale="it-IT")
        page.goto(server.url + "/")
        page.check("input[name='computer-game'][value='renaissance']")
        page.select_option("select", "random")
        page.click("#sit-down")
        page.wait_for_url("**/t/**")
        page.wait_for_function("() => document.querySelector('.status.yours')")
        assert phase(page) == "discard" and len(hand_codes(page)) == 28
        on = sorted(c for c in hand_codes(page)
                    if page.locator(f".hand .card[data-card='{c}']").get_attribute("aria-disabled") is None)
        assert on == sorted(["QC", "10S"] + [str(n) for n in range(2, 21)], key=str)
        for code in ("21", "1", "F", "KC", "KO", "KS", "KB"):
            assert page.locator(f".hand .card[data-card='{code}']").get_attribute("title") == \
                "non si scarta un Re, un trionfo o il Matto"  # by its id, discard_forbidden
        assert "i trionfi dal 2 al 20 completano lo scarto" in page.locator(".discard-fallback").inner_text()
        shot(page, "renaissance-discard-fallback-phone-it")
        for code in ("QC", "5", "6"):
            page.click(f".hand .card[data-card='{code}']")
        page.click("#confirm-discard")
        note = page.locator(".status .status-note")
        note.wait_for()
        assert note.inner_text() == "Non si può: solo i trionfi dal 2 al 20, e non più del necessario."  # discard_fallback
        assert len(hand_codes(page)) == 28
        page.click(".hand .card[data-card='6']")  # put one back
        page.click(".hand .card[data-card='10S']")
        before = int(page.get_attribute(".table-page", "data-version"))
        page.click("#confirm-discard")
        wait_version_after(page, before)
        page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 25")
        assert not {"QC", "10S", "5"} & set(hand_codes(page))
        assert page.errors == []
