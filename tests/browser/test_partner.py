"""The hidden partner at four seats, in four browsers (R9, R12): after a chiamo only the holder
of the called trump is told it is the partner; nobody else learns it until the called trump is
played, and at the count every screen names it."""

from __future__ import annotations

import random
import time

import pytest

from tarocchi.engine.cards import card
from tarocchi.games.sicilian import Deal
from tarocchi.server.core.hub import Chance
from tarocchi.server.core.tables import shuffled_deck
from tests.conftest import DESKTOP, PHONE
from tests.server.live import running_server

from .driver import deal_over, my_turn, phase, take_turn, wait_version_after
from .test_room import create_room

pytestmark = pytest.mark.browser


def seed_with_a_partner() -> int:
    """A seed whose first deal, with everyone passing at five cards and the first speaker
    calling at fifteen, gives the caller a partner (the called trump not in the monte)."""
    for seed in range(100):
        rng = random.Random(seed)
        dealer = rng.randrange(4)  # as Chance draws them: the first dealer, then the deck (R4, R3)
        deal = Deal(4, dealer, [card(c) for c in shuffled_deck(rng)])  # as Chance.deck draws a Sicilian one
        for _ in range(4):
            deal.apply("passo")
        deal.apply("chiamo")
        for _ in range(3):
            deal.apply("passo")
        if not deal.monte >> deal.called & 1:
            return seed
    raise AssertionError("no seed gives a partner")


def act(page) -> None:
    """Pass at five cards, call if nobody has, answer no to the questions; else as a player."""
    if phase(page) in ("speak", "announce"):
        before = int(page.get_attribute(".table-page", "data-version") or 0)
        call = page.locator(".actions button[data-action='chiamo']:not([disabled])")
        word = call.first if call.count() else page.locator(
            ".actions button[data-action='passo']:not([disabled]), .actions button[data-action='no']").first
        word.click()
        wait_version_after(page, before)
    else:
        take_turn(page)


def test_only_the_partner_knows_until_the_called_trump_is_played(new_page):
    with running_server(chance=Chance(random.Random(seed_with_a_partner()))) as server:
        host = new_page(DESKTOP)
        own, guest_links = create_room(host, server.url, 4)
        host.goto(own)
        pages = [host]
        for link in guest_links:
            page = new_page(PHONE)
            page.goto(link)
            pages.append(page)
        secret_seen = set()
        checked_first_lead = False
        deadline = time.monotonic() + 120
        while not deal_over(host):
            assert time.monotonic() < deadline, "the deal did not finish in time"
            # Before the count, at most one screen says "you are the hidden partner".
            secrets = [i for i, p in enumerate(pages) if p.locator(".secret").count()]
            assert len(secrets) <= 1
            secret_seen.update(secrets)
            turn = next((p for p in pages if my_turn(p)), None)
            if turn is None:
                time.sleep(0.05)
                continue
            if phase(turn) == "play" and not checked_first_lead:
                # Nothing played yet: no screen names a partner (R9), one knows it is the partner.
                assert all(p.locator(".tag.partner").count() == 0 for p in pages)
                assert len(secrets) == 1
                checked_first_lead = True
            act(turn)
        assert checked_first_lead
        assert len(secret_seen) == 1, "the holder of the called trump was told, and only it"
        partner = secret_seen.pop()
        for page in pages:
            page.locator(".center.count").wait_for()
            # At the count every screen marks the partner's seat.
            assert page.locator(".tag.partner").count() == 1
        assert pages[partner].locator(".secret").count() == 0
