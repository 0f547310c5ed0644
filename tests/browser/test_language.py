"""Every word from one catalogue, English and Italian: the browser's language by default,
switchable on the page; the engine's reasons translated by their English text."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PHONE, shot
from .driver import phase
from .test_catalogue import block

pytestmark = pytest.mark.browser


def test_language_follows_the_browser_and_switches(live_server, new_page):
    page = new_page(PHONE, locale="it-IT")
    page.goto(live_server.url + "/")
    page.get_by_text("Al tavolo col computer").wait_for()
    assert page.get_attribute("html", "lang") == "it"
    assert page.locator("#sit-down").inner_text() == "Siediti"
    page.get_by_role("button", name="Read in English").click()
    page.get_by_text("The computer table").wait_for()
    assert page.get_attribute("html", "lang") == "en"
    page.reload()  # the choice is kept
    page.get_by_text("The computer table").wait_for()

    english = new_page(PHONE, locale="en-US")
    english.goto(live_server.url + "/")
    english.get_by_text("The computer table").wait_for()


def test_table_in_italian_with_translated_reasons(live_server, new_page):
    italian_reasons = set(block("REASONS_IT").values())
    page = new_page(PHONE, locale="it-IT")
    page.goto(live_server.url + "/")
    page.click("#sit-down")
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => document.querySelector('.status.yours') || document.querySelector('.center.count')")
    assert re.search(r"Smazzata 1 di 3", page.locator(".deal-no").inner_text())
    if phase(page) == "speak":
        assert page.locator(".status .status-turn").inner_text() == "Tocca a te: parla."
        whys = page.locator(".actions .why").all_inner_texts()
        assert whys, "at three seats some word is always refused at the first speaking"
        assert all(w in italian_reasons for w in whys), whys
        # The game's own words stay Italian; the hints under them are translated.
        assert page.locator(".actions button[data-action='passo'] .word-main").inner_text() == "passo"
        assert page.locator(".actions button[data-action='passo'] small").inner_text() == "non gioco"
        shot(page, "language-it-phone")
        page.get_by_role("button", name="Read in English").click()
        page.get_by_text("Your turn: speak.").wait_for()
        assert page.locator(".actions button[data-action='passo'] small").inner_text() == "I pass"
        assert not any(w in italian_reasons for w in page.locator(".actions .why").all_inner_texts())
    # Card labels for screen readers follow the language too.
    label = page.locator(".hand .card .card-label").first.text_content()
    assert re.search(r"points?|punt[oi]", label)
    assert page.errors == []
