"""A whole deal at the computer table, played by clicking, at three and at four seats."""

from __future__ import annotations

import re

import pytest

from tests.conftest import DESKTOP, PHONE, shot
from .driver import deal_over, payments, phase, play_deal, seat_totals

pytestmark = pytest.mark.browser


def sit_down(page, base: str, seats: int) -> None:
    page.goto(base + "/")
    page.locator(f"input[name='computer-seats'][value='{seats}']").check()
    # The level picker offers the levels the server accepts (GET /api/levels).
    page.wait_for_function("() => document.querySelectorAll('select option').length >= 1")
    assert "random" in [o.get_attribute("value") for o in page.locator("select option").all()]
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.locator(".hand .card").first.wait_for()


def check_count(page, seats: int, before: list[int] | None = None) -> list[int]:
    """The count is itemised jocu by jocu, pays to zero, shows the discards, and the seats'
    running totals take the payments (R15, R16)."""
    count = page.locator(".center.count")
    if page.locator(".jochi-table").count():
        names = count.locator(".jochi-table tbody td:first-child").all_inner_texts()
        assert any("Rimatura" in n for n in names) and any("Vanto" in n for n in names), names  # R15: every hand
        assert count.locator(".count-discard .mini").count() == 3  # the bidder's discards, shown
    paid = payments(page)
    assert len(paid) == seats and sum(paid) == 0
    before = before or [0] * seats
    totals = [seat_totals(page).get(str(s)) for s in range(seats)]
    assert totals == [b + p for b, p in zip(before, paid)]
    return totals


@pytest.mark.parametrize("seats,size", [(3, DESKTOP), (4, PHONE)], ids=["three-desktop", "four-phone"])
def test_whole_deal_at_the_computer_table(live_server, new_page, seats, size):
    page = new_page(size)
    tag = f"computer{seats}-{'phone' if size is PHONE else 'desktop'}"
    sit_down(page, live_server.url, seats)
    assert page.locator(".seats .seat").count() == seats
    assert page.locator(".seat .tag.dealer").count() == 1

    # Announcements are buttons; the refused ones are switched off with the reason beside.
    page.wait_for_function("() => document.querySelector('.status.yours') || document.querySelector('.center.count')")
    if phase(page) == "speak":
        shot(page, f"{tag}-speak")
        for bid in page.locator(".actions .bid.refused").all():
            assert bid.locator("button").is_disabled()
            assert bid.locator(".why").inner_text().strip()
        if seats == 3 and page.locator(".hand .card").count() == 5:
            pago = page.locator(".actions button[data-action='pago']")
            assert pago.is_disabled()  # R5: no pago at five cards; after a solo only passo
            solo_said = "vado solo" in page.locator(".log").inner_text()
            why = "after a vado solo only passo" if solo_said else "pago and prendo come at 10 cards and later"
            assert page.locator(".actions .bid.refused:has([data-action='pago']) .why").inner_text() == why

    dimmed_checked: list = []
    shots = {"discard": False, "play": False}

    def on_turn(p, taken):
        now = phase(p)
        if now in shots and not shots[now] and (now != "play" or p.locator(".center.trick:not(.last) .played").count()):
            shots[now] = True
            shot(p, f"{tag}-{now}")

    play_deal(page, check_dimmed=dimmed_checked, on_turn=on_turn)
    assert deal_over(page)
    shot(page, f"{tag}-count")
    if seats == 3:
        # The human prefers vado solo, so every three-seat deal is played out to the count.
        assert page.locator(".center.count .jochi-table").count() == 1
        assert dimmed_checked, "a dimmed card showed its reason in the status line"
        # Each seat answered the Scommessa or Rivanto question once (R12), or had no choice and
            # the table answered for it ("not possible"): the log lists the three.
        answers = [t for t in page.locator(".log li").all_inner_texts()
                       if re.search(r": no( Scommessa| Rivanto)?\.$", t) or "(not possible" in t or re.search(r" announces? ", t)]
        assert len(answers) == 3, page.locator(".log").inner_text()
    check_count(page, seats)
    assert page.locator(".lines li").count() >= 1
    assert page.locator(".log li").count() >= 1  # the announcements of the deal
    assert page.errors == []

    page.click("#next-deal")
    page.wait_for_function("() => /Deal 2 of/.test(document.querySelector('.deal-no')?.textContent || '')")
    assert page.locator(".center.count").count() == 0


def test_match_ends_on_the_result(live_server, new_page):
    """Deal after deal with Next deal until the last, which ends on the result: the highest
    total wins, a tie at the top shared (R4, R16). The human passes, so deals go quickly."""
    page = new_page(PHONE)
    sit_down(page, live_server.url, 3)
    totals = [0, 0, 0]
    for deal in range(1, 4):
        page.wait_for_function("n => (document.querySelector('.deal-no')?.textContent || '').includes(`Deal ${n} of 3`)", arg=deal)
        play_deal(page, prefer="passo")
        totals = check_count(page, 3, totals)
        if deal < 3:
            assert page.locator(".result").count() == 0
            page.click("#next-deal")
    result = page.locator(".result")
    result.wait_for()
    totals = seat_totals(page)
    assert sum(totals.values()) == 0
    top = max(totals.values())
    winners = result.locator(".winners").inner_text()
    for seat, total in totals.items():
        name = page.locator(f".seats .seat[data-seat='{seat}'] .seat-name").inner_text()
        if seat == "0":  # the human's own seat: "You win." / "You and ... share the win."
            assert winners.startswith("You") == (total == top), (winners, totals)
        else:
            # (a name that opens the line is capitalised: "Computer 2 wins.")
            assert (name.lower() in winners.lower()) == (total == top), (name, winners, totals)
    assert page.locator("#next-deal").count() == 0
    shot(page, "computer3-phone-result")
    assert page.errors == []
