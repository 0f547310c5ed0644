"""No question without a choice (R12; issue 12: "Scommessa question when Yes is impossible:
ask only when there is a real choice, and say in the log that it was not possible"). The bidder
without the 20 is never shown the Scommessa buttons; the table answers No for it and its log
says Scommessa was not possible."""

from __future__ import annotations

import random

import pytest

from tarocchi.engine.cards import CODES
from tarocchi.server.core.hub import Chance
from tests.conftest import DESKTOP
from tests.engine.builders import deal_of
from tests.server.live import running_server

from .driver import open_panel, take_turn

pytestmark = pytest.mark.browser

# Records whether the page ever showed a Scommessa button, from the first frame on.
WATCH = """
window.__asked = false;
new MutationObserver(() => {
  if (document.querySelector("[data-action='scommessa']")) window.__asked = true;
}).observe(document, { subtree: true, childList: true });
"""


class Scripted(Chance):
    def __init__(self, deck):
        super().__init__(random.Random(1))
        self.order = deck

    def first_dealer(self, table) -> int:
        return 2  # the human, seat 0, speaks first

    def deck(self, table):
        return list(self.order)


def test_the_bidder_without_the_20_is_not_asked_and_its_log_says_why(new_page):
    deck = [CODES[c] for c in deal_of(3, 2, {1: ["20"]}, monte=["MC", "MO", "MS"]).deck]
    with running_server(chance=Scripted(deck)) as server:
        page = new_page(DESKTOP)
        page.add_init_script(WATCH)
        page.goto(server.url + "/")
        page.check("input[name='computer-game'][value='sicilian']")
        page.select_option("#level", "random")
        page.click("#sit-down")
        page.locator(".hand .card").first.wait_for()
        page.wait_for_function("() => document.querySelector('.status.yours')")
        assert take_turn(page, prefer="vado solo") == "vado solo"  # after a solo, only passo (R5)
        page.wait_for_function("() => document.querySelector('.table-page.phase-discard .status.yours')")
        take_turn(page)  # the discard
        # The status says why there is no question, while the table answers for the seat.
        page.wait_for_function("() => document.querySelector('.table-page.phase-play') || "
                               "document.querySelector('#status').textContent.includes('Scommessa is not possible')")
        page.wait_for_function("() => document.querySelector('.table-page.phase-play')")
        assert page.evaluate("() => window.__asked") is False, "the Scommessa question was shown"
        open_panel(page, "log")
        assert "You: no Scommessa (not possible" in page.locator("#panel-log").inner_text()
        assert not page.errors
