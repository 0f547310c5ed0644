"""Hints and the review of a deal in the browser (issue 21), in every game at a computer table:
on a turn in play with a choice, "Hint" shows the strongest computer player's ranked actions
(its choice first, each with its mean score in the game's units) in the cards' own names, for
that turn only; after the count, "Review my decisions" lists each of the seat's decisions
against the computer's. Both fit the screen at 1366x800, 390x844 and 360x640 and have no
accessibility fault, in English and in Italian (as tests/browser/test_screens.py; one deal
a game, the viewport resized on the same turn). A room's
host chooses hints at creation, and every seat sees the choice."""

from __future__ import annotations

import re

import pytest

from .checks import INSIDE, SIZES, check_axe
from .driver import TURN_OR_COUNT, deal_over, phase, resize, take_turn
from .fake import open_fake, table, view
from .test_issue22 import finished
from .test_screens import look, switch

pytestmark = pytest.mark.browser

UNITS = {"sicilian": ("joc", "joc"), "renaissance": ("point", "punt"), "calabresella": ("point", "punt"),
         "ottocento": ("point", "punt")}


class Looked(dict):
    """A game driver's ``seen``: every phase already looked at (this test looks at its own)."""

    def __contains__(self, key) -> bool:
        return True


def turn_taker(game: str):
    if game == "calabresella":
        from . import test_calabresella
        return lambda page: test_calabresella.take_turn(page, prefer=("vado solo",), seen=Looked())
    if game == "ottocento":
        from . import test_ottocento
        return lambda page: test_ottocento.take_turn(page, seen=Looked())
    return lambda page: take_turn(page, prefer="vado solo")


def sit_down(page, base: str, game: str) -> None:
    page.goto(base + "/")
    page.check(f"input[name='computer-game'][value='{game}']")
    page.select_option("#level", "random")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.locator(".hand .card").first.wait_for()


def check_hint(page, game: str) -> None:
    """The hint for this turn: the ranked actions, each an allowed card of the hand, the best
    one named in the sentence above, scores in the game's units; gone once the turn is played."""
    enabled = set(page.locator(".hand .card:not([aria-disabled='true'])").evaluate_all("els => els.map(e => e.dataset.card)"))
    names = dict(page.locator(".hand .card").evaluate_all("els => els.map(e => [e.dataset.card, e.title])"))
    page.click("#hint-button")
    items = page.locator(".hint-box .hint-list li")
    items.first.wait_for()
    actions = items.evaluate_all("els => els.map(e => e.dataset.action)")
    assert 2 <= len(actions) <= 3, actions
    cards = [a.split(" ")[0] for a in actions]  # (an Ottocento lead carries its signal: "7C volo")
    assert set(cards) <= enabled, (actions, enabled)
    best = page.locator(".hint-box .hint-best").inner_text()
    assert names[cards[0]] in best, (best, names[cards[0]])
    texts = items.all_inner_texts()
    assert all(names[c] in text for c, text in zip(cards, texts)), texts
    scores = [re.search(r"([+−]?\d+\.\d) ", text) for text in texts]
    assert all(scores) and UNITS[game][0] in texts[0] and "on average" in texts[0], texts
    assert page.get_attribute("#hint-button", "aria-pressed") == "true"  # the hint for this turn is shown
    switch(page, "it")
    assert UNITS[game][1] in page.locator(".hint-box .hint-list li").first.inner_text()
    assert "in media" in page.locator(".hint-box").inner_text()
    switch(page, "en")
    # Hidden and shown again from the page alone (the Hint button asks the server only once a turn).
    page.click(".hint-box .hint-close")
    page.locator(".hint-box").wait_for(state="detached")
    assert page.get_attribute("#hint-button", "aria-pressed") == "false"
    page.click("#hint-button")
    page.locator(".hint-box .hint-list li").first.wait_for()


def at_every_size(page):
    """The page at each screen size in turn (the viewport resized: the same deal, the same
    turn), its name given; back at the desktop's after."""
    for size in SIZES:
        resize(page, SIZES[size])
        yield size
    resize(page, SIZES["desktop"])


@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
def test_a_hint_on_a_turn_and_the_review_after_the_count(live_server, new_page, game):
    """One deal a game; the hint, a hint in another phase and the review looked at on every
    screen size, the viewport resized on the same turn."""
    page = new_page(SIZES["desktop"])
    sit_down(page, live_server.url, game)
    take = turn_taker(game)
    hinted, elsewhere = False, None
    for _ in range(80):
        page.wait_for_function(TURN_OR_COUNT)
        if deal_over(page):
            break
        now = phase(page)
        if elsewhere is None and now != "play" and page.locator("#hint-button:not([disabled])").count():
            # A hint in another phase (the auction, a discard, a monte): it moves nothing there
            # either (some of these screens are tight at 360x640 with or without it:
            # test_screens.py holds them to the viewport).
            for size in at_every_size(page):
                before = page.evaluate(INSIDE)
                page.click("#hint-button")
                page.locator(".hint-box .hint-list li").first.wait_for()
                assert page.evaluate(INSIDE) == before, size
                look(page, game, f"hint-{now}", size, inside=False)
                page.click(".hint-box .hint-close")
                page.locator(".hint-box").wait_for(state="detached")
            elsewhere = now
        choices = page.locator(".hand .card:not([aria-disabled='true'])").count()
        if not hinted and phase(page) == "play" and choices >= 2:
            check_hint(page, game)
            for size in at_every_size(page):
                look(page, game, "hint", size)
            hinted = True
            take(page)
            assert page.locator(".hint-box").count() == 0  # the hint was for the turn just played
            continue
        take(page)
    assert deal_over(page) and hinted
    page.click("#review-button")
    page.locator(".review[data-done='true']").wait_for(timeout=60_000)
    items = page.locator(".review-list li")
    assert items.count() >= 1
    texts = items.all_inner_texts()
    assert all(re.match(r"^(Trick \d+|Bidding|Discard|Answer|A monte|Declarations|Call|Monte|Lay|Give back): you chose ", t)
               for t in texts), texts
    differs = page.locator(".review-list li:not(.same)").count()
    summary = page.locator(".review-summary").inner_text()
    assert summary.startswith(f"{items.count() - differs} of {items.count()} decisions"), summary
    for size in at_every_size(page):
        page.locator(".center.count").evaluate("el => { el.scrollTop = el.scrollHeight; }")
        look(page, game, "review", size)
    switch(page, "it")
    assert "hai scelto" in page.locator(".review-list li").first.inner_text()
    switch(page, "en")
    assert page.errors == []


def test_the_host_chooses_hints_and_every_seat_sees_the_choice(live_server, new_page):
    pages = {}
    for allowed in (True, False):
        page = new_page(SIZES["desktop"])
        page.goto(live_server.url + "/")
        page.locator("#create-room").wait_for()
        if allowed:
            page.check("#room-hints")
        page.click("#create-room")
        page.locator(".room-links .link-url").first.wait_for()
        guest = page.locator(".room-links .link-url").first.input_value()
        other = new_page(SIZES["phone"])
        other.goto(guest)
        other.locator(".center.waiting").wait_for()
        pages[allowed] = other
    assert "Hints are allowed" in pages[True].locator(".center.waiting").inner_text()
    assert "did not allow hints" in pages[False].locator(".center.waiting").inner_text()
    for other in pages.values():
        check_axe(other, "room waiting with the hints note")
        assert other.locator("#hint-button").count() == 0


def test_the_review_is_offered_only_where_hints_are_allowed(live_server, new_page):
    """A room at the count: "Review my decisions" where the host allowed hints, nothing where
    not (the server refuses a review there, as it refuses a hint)."""
    deal = finished("sicilian", 3)
    pays = deal.returns()
    for hints in (True, False):
        page = new_page(SIZES["desktop"])
        open_fake(page, live_server.url, table(3, "sicilian", kind="room", status="between", totals=pays,
                                                sheet=[pays], hints=hints), view(deal))
        page.locator(".center.count .payments").wait_for()
        assert page.locator("#review-button").count() == (1 if hints else 0), hints
        assert page.errors == []
